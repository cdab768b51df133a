import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactForSummary, redactWhole } from './redact-for-summary.js';

// One memo holds both forms of a message (whole, and clipped at the last limit asked): whatever
// order the two are asked in, and at whatever limits, each must equal what a never-seen copy of
// the message gives.

// A token assembled at run time from a generated body: none is in the source.
const secret = fc.stringMatching(/^[A-Za-z0-9]{36}$/).map((body) => `ghp_${body.slice(0, 33)}Q7z`);
const text = fc.oneof(
  fc.noBias(fc.string({ maxLength: 40 })),
  secret,
  fc
    .tuple(secret, fc.integer({ min: 200, max: 4_000 }))
    .map(([token, length]) => `${'x'.repeat(length)} ${token} ${'y'.repeat(length)}`),
);
const message: fc.Arbitrary<ModelMessage> = fc.oneof(
  text.map((content) => ({ role: 'user', content }) as ModelMessage),
  fc.tuple(text, text).map(
    ([input, value]) =>
      ({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 'sh',
            output: { type: 'text', value: `${input}\n${value}` },
          },
        ],
      }) as ModelMessage,
  ),
);
const ask = fc.oneof(
  fc.constant({ whole: true as const, limit: 0 }),
  fc.constantFrom(100, 1_500, 3_000).map((limit) => ({ whole: false as const, limit })),
);

describe('redactForSummary memo', () => {
  it('gives, in any order of asks, what a never-seen copy of the messages gives', () => {
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 4 }),
        fc.array(ask, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (messages, asks, passWhole) => {
          for (const { whole, limit } of asks) {
            const fresh = structuredClone(messages);
            if (whole) {
              expect(redactWhole(messages)).toEqual(redactWhole(fresh));
            } else {
              const given = passWhole ? redactWhole(messages) : undefined;
              expect(redactForSummary(messages, limit, given)).toEqual(
                redactForSummary(fresh, limit),
              );
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
