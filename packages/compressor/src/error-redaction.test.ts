import { BatonError } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextCompressor, fromOpenAIChat, validateMessages, validateToolPairs } from './index.js';

/**
 * A secret in the wrong field (an API key pasted as a role, a token as a part type) must not come
 * back in an error: errors are logged and shown. Secret-shaped values are generated per run.
 */
const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const secret = fc
  .tuple(
    fc.constantFrom('sk-proj-', 'ghp_', 'AKIA', 'xoxb-', 'glpat-', 'sk_live_', ''),
    fc.string({ unit: fc.constantFrom(...alphabet), minLength: 20, maxLength: 40 }),
  )
  .map(([prefix, body]) => `${prefix}${body}`);

/** Everything an error exposes: message, path, name, code, JSON and string forms. */
function exposed(error: unknown): string {
  const record = error as Record<string, unknown>;
  return [
    String(error),
    JSON.stringify(error),
    String(record.message),
    String(record.path),
    String(record.stack),
  ].join('\n');
}

function rejection(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const placements: Array<[string, (value: string) => unknown]> = [
  [
    'a role',
    (value) => [
      { role: 'user', content: 'hi' },
      { role: value, content: 'x' },
    ],
  ],
  ['a user part type', (value) => [{ role: 'user', content: [{ type: value, text: 'x' }] }]],
  [
    'a tool output type',
    (value) => [
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 't', input: {} }],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: value } },
        ],
      },
    ],
  ],
  ['an assistant part type', (value) => [{ role: 'assistant', content: [{ type: value }] }]],
];

describe('errors never echo the offending value', () => {
  for (const [name, place] of placements) {
    it(`validateMessages: a secret as ${name}`, () => {
      fc.assert(
        fc.property(secret, (value) => {
          const error = rejection(() => validateMessages(place(value)));
          expect(BatonError.isInstance(error)).toBe(true);
          expect(exposed(error)).not.toContain(value.slice(-16));
        }),
        { numRuns: 100 },
      );
    });
  }

  it('fromOpenAIChat: a secret as a role', () => {
    fc.assert(
      fc.property(secret, (value) => {
        const error = rejection(() => fromOpenAIChat([{ role: value, content: 'x' }]));
        expect(BatonError.isInstance(error)).toBe(true);
        expect(exposed(error)).not.toContain(value.slice(-16));
      }),
      { numRuns: 100 },
    );
  });

  it('validateToolPairs: a secret as a role is reported without its value', () => {
    fc.assert(
      fc.property(secret, (value) => {
        const { problems } = validateToolPairs([{ role: value, content: 'x' }] as never);
        expect(problems.length).toBeGreaterThan(0);
        expect(JSON.stringify(problems)).not.toContain(value.slice(-16));
      }),
      { numRuns: 100 },
    );
  });

  it('compressor options and compress: a secret as the strategy, detail or a number', async () => {
    await fc.assert(
      fc.asyncProperty(secret, async (value) => {
        const errors: unknown[] = [
          rejection(() => new ContextCompressor({ strategy: value as never })),
          rejection(() => new ContextCompressor({ detail: value as never })),
          rejection(() => new ContextCompressor({ protectLastNTokens: value as never })),
        ];
        const compressor = new ContextCompressor();
        for (const options of [{ targetTokens: 10, strategy: value }, { targetTokens: value }]) {
          errors.push(
            await compressor.compress([{ role: 'user', content: 'hi' }], options as never).then(
              () => new Error('expected a rejection'),
              (error: unknown) => error,
            ),
          );
        }
        for (const error of errors) {
          expect(BatonError.isInstance(error), String(error)).toBe(true);
          expect(exposed(error)).not.toContain(value.slice(-16));
        }
      }),
      { numRuns: 50 },
    );
  });
});
