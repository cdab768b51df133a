import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES, runCli } from './index.js';
import { captureStream } from './test-utils/capture-stream.js';

// Attack on 9603768: `jsonNestingDepth` skips strings, but the OpenAI chat and Codex CLI readers
// JSON.parse a tool call's `arguments` string into the call's input. Nesting written there passes
// the 1,000-level check; from about 4,500 levels `count` and `compact` exit 1 (failure), the exit
// the commit set out to replace with 2 (bad input), and `compact` writes no line to stderr.
const stream = captureStream;

const nested = (depth: number, brackets: '[]' | '{}') =>
  brackets === '[]'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"k":'.repeat(depth)}1${'}'.repeat(depth)}`;

const transcripts = {
  'openai-chat': (args: string) =>
    JSON.stringify([
      { role: 'user', content: 'fix it' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 't', arguments: args } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      { role: 'user', content: 'next' },
    ]),
  'codex-cli': (args: string) =>
    [
      { type: 'session_meta', payload: { id: 's', cwd: '/tmp' } },
      {
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'fix it' }],
        },
      },
      {
        type: 'response_item',
        payload: { type: 'function_call', name: 't', arguments: args, call_id: 'c1' },
      },
      {
        type: 'response_item',
        payload: { type: 'function_call_output', call_id: 'c1', output: 'ok' },
      },
    ]
      .map((line, at) => JSON.stringify({ timestamp: `2025-01-01T00:00:0${at}Z`, ...line }))
      .join('\n'),
};

describe('nesting written inside a tool call’s arguments string', () => {
  const folder = mkdtempSync(join(tmpdir(), 'baton-hidden-deep-'));

  it('is bad input like nesting written as JSON (property; exit 0/3 below ~4,500, exit 1 above)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.noBias(fc.integer({ min: 1_001, max: 20_000 })),
        fc.constantFrom('[]' as const, '{}' as const),
        fc.constantFrom(...(Object.keys(transcripts) as Array<keyof typeof transcripts>)),
        fc.constantFrom(
          'count',
          'compact',
          'compact --strategy mask',
          'compact --strategy truncate',
        ),
        async (depth, brackets, format, command) => {
          const file = join(
            folder,
            `${format}-${depth}${format === 'codex-cli' ? '.jsonl' : '.json'}`,
          );
          writeFileSync(file, transcripts[format](nested(depth, brackets)));
          const [name, ...flags] = command.split(' ');
          const args =
            name === 'count'
              ? ['count', file]
              : ['compact', file, ...flags, '--target', '100000', '--out', `${file}.out`];
          const stderr = stream();
          const code = await runCli(args, { stdout: stream(), stderr, env: {} });
          expect(code, `${command} ${format} ${depth}: ${stderr.text}`).toBe(EXIT_CODES.badInput);
          expect(stderr.text).toContain('values nested deeper than 1,000 levels');
        },
      ),
      { numRuns: 12, endOnFailure: true },
    );
    expect(readdirSync(folder).filter((name) => name.endsWith('.out'))).toEqual([]);
  }, 120_000);
});
