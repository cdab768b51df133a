import type { ModelMessage } from '@ai-sdk/provider-utils';
import { BatonError, createTokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, redactMessages, redactSecrets } from './index.js';

const counter = createTokenCounter({ encoding: 'o200k_base' });

const alphanumeric = fc.constantFrom(
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
);
const randomBody = (length: number) =>
  fc.array(alphanumeric, { minLength: length, maxLength: length }).map((chars) => chars.join(''));
const upperBase32 = (length: number) =>
  fc
    .array(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'), {
      minLength: length,
      maxLength: length,
    })
    .map((chars) => chars.join(''));

// Generated secrets of several families, assembled at run time. Bodies with almost no variety
// (all one letter) are placeholders by design, so the generators require some mix.
const mixed = (body: string) => {
  const counts = new Map<string, number>();
  for (const character of body) counts.set(character, (counts.get(character) ?? 0) + 1);
  return counts.size >= 8 && Math.max(...counts.values()) <= body.length * 0.3;
};
const secret = fc.oneof(
  randomBody(36)
    .filter(mixed)
    .map((body) => 'ghp_' + body),
  randomBody(48)
    .filter(mixed)
    .map((body) => 'sk-proj-' + body),
  randomBody(24)
    .filter(mixed)
    .map((body) => 'xoxb-' + '1234567890' + '-' + '9876543210' + '-' + body),
  upperBase32(16)
    .filter(mixed)
    .map((body) => 'AKIA' + body),
  randomBody(35)
    .filter(mixed)
    .map((body) => 'AIza' + body),
  randomBody(20)
    .filter(mixed)
    .map((body) => 'glpat-' + body),
  randomBody(24)
    .filter(mixed)
    .map((body) => `password = "${body}"`),
  randomBody(24)
    .filter(mixed)
    .map((body) => `Authorization: Bearer ${body}`),
  randomBody(16)
    .filter(mixed)
    .map((body) => `postgres://app:${body}@db.example.com:5432/main`),
);
// Innocent surroundings: prose, paths, punctuation.
const filler = fc
  .array(
    fc.constantFrom(
      'the build',
      'failed',
      '/src/app.ts',
      ' ',
      '\n',
      ',',
      'see',
      'token',
      ':',
      '"',
      'x',
      '(',
      ')',
      '=',
      'ok',
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(' '));

function secretValue(text: string): string {
  // The part that must disappear: the value after the last separator for keyed forms.
  const keyed = /(?:password = "|Bearer |app:)([^"@\s]+)/.exec(text);
  return keyed ? keyed[1]! : text;
}

describe('redaction properties', () => {
  it('never leaves a generated secret in the output, whatever surrounds it', () => {
    fc.assert(
      fc.property(filler, secret, filler, (before, value, after) => {
        const text = `${before} ${value} ${after}`;
        const result = redactSecrets(text);
        expect(result.text).not.toContain(secretValue(value));
        for (const finding of result.findings) expect(finding.start).toBeLessThan(finding.end);
      }),
      { numRuns: 300 },
    );
  });

  it('is idempotent: redacting redacted text finds nothing more', () => {
    fc.assert(
      fc.property(filler, secret, filler, (before, value, after) => {
        const once = redactSecrets(`${before} ${value} ${after}`);
        expect(redactSecrets(once.text)).toEqual({ text: once.text, findings: [] });
      }),
      { numRuns: 200 },
    );
  });

  it('reports positions that point at the original text and do not overlap', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(filler, secret), { maxLength: 6 }), (parts) => {
        const text = parts.join('\n');
        const { findings } = redactSecrets(text);
        let previousEnd = 0;
        for (const finding of findings) {
          expect(finding.start).toBeGreaterThanOrEqual(previousEnd);
          expect(finding.end).toBeLessThanOrEqual(text.length);
          previousEnd = finding.end;
        }
      }),
      { numRuns: 200 },
    );
  });

  it('redacts secrets anywhere in a message list without touching ids', () => {
    fc.assert(
      fc.property(secret, (value) => {
        const messages: ModelMessage[] = [
          { role: 'user', content: `use ${value}` },
          {
            role: 'assistant',
            content: [
              {
                type: 'tool-call',
                toolCallId: 'call-1',
                toolName: 'bash',
                input: { command: `echo ${value}` },
              },
            ],
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'call-1',
                toolName: 'bash',
                output: { type: 'json', value: { out: value } },
              },
            ],
          },
        ];
        const { messages: redacted } = redactMessages(messages);
        expect(JSON.stringify(redacted)).not.toContain(secretValue(value));
        expect(JSON.stringify(redacted)).toContain('call-1');
      }),
      { numRuns: 100 },
    );
  });
});

