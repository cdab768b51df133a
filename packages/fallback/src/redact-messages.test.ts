import type { ModelMessage, ToolResultOutput } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, ReceiptInputError, redactMessages } from './index.js';

const token = 'ghp_' + 'Zx8Kq2Lm4Np6Rs8Tv0Wy2Ab4Cd6Ef8Gh0Jk2';

describe('redactMessages', () => {
  const messages: ModelMessage[] = [
    { role: 'system', content: `key ${token}` },
    { role: 'user', content: [{ type: 'text', text: `here: ${token}` }] },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: `I saw ${token}` },
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'http',
          input: { headers: { password: 'Hunter2' + 'Hunter2' }, url: 'https://x.dev' },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'http',
          output: { type: 'error-json', value: { token } },
        },
        {
          type: 'tool-result',
          toolCallId: 'c2',
          toolName: 'sh',
          output: { type: 'content', value: [{ type: 'text', text: token }] },
        },
        {
          type: 'tool-result',
          toolCallId: 'c3',
          toolName: 'sh',
          output: { type: 'execution-denied', reason: `blocked ${token}` },
        },
      ],
    },
  ];

  it('redacts every string and keeps ids, names and shapes', () => {
    const before = structuredClone(messages);
    const { messages: redacted, findings } = redactMessages(messages);
    expect(JSON.stringify(redacted)).not.toContain(token);
    expect(JSON.stringify(redacted)).not.toContain('Hunter2Hunter2');
    expect(messages).toEqual(before);
    const tool = redacted[3] as Extract<ModelMessage, { role: 'tool' }>;
    expect(
      tool.content.map((part) => (part.type === 'tool-result' ? part.toolCallId : '')),
    ).toEqual(['c1', 'c2', 'c3']);
    expect(findings.map((finding) => finding.path)).toContain(
      'messages[2].content[1].input.headers.password',
    );
    expect(findings.every((finding) => !('value' in finding))).toBe(true);
  });

  it('rejects a non-array with a typed error', () => {
    expect(() => redactMessages('x' as unknown as ModelMessage[])).toThrowError(ReceiptInputError);
  });
});

// Random secrets are built at run time from a seeded generator, so no token is ever in the source.
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function randomBody(seed: number, length: number, characters = alphabet): string {
  let state = seed >>> 0 || 1;
  let body = '';
  for (let index = 0; index < length; index++) {
    // xorshift32: cheap, deterministic per seed, no runs of one letter.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    body += characters[state % characters.length];
  }
  return body;
}
// Every body mixes upper case, lower case and digits, as real keys do.
const mixedBody = (seed: number, length: number) => `${randomBody(seed, length - 3)}Q7z`;

