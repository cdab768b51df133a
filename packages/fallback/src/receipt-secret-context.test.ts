import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets } from './credential-families.js';
import { createReceipt, ReceiptInputError, redactSecrets, renderHandoff } from './index.js';
import { oneOf, randomValue } from './test-utils/generated-values.js';

// Two receipt paths that showed what `redactSecrets` hides. A previous summary in Baton's layout
// was split into lines and each line trimmed before redaction, so a secret known by the lines
// around it (a YAML block scalar under `token: |`) lost its context. And a message no
// `ModelMessage` can be was named in the error with its value: a role or output type holding a
// credential went into the error message.
const key = oneOf(['token', 'password', 'client_secret', 'api_key']);
const block = oneOf(['|', '>-', '|-']);
const value = randomValue([alphabets.alnum], 12, 20);

describe('a previous summary in the handoff layout', () => {
  it('keeps no secret that its indentation made one (property)', () => {
    let kept = 0;
    fc.assert(
      fc.property(key, block, value, (name, indicator, secret) => {
        const body = `creds:\n  ${name}: ${indicator}\n    ${secret}\n  region: eu`;
        // Premise: redacted as it stands, the body hides the secret; trimmed, it would not. (A
        // 12-character value under `token` may be too plain to be one: those draws are skipped.)
        const trimmed = body
          .split('\n')
          .map((line) => line.trim())
          .join('\n');
        fc.pre(
          !redactSecrets(body).text.includes(secret) &&
            redactSecrets(trimmed).text.includes(secret),
        );
        kept++;
        const previousSummary = renderHandoff({ latestAsk: 'deploy', completedActions: body });
        const receipt = createReceipt([{ role: 'user', content: 'go on' }], {
          maxTokens: 3000,
          previousSummary,
        });
        expect(receipt.text).not.toContain(secret);
        expect(JSON.stringify(receipt.sections)).not.toContain(secret);
        expect(receipt.text).toContain('region: eu');
      }),
      { numRuns: 200 },
    );
    // Most draws meet the premise: the test is about them, not about the skipped ones.
    expect(kept).toBeGreaterThan(150);
  });
});

describe('an invalid message named in a ReceiptInputError', () => {
  const secret = fc
    .tuple(
      oneOf(['ghp_', 'sk-ant-api03-', 'password=', 'xoxb-']),
      randomValue([alphabets.alnum], 36, 40),
    )
    .map(([prefix, body]) => prefix + body);
  const broken: Array<(s: string) => ModelMessage[]> = [
    (s) => [{ role: s, content: 'x' } as unknown as ModelMessage],
    (s) => [{ role: { token: s }, content: 'x' } as unknown as ModelMessage],
    (s) =>
      [
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'a',
              toolName: 'b',
              output: { type: s, value: 'x' },
            },
          ],
        },
      ] as unknown as ModelMessage[],
  ];

  it('never carries the value (property)', () => {
    fc.assert(
      fc.property(secret, oneOf(broken), (s, build) => {
        let caught: unknown;
        try {
          createReceipt(build(s));
        } catch (error) {
          caught = error;
        }
        expect(ReceiptInputError.isInstance(caught)).toBe(true);
        const error = caught as ReceiptInputError;
        expect(`${error.message} ${error.path} ${String(error.stack)}`).not.toContain(s.slice(-20));
      }),
      { numRuns: 200 },
    );
  });

  it('still names a short word, so the mistake can be found (control)', () => {
    expect(() => createReceipt([{ role: 'bot', content: 'x' } as unknown as ModelMessage])).toThrow(
      /unknown role "bot"/,
    );
  });
});
