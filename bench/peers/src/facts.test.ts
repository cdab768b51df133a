import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { extractFacts, factSurvival } from './facts.ts';
import type { Message } from './messages.ts';

// File and folder names end with a letter or digit (the extractor reads `name.ext` as a word then a dot).
const segment = fc.stringMatching(/^[a-z](?:[a-z0-9_-]{0,7}[a-z0-9])?$/);
const path = fc
  .tuple(
    fc.array(segment, { minLength: 1, maxLength: 3 }),
    segment,
    fc.constantFrom('ts', 'py', 'rs', 'md'),
  )
  .map(([folders, name, ext]) => `${folders.join('/')}/${name}.${ext}`);
const words = fc
  .array(fc.stringMatching(/^[a-z]{2,8}$/), { minLength: 1, maxLength: 6 })
  .map((w) => w.join(' '));

const toolTurn = (output: string, name = 'run_shell'): Message[] => [
  {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'c1', toolName: name, input: { command: 'x' } }],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: name,
        output: { type: 'text', value: output },
      },
    ],
  },
];

describe('the harness fact extractor', () => {
  test('is its own: it imports nothing of Baton', () => {
    const source = readFileSync(new URL('./facts.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/from '@baton\//);
  });

  test('finds a path, an error line, a tool name and a user ask wherever they sit, and scores their loss', () => {
    fc.assert(
      fc.property(path, words, words, segment, (file, before, ask, tool) => {
        const error = `Error: ${before} failed`;
        const messages: Message[] = [
          { role: 'user', content: ask },
          ...toolTurn(`${before}\n  ${file}:12\n${error}\n`, tool),
        ];
        const facts = extractFacts(messages);
        expect(facts.files.has(file)).toBe(true);
        expect(facts.errors.has(error)).toBe(true);
        expect(facts.tools.has(tool)).toBe(true);
        expect(facts.asks.has(ask)).toBe(true);
        expect(factSurvival(facts, messages)).toEqual({ files: 1, errors: 1, tools: 1, asks: 1 });
        // A summary that quotes them (whitespace changed) keeps them; one that does not, does not.
        const quoted: Message[] = [
          {
            role: 'user',
            content: `Summary:\n${ask}\n${tool} touched ${file}\n${error.replace(/ /g, '  ')}`,
          },
        ];
        expect(factSurvival(facts, quoted)).toEqual({ files: 1, errors: 1, tools: 1, asks: 1 });
        const lost = factSurvival(facts, [{ role: 'user', content: 'Summary: work happened.' }]);
        expect(lost).toEqual({ files: 0, errors: 0, tools: 0, asks: 0 });
      }),
    );
  });

  test('a kind absent from the input counts as kept, not as a division by zero', () => {
    const facts = extractFacts([{ role: 'user', content: 'hi there' }]);
    expect(factSurvival(facts, [])).toEqual({ files: 1, errors: 1, tools: 1, asks: 0 });
  });

  test('URLs are not files; hostile input stays linear', () => {
    const facts = extractFacts([{ role: 'user', content: 'see https://example.com/a/b.html now' }]);
    expect([...facts.files]).toEqual([]);
    const hostile = `${'a/'.repeat(50_000)}x`;
    const start = performance.now();
    extractFacts([{ role: 'user', content: hostile }]);
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});