/** A planted secret: `value` goes into the data, `body` is the part that must never be seen again. */
interface Planted {
  value: string;
  body: string;
  /** The key it must sit under (a secret-named key), if any. */
  key?: string;
}
const planted: fc.Arbitrary<Planted> = fc
  .tuple(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 7 }))
  .map(([seed, family]) => {
    switch (family) {
      case 0: {
        const body = mixedBody(seed, 36);
        return { value: `ghp_${body}`, body };
      }
      case 1: {
        const body = mixedBody(seed, 24);
        return { value: `sk_live_${body}`, body };
      }
      case 2: {
        const body = mixedBody(seed, 20);
        return { value: `glpat-${body}`, body };
      }
      case 3: {
        const body = randomBody(seed, 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567');
        return { value: `AKIA${body}`, body };
      }
      case 4: {
        const body = mixedBody(seed, 48);
        return { value: `sk-proj-${body}`, body };
      }
      case 5: {
        const body = mixedBody(seed, 22);
        return { value: body, body, key: 'password' };
      }
      case 6: {
        const body = mixedBody(seed, 32);
        return { value: body, body, key: 'api_key' };
      }
      default: {
        const body = mixedBody(seed, 28);
        return { value: `Authorization: Bearer ${body}`, body };
      }
    }
  });
// Key names: the protocol field names that used to be skipped, and anything else.
const keyName = fc.oneof(
  fc.constantFrom(
    'data',
    'type',
    'image',
    'role',
    'signature',
    'toolCallId',
    'toolName',
    'mediaType',
    'providerOptions',
    'approvalId',
    'value',
    'content',
    'text',
  ),
  fc.string({ minLength: 1, maxLength: 12 }),
);
// A secret at the end of a random path of keys and arrays.
const nested = fc
  .tuple(
    planted,
    fc.array(fc.tuple(keyName, fc.boolean()), { minLength: 0, maxLength: 8 }),
    fc.constantFrom('', 'using ', 'the value is '),
  )
  .map(([secret, steps, prefix]) => {
    let value: unknown = secret.key ? { [secret.key]: secret.value } : `${prefix}${secret.value}`;
    for (const [key, inArray] of steps) {
      const object: Record<string, unknown> = {};
      Object.defineProperty(object, key, { value: inArray ? [value] : value, enumerable: true });
      value = object;
    }
    return { secret, value };
  });

function leaked(text: string, bodies: readonly string[]): string[] {
  return bodies.filter((body) => {
    for (let start = 0; start + 10 <= body.length; start += 3) {
      if (text.includes(body.slice(start, start + 10))) return true;
    }
    return false;
  });
}

describe('redactMessages inside tool data', () => {
  const stripe = `sk_live_${mixedBody(11, 24)}`;
  const password = mixedBody(12, 20);
  const apiKey = mixedBody(13, 32);

  it('redacts values under keys named like protocol fields inside inputs and outputs', () => {
    const messages = [
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'http',
            input: { url: 'https://api.example.com', data: { api_key: apiKey, stripe } },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'http',
            output: { type: 'json', value: { data: { data: { password } }, type: { stripe } } },
          },
        ],
      },
    ] as ModelMessage[];
    const { messages: redacted } = redactMessages(messages);
    const text = JSON.stringify(redacted);
    expect(leaked(text, [stripe, password, apiKey])).toEqual([]);
    // Protocol fields are still kept where they are protocol fields.
    expect(text).toContain('"toolCallId":"c1"');
    expect(text).toContain('"type":"json"');
  });

  it('keeps the binary data of file and media parts and signatures as they are', () => {
    const base64 = Buffer.from(`binary ${mixedBody(14, 40)}`).toString('base64');
    const signature = mixedBody(15, 64);
    const messages = [
      {
        role: 'user',
        content: [{ type: 'file', mediaType: 'application/pdf', data: base64 }],
      },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'ok', signature }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'x',
            toolName: 'shot',
            output: {
              type: 'content',
              value: [
                { type: 'text', text: `key ${stripe}` },
                { type: 'media', mediaType: 'image/png', data: base64 },
              ],
            },
          },
        ],
      },
    ] as unknown as ModelMessage[];
    const { messages: redacted } = redactMessages(messages);
    const text = JSON.stringify(redacted);
    expect(text.split(base64).length).toBe(3);
    expect(text).toContain(signature);
    expect(leaked(text, [stripe])).toEqual([]);
  });

  it('replaces cycles and very deep nesting by markers instead of overflowing the stack', () => {
    const cyclic: Record<string, unknown> = { note: `token ${stripe}` };
    cyclic.self = cyclic;
    let deep: unknown = `deep ${stripe}`;
    for (let level = 0; level < 20_000; level++) deep = { data: deep };
    const shallow = { a: { b: { note: `shallow ${stripe}` } } };
    const messages = [
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'a', toolName: 'x', input: cyclic },
          { type: 'tool-call', toolCallId: 'b', toolName: 'x', input: deep },
          { type: 'tool-call', toolCallId: 'c', toolName: 'x', input: shallow },
        ],
      },
    ] as unknown as ModelMessage[];
    const { messages: redacted } = redactMessages(messages);
    const parts = (redacted[0]!.content as Array<{ input: unknown }>).map((part) => part.input);
    expect((parts[0] as Record<string, unknown>).self).toBe('[omitted: circular reference]');
    expect(JSON.stringify(parts[1])).toContain('[omitted: nested too deep]');
    expect(JSON.stringify(parts[2])).toContain('shallow [REDACTED:stripe');
    expect(leaked(JSON.stringify(parts), [stripe])).toEqual([]);
  });

  it('rejects content that is neither a string nor an array with a typed error', () => {
    expect(() =>
      redactMessages([{ role: 'user', content: 5 }] as unknown as ModelMessage[]),
    ).toThrowError(ReceiptInputError);
    expect(() =>
      redactMessages([undefined, { role: 'user', content: 'x' }] as unknown as ModelMessage[]),
    ).toThrowError(ReceiptInputError);
  });

  it('leaves no planted secret in redacted messages or receipts, whatever the keys and nesting', () => {
    fc.assert(
      fc.property(fc.array(nested, { minLength: 1, maxLength: 4 }), (items) => {
        const bodies = items.map((item) => item.secret.body);
        const messages: ModelMessage[] = [{ role: 'user', content: 'Call the services.' }];
        items.forEach((item, index) => {
          const id = `call-${index}`;
          messages.push({
            role: 'assistant',
            content: [{ type: 'tool-call', toolCallId: id, toolName: 'svc', input: item.value }],
          });
          const value = item.value as Extract<ToolResultOutput, { type: 'json' }>['value'];
          const outputs: ToolResultOutput[] = [
            { type: 'json', value },
            { type: 'error-json', value },
            { type: 'text', value: JSON.stringify(value, null, 2) },
            { type: 'content', value: [{ type: 'text', text: JSON.stringify(value) }] },
          ];
          messages.push({
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: id,
                toolName: 'svc',
                output: outputs[index % outputs.length]!,
              },
            ],
          });
        });
        const { messages: redacted } = redactMessages(messages);
        expect(leaked(JSON.stringify(redacted), bodies)).toEqual([]);
        const receipt = createReceipt(messages, { maxTokens: 4000 });
        expect(leaked(receipt.text + JSON.stringify(receipt.sections), bodies)).toEqual([]);
      }),
      { numRuns: 150, seed: 20_261_122 },
    );
  });
});