// Arbitrary but valid windows: user asks, assistant text with tool calls, tool results of every type.
const word = fc.constantFrom(
  'fix',
  'the',
  'test',
  'src/a.ts',
  'lib/b.py',
  'Error: boom',
  'ok',
  'failed',
  '~/x.md',
  'C:\\w\\y.cs',
  '{"k": 1}',
);
const sentence = fc.array(word, { minLength: 1, maxLength: 30 }).map((words) => words.join(' '));
const output = fc.oneof(
  sentence.map((value) => ({ type: 'text' as const, value })),
  sentence.map((value) => ({ type: 'error-text' as const, value })),
  sentence.map((value) => ({ type: 'json' as const, value: { value } })),
  sentence.map((value) => ({ type: 'error-json' as const, value: { error: value } })),
  fc.constant({ type: 'execution-denied' as const, reason: 'not allowed' }),
  sentence.map((text) => ({ type: 'content' as const, value: [{ type: 'text' as const, text }] })),
);
const turn = fc.oneof(
  sentence.map((text): ModelMessage[] => [{ role: 'user', content: text }]),
  fc
    .tuple(sentence, fc.constantFrom('bash', 'read', 'edit'), sentence, output)
    .map(([text, toolName, command, result]): ModelMessage[] => [
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text },
          { type: 'text', text },
          { type: 'tool-call', toolCallId: `id-${command.length}`, toolName, input: { command } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: `id-${command.length}`, toolName, output: result },
        ],
      },
    ]),
);
const window = fc.array(turn, { maxLength: 40 }).map((turns) => turns.flat());

describe('receipt properties', () => {
  it('is byte-identical for the same input and always within budget', () => {
    fc.assert(
      fc.property(window, fc.integer({ min: 120, max: 3000 }), (messages, maxTokens) => {
        const first = createReceipt(messages, { maxTokens, counter });
        const second = createReceipt(structuredClone(messages), { maxTokens, counter });
        expect(second.text).toBe(first.text);
        expect(counter.count(first.text)).toBeLessThanOrEqual(maxTokens);
        expect(first.stats.tokens).toBe(counter.count(first.text));
      }),
      { numRuns: 80 },
    );
  });
});

describe('malformed input', () => {
  const anyMessage = fc.oneof(
    fc.anything(),
    fc.record({
      role: fc.constantFrom('user', 'assistant', 'tool', 'system', 'robot'),
      content: fc.anything(),
    }),
    fc.record({
      role: fc.constantFrom('assistant', 'tool'),
      content: fc.array(
        fc.record(
          {
            type: fc.constantFrom(
              'text',
              'reasoning',
              'tool-call',
              'tool-result',
              'image',
              'file',
              'custom',
              'x',
            ),
            text: fc.anything(),
            toolCallId: fc.anything(),
            toolName: fc.anything(),
            input: fc.anything(),
            output: fc.oneof(
              fc.anything(),
              fc.record({
                type: fc.constantFrom(
                  'text',
                  'json',
                  'error-text',
                  'error-json',
                  'content',
                  'execution-denied',
                  'x',
                ),
                value: fc.anything(),
              }),
            ),
          },
          { requiredKeys: ['type'] },
        ),
      ),
    }),
  );

  it('either builds a receipt or throws a BatonError, never anything else', () => {
    fc.assert(
      fc.property(fc.array(anyMessage, { maxLength: 6 }), (messages) => {
        try {
          const receipt = createReceipt(messages as ModelMessage[], { counter, maxTokens: 300 });
          expect(receipt.stats.tokens).toBeLessThanOrEqual(300);
        } catch (error) {
          expect(BatonError.isInstance(error)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
