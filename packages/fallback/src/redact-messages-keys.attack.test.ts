import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialFamilies, credentialPositions, seededRandom } from './credential-families.js';
import { redactMessages } from './redact-messages.js';
import { redactSecrets } from './redact-secrets.js';

/**
 * Attack: a secret as an object KEY of free data (a tool's input or output). Tools return maps
 * keyed by whatever they read (`{ [envValue]: ... }`, header maps, a JSON file whose keys are
 * tokens), and the summariser request, the session store and the receipt all see these objects
 * through `redactMessages`. Values were redacted at any depth; keys never were, so
 * `{ "ghp_...": 1 }` reached the summariser in the clear.
 */

const families = credentialFamilies.filter((family) => family.fixedPrefix);

/** A secret (by family and seed) standing in a key, alone or inside text (`Bearer <token>`). */
const keyedSecret = fc
  .record({
    family: fc.noBias(fc.integer({ min: 0, max: families.length - 1 })),
    seed: fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 })),
    position: fc.noBias(fc.integer({ min: 0, max: credentialPositions.length - 1 })),
  })
  .map(({ family, seed, position }) => {
    const token = families[family]!.make(seededRandom(seed));
    return { token, key: credentialPositions[position]![1](token) };
  });

/** Where the keyed object sits: a tool-call input or a tool result output, at some depth. */
const placement = fc.record({
  where: fc.constantFrom('input', 'json', 'error-json', 'content-json'),
  depth: fc.integer({ min: 0, max: 4 }),
  inArray: fc.boolean(),
});

function nest(value: unknown, depth: number, inArray: boolean): unknown {
  let nested = value;
  for (let level = 0; level < depth; level++)
    nested = inArray && level % 2 === 0 ? [nested] : { level: nested };
  return nested;
}

function history(keyed: object, where: string): ModelMessage[] {
  const call: ModelMessage = {
    role: 'assistant',
    content: [
      {
        type: 'tool-call',
        toolCallId: 'call-1',
        toolName: 'env',
        input: where === 'input' ? keyed : { name: 'ci' },
      },
    ],
  };
  const output =
    where === 'input'
      ? { type: 'text' as const, value: 'done' }
      : where === 'content-json'
        ? {
            type: 'content' as const,
            value: [{ type: 'text' as const, text: JSON.stringify({ ok: true }) }],
            // Unknown fields of a content output are free data too.
            extra: keyed,
          }
        : { type: where as 'json' | 'error-json', value: keyed as never };
  return [
    { role: 'user', content: 'Load the environment.' },
    call,
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'call-1', toolName: 'env', output } as never],
    },
  ];
}

/** The token in the text, or any run of 12+ of its characters (a cut that still leaks). */
function leaks(text: string, token: string): boolean {
  for (let start = 0; start + 12 <= token.length; start++) {
    if (text.includes(token.slice(start, start + 12))) return true;
  }
  return false;
}

describe('redactMessages on secrets in object keys', () => {
  it('a key holding a secret is redacted wherever the object sits; its value and siblings stay', () => {
    fc.assert(
      fc.property(keyedSecret, placement, ({ token, key }, { where, depth, inArray }) => {
        // Premise: the same text as a value is a recognised secret (the rules' job, not this test's).
        fc.pre(leaks(key, token) && !leaks(redactSecrets(key).text, token));
        // A secret value under the secret key too: its finding's path must not quote the key.
        const keyed = nest(
          { [key]: 'value-kept', sibling: 'kept too', nested: { [key]: key } },
          depth,
          inArray,
        );
        const messages = history(keyed as object, where);
        const { messages: redacted, findings } = redactMessages(messages);
        const text = JSON.stringify(redacted);
        expect(leaks(text, token)).toBe(false);
        expect(text).toContain('value-kept');
        expect(text).toContain('kept too');
        expect(findings.length).toBeGreaterThan(0);
        // Findings never quote the secret either (their paths name fields).
        expect(leaks(JSON.stringify(findings), token)).toBe(false);
        // Control: the input is untouched and holds the secret (so the check above can fail).
        expect(leaks(JSON.stringify(messages), token)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('two secret keys of one object stay two entries (no value lost to a collision)', () => {
    fc.assert(
      fc.property(keyedSecret, keyedSecret, (first, second) => {
        fc.pre(first.token !== second.token && first.key !== second.key);
        // Premise: each key, redacted alone, holds neither token (nor a 12-character run of one:
        // `https://api.` of one key's text is also the start of some issuers' token URLs).
        const alone = redactSecrets(first.key).text + redactSecrets(second.key).text;
        fc.pre(!leaks(alone, first.token) && !leaks(alone, second.token));
        const messages = history({ [first.key]: 'one', [second.key]: 'two' }, 'json');
        const { messages: redacted } = redactMessages(messages);
        const output = (redacted[2]!.content as Array<{ output: { value: object } }>)[0]!.output
          .value;
        expect(Object.values(output).sort()).toEqual(['one', 'two']);
        expect(leaks(JSON.stringify(output), first.token)).toBe(false);
        expect(leaks(JSON.stringify(output), second.token)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('keys without a secret are kept as they are, and then the object itself is returned', () => {
    // Control for over-redaction: ordinary keys (paths, names, numbers, `__proto__`) are data the
    // summary needs; copy-on-write still returns the very input when nothing was found.
    const ordinary = fc.oneof(
      fc.constantFrom('__proto__', 'path', 'src/app.ts', 'Content-Type', '0', 'user.name'),
      fc.stringMatching(/^[a-z][a-z_]{0,11}$/),
    );
    fc.assert(
      fc.property(fc.uniqueArray(ordinary, { minLength: 1, maxLength: 6 }), (keys) => {
        const keyed: Record<string, unknown> = {};
        for (const key of keys)
          Object.defineProperty(keyed, key, {
            value: 1,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        const messages = history(keyed, 'json');
        const { messages: redacted } = redactMessages(messages);
        expect(redacted).toBe(messages);
      }),
      { numRuns: 200 },
    );
  });
});
