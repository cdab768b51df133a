import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, redactSecrets } from './index.js';

// The commonest chosen passwords: a word, digits, maybe a symbol (`Summer2024`, `hunter2x!`).
// Drawn without bias: biased draws shrink to `aaa0`, which reads as filler.
const drawn = (characters: string, minLength: number, maxLength: number) =>
  fc
    .noBias(fc.array(fc.integer({ min: 0, max: characters.length - 1 }), { minLength, maxLength }))
    .map((indexes) => indexes.map((index) => characters[index]).join(''));
const word = fc.constantFrom(
  'summer',
  'winter',
  'hunter',
  'dragon',
  'monkey',
  'sunshine',
  'letmein',
  'football',
  'shadow',
  'welcome',
  'admin',
  'qwerty',
  'baseball',
  'autumn',
  'spring',
);
const weakPassword = fc
  .tuple(
    word,
    fc.boolean(),
    drawn('0123456789', 1, 4),
    fc.constantFrom('', '', 'x', 'z', 'k'),
    fc.constantFrom('', '!', '#', '@', '$', '?'),
  )
  .map(
    ([stem, capital, digits, letter, symbol]) =>
      `${capital ? stem[0]!.toUpperCase() + stem.slice(1) : stem}${digits}${letter}${symbol}`,
  );

const qualifier = fc.constantFrom('db', 'prod', 'the vpn', 'staging', 'root', 'the admin account');
const prose = fc.constantFrom(
  (password: string) => `the admin password is ${password}`,
  (password: string) => `The admin password is ${password} and it expires soon.`,
  (password: string, what: string) => `password for ${what}: ${password}`,
  (password: string, what: string) => `the password for ${what} is ${password}`,
  (password: string, what: string) => `Password for ${what} is now ${password}.`,
  (password: string, what: string) => `the ${what} password is: ${password}`,
  (password: string) => `my password was ${password}, please rotate it`,
  (password: string, what: string) => `password of ${what} = ${password}`,
);
const nested = fc.constantFrom(
  (password: string) => JSON.stringify({ db: { credentials: { password } } }),
  (password: string) => JSON.stringify({ auth: { secret: password } }),
  (password: string) => JSON.stringify({ service: { auth: { password, user: 'svc' } } }),
  (password: string) => JSON.stringify({ db: { credentials: { password } } }, null, 2),
);

const counter = { count: (text: string) => Math.ceil(text.length / 4) };

/** A window where the text reaches a receipt as a user ask, a tool's input and its output. */
function window(text: string): ModelMessage[] {
  const input = (() => {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      return { note: text };
    }
  })();
  return [
    { role: 'user', content: `Set up the database. ${text}` },
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'configure', input }],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'configure',
          output: { type: 'error-text', value: `error: rejected ${text}` },
        },
      ],
    },
    { role: 'user', content: text },
  ];
}

describe('weak passwords', () => {
  it('stated in prose are redacted (property)', () => {
    fc.assert(
      fc.property(prose, weakPassword, qualifier, (sentence, password, what) => {
        expect(redactSecrets(sentence(password, what)).text).not.toContain(password);
      }),
      { numRuns: 1000, endOnFailure: true },
    );
  });

  it('under nested JSON keys are redacted (property)', () => {
    fc.assert(
      fc.property(nested, weakPassword, (json, password) => {
        expect(redactSecrets(json(password)).text).not.toContain(password);
      }),
      { numRuns: 500, endOnFailure: true },
    );
  });

  it('never reach a receipt, in prose or nested JSON (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc
            .tuple(prose, weakPassword, qualifier)
            .map(([sentence, password, what]) => [sentence(password, what), password] as const),
          fc
            .tuple(nested, weakPassword)
            .map(([json, password]) => [json(password), password] as const),
        ),
        ([text, password]) => {
          const receipt = createReceipt(window(text), { counter, maxTokens: 1000 });
          expect(receipt.text).not.toContain(password);
          for (const body of Object.values(receipt.sections)) expect(body).not.toContain(password);
        },
      ),
      { numRuns: 300, endOnFailure: true },
    );
  });

  it('leave sentences about passwords alone', () => {
    for (const text of [
      'the password for db is stored in the vault',
      'password for prod: see the runbook',
      'The password is required for every login.',
      'the password for the vpn is the same as last year',
    ]) {
      expect(redactSecrets(text).findings).toEqual([]);
    }
  });
});
