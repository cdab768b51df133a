import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type MessageSecretFinding, redactMessages, redactSecrets } from './index.js';
import { isKeyedSecret, keyIsSecret } from './secret-rules.js';

// The oracle: the redaction as specified, written the simplest way (a full copy of every message,
// a path string for every value, `redactSecrets` per string). `redactMessages` must give the same
// messages and findings while copying and naming only what holds a finding.
function oracle(messages: readonly ModelMessage[]): {
  messages: unknown[];
  findings: MessageSecretFinding[];
} {
  const findings: MessageSecretFinding[] = [];
  const text = (value: string, path: string, key?: string): string => {
    if (key !== undefined && isKeyedSecret(key, value)) {
      const kind = keyIsSecret(key) === 'strong' ? 'password' : 'secret';
      findings.push({ path, kind, start: 0, end: value.length });
      return `[REDACTED:${kind}]`;
    }
    const result = redactSecrets(value);
    for (const finding of result.findings) findings.push({ path, ...finding });
    return result.text;
  };
  const free = (value: unknown, path: string, key?: string): unknown => {
    if (typeof value === 'string') return text(value, path, key);
    if (Array.isArray(value)) return value.map((item, index) => free(item, `${path}[${index}]`));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(
        Object.entries(value).map(([field, inner]) => [
          field,
          free(inner, `${path}.${field}`, field),
        ]),
      );
    }
    return value;
  };
  const kept = new Set(['type', 'toolCallId', 'toolName', 'mediaType', 'providerOptions']);
  const part = (value: Record<string, unknown>, path: string, toolResult: boolean): unknown =>
    Object.fromEntries(
      Object.entries(value).map(([field, inner]) => {
        const at = `${path}.${field}`;
        if (kept.has(field) || (value.type === 'file' && field === 'data')) return [field, inner];
        if (toolResult && value.type === 'tool-result' && field === 'output') {
          const output = inner as Record<string, unknown>;
          return [
            field,
            Object.fromEntries(
              Object.entries(output).map(([outputField, item]) => {
                if (outputField === 'type') return [outputField, item];
                if (outputField === 'value' && output.type === 'content') {
                  return [
                    outputField,
                    (item as Record<string, unknown>[]).map((entry, index) =>
                      part(entry, `${at}.value[${index}]`, false),
                    ),
                  ];
                }
                return [outputField, free(item, `${at}.${outputField}`, outputField)];
              }),
            ),
          ];
        }
        return [field, free(inner, at, field)];
      }),
    );
  const copies = messages.map((message, index) =>
    Object.fromEntries(
      Object.entries(message).map(([field, inner]) => {
        const path = `messages[${index}].${field}`;
        if (field === 'role') return [field, inner];
        if (field === 'content' && Array.isArray(inner)) {
          return [field, inner.map((entry, at) => part(entry, `${path}[${at}]`, true))];
        }
        return [field, free(inner, path, field)];
      }),
    ),
  );
  return { messages: copies, findings };
}

// Secrets assembled at run time from generated bodies: no token is ever in the source.
const body = fc.stringMatching(/^[A-Za-z0-9]{30,40}$/).map((value) => `${value}Q7z`);
const secretText = fc.oneof(
  body.map((value) => `ghp_${value.slice(0, 36)}`),
  body.map((value) => `sk_live_${value.slice(0, 24)}`),
  body.map((value) => `Authorization: Bearer ${value}`),
);
const plainText = fc.oneof(
  fc.constantFrom('ls -la src', 'npm test passed', 'src/index.ts:12 error TS2322', 'ok'),
  fc.string({ maxLength: 40 }),
);
const anyText = fc.oneof({ weight: 4, arbitrary: plainText }, { weight: 1, arbitrary: secretText });
const keyName = fc.oneof(
  fc.constantFrom('path', 'data', 'type', 'value', 'password', 'api_key', 'token', 'note'),
  fc.string({ minLength: 1, maxLength: 8 }),
);
const { data } = fc.letrec((tie) => ({
  data: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    anyText,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('data'), { maxLength: 3 }),
    fc.dictionary(keyName, tie('data'), { maxKeys: 3 }),
  ),
}));
const toolResultOutput = fc.oneof(
  anyText.map((value) => ({ type: 'text', value })),
  anyText.map((value) => ({ type: 'error-text', value })),
  data.map((value) => ({ type: 'json', value })),
  data.map((value) => ({ type: 'error-json', value })),
  fc
    .array(anyText, { maxLength: 3 })
    .map((texts) => ({ type: 'content', value: texts.map((text) => ({ type: 'text', text })) })),
);
const message: fc.Arbitrary<ModelMessage> = fc.oneof(
  anyText.map((content) => ({ role: 'system', content }) as ModelMessage),
  anyText.map((content) => ({ role: 'user', content }) as ModelMessage),
  fc
    .array(
      fc.oneof(
        anyText.map((text) => ({ type: 'text', text })),
        fc.constant({ type: 'file', mediaType: 'text/plain', data: 'aGVsbG8gd29ybGQ=' }),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((content) => ({ role: 'user', content }) as ModelMessage),
  fc
    .array(
      fc.oneof(
        anyText.map((text) => ({ type: 'text', text })),
        anyText.map((text) => ({ type: 'reasoning', text })),
        data.map((input) => ({ type: 'tool-call', toolCallId: 'c1', toolName: 'sh', input })),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((content) => ({ role: 'assistant', content }) as ModelMessage),
  fc
    .array(
      toolResultOutput.map((output) => ({
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'sh',
        output,
      })),
      { minLength: 1, maxLength: 2 },
    )
    .map((content) => ({ role: 'tool', content }) as ModelMessage),
);

/** True when `after` shares no object with `before` along any path where they differ. */
function sharedOnlyWhereEqual(before: unknown, after: unknown): boolean {
  if (before === after) return true;
  if (typeof before !== 'object' || before === null) return true;
  if (typeof after !== 'object' || after === null) return true;
  return Object.keys(after).every((key) =>
    sharedOnlyWhereEqual(
      (before as Record<string, unknown>)[key],
      (after as Record<string, unknown>)[key],
    ),
  );
}

describe('redactMessages copy-on-write', () => {
  it('gives the oracle messages and findings, and shares exactly the untouched messages', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), (messages) => {
        const snapshot = structuredClone(messages);
        const expected = oracle(messages);
        const actual = redactMessages(messages);
        expect(actual.messages).toEqual(expected.messages);
        expect(actual.findings).toEqual(expected.findings);
        // The input is never mutated.
        expect(messages).toEqual(snapshot);
        messages.forEach((original, index) => {
          const clean = JSON.stringify(original) === JSON.stringify(expected.messages[index]);
          // Untouched messages come back as they are; touched ones are new objects.
          expect(actual.messages[index] === original).toBe(clean);
          expect(sharedOnlyWhereEqual(original, actual.messages[index])).toBe(true);
        });
        expect(actual.messages === messages).toBe(expected.findings.length === 0);
      }),
      { numRuns: 300, seed: 20_261_123 },
    );
  });

  it('returns the input array itself for a history without secrets', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Run the tests.' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'a', toolName: 'sh', input: { cmd: 'pnpm test' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'sh',
            output: { type: 'json', value: { passed: 12, files: ['src/a.ts'] } },
          },
        ],
      },
    ];
    const result = redactMessages(messages);
    expect(result.messages).toBe(messages);
    expect(result.findings).toEqual([]);
  });
});
