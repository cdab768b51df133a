import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialFamilies, seededRandom } from './credential-families.js';
import { redactMessages } from './index.js';
import { oneOf } from './test-utils/generated-values.js';

// A tool's data may use a credential as an object key: a map from tokens to their scopes, a
// header line as a key, a cache keyed by API key. Before, `redactMessages` redacted values only:
// the keys went to the auxiliary model, and into `findings[].path`, in the clear.
const families = credentialFamilies.filter((family) => family.fixedPrefix);
const token = fc
  .tuple(oneOf(families), fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 })))
  .map(([family, seed]) => family.make(seededRandom(seed)));
const keyForm = oneOf([
  (t: string) => t,
  (t: string) => `Authorization: Bearer ${t}`,
  (t: string) => `token=${t}`,
]);

function window(key: string, where: 'input' | 'output'): ModelMessage[] {
  const data = { tokens: { [key]: { scopes: ['repo'] }, other: { scopes: [] } }, count: 2 };
  return [
    { role: 'user', content: 'list the tokens' },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'call_1',
          toolName: 'tokens',
          input: where === 'input' ? data : { all: true },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_1',
          toolName: 'tokens',
          output: { type: 'json', value: where === 'output' ? data : { ok: true } },
        },
      ],
    },
  ];
}

describe('a credential used as an object key in tool data', () => {
  it('is redacted in the messages and in the finding paths (property)', () => {
    fc.assert(
      fc.property(token, keyForm, oneOf(['input', 'output'] as const), (t, form, where) => {
        const messages = window(form(t), where);
        // Premise: the key holds the token.
        expect(JSON.stringify(messages)).toContain(t);
        const { messages: safe, findings } = redactMessages(messages);
        expect(JSON.stringify(safe)).not.toContain(t);
        expect(JSON.stringify(findings)).not.toContain(t);
        expect(findings.length).toBeGreaterThan(0);
        // The rest of the object stays: the other key, the count, the pairing ids.
        expect(JSON.stringify(safe)).toContain('"other":{"scopes":[]}');
        expect(JSON.stringify(safe)).toContain('"toolCallId":"call_1"');
      }),
      { numRuns: 300 },
    );
  });

  it('keeps two keys that redact alike as two fields', () => {
    const [a, b] = [1, 2].map((seed) => credentialFamilies[0]!.make(seededRandom(seed * 7919)));
    const { messages } = redactMessages(window('x', 'output'));
    expect(messages).toBeDefined();
    const data = { [a!]: 1, [b!]: 2 };
    const { messages: safe } = redactMessages([
      { role: 'user', content: 'x' },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 't',
            output: { type: 'json', value: data },
          },
        ],
      },
    ]);
    const output = (safe[1]!.content as Array<{ output: { value: Record<string, number> } }>)[0]!
      .output.value;
    expect(Object.values(output).sort()).toEqual([1, 2]);
    expect(JSON.stringify(output)).not.toContain(a!);
  });

  it('leaves ordinary keys, and an untouched history the same object (control)', () => {
    const messages = window('src/components/UserProfileCard.tsx', 'output');
    const result = redactMessages(messages);
    expect(result.messages).toBe(messages);
    expect(result.findings).toEqual([]);
  });
});
