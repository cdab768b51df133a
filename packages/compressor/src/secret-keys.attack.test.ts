import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextCompressor, type SummarizerRequest } from './index.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

/**
 * Attack: a tool's input or output keyed by a secret (`{ "<token>": ... }`: an environment dump
 * keyed by values, a header map, a JSON file of tokens). Every string value of the middle was
 * redacted before the summariser saw it, but object keys went out as they were, inside the
 * serialised `[tool call ...]` / `[tool result ...]` JSON.
 */
const counter = createSimpleCounter();

// Assembled at run time from a generated body: no token is ever in the source.
const token = fc
  .stringMatching(/^[A-Za-z0-9]{36}$/)
  .filter((body) => /[0-9]/.test(body) && /[A-Z]/.test(body) && /[a-z]/.test(body))
  .map((body) => `ghp_${body}`);
const wrap = fc.constantFrom(
  (secret: string) => secret,
  (secret: string) => `Authorization: Bearer ${secret}`,
  (secret: string) => `token=${secret}`,
);
const where = fc.constantFrom('input', 'json', 'error-json');

function history(keyed: Record<string, unknown>, at: string): ModelMessage[] {
  const filler = (index: number): ModelMessage[] => [
    { role: 'user', content: `Question ${index}: ${'more detail '.repeat(60)}` },
    { role: 'assistant', content: `Answer ${index}: ${'reasoning text '.repeat(60)}` },
  ];
  return [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Set up the deployment.' },
    { role: 'assistant', content: 'Starting.' },
    ...[1, 2, 3].flatMap(filler),
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'env-1',
          toolName: 'readEnv',
          input: at === 'input' ? keyed : { file: '.env' },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'env-1',
          toolName: 'readEnv',
          output:
            at === 'input'
              ? { type: 'text', value: 'loaded' }
              : { type: at as 'json' | 'error-json', value: keyed as never },
        },
      ],
    },
    ...[4, 5, 6].flatMap(filler),
    { role: 'user', content: 'Now deploy it.' },
    { role: 'assistant', content: 'Deploying.' },
  ];
}

describe('compress with a secret as an object key in the middle', () => {
  it('neither the summariser request nor the summary holds it', async () => {
    await fc.assert(
      fc.asyncProperty(token, wrap, where, async (secret, form, at) => {
        const key = form(secret);
        const requests: SummarizerRequest[] = [];
        const compressor = new ContextCompressor({
          counter,
          protectLastNTokens: 200,
          summarizer: async (request) => {
            requests.push(request);
            return structuredSummary();
          },
        });
        const messages = history({ [key]: 'value', region: 'eu' }, at);
        const result = await compressor.compress(messages, {
          targetTokens: 800,
          strategy: 'summarize',
        });
        // Premise: the message with the key was in the summarised middle, and the summariser ran.
        expect(result.event.removedMessageIndexes).toContain(9);
        expect(requests.length).toBeGreaterThan(0);
        const sent = JSON.stringify(requests.map(({ abortSignal: _, ...rest }) => rest));
        // Control: the sibling key and the value of the keyed object did reach it (serialised).
        expect(sent).toContain('region');
        expect(sent).not.toContain(secret.slice(4));
        expect(result.summary ?? '').not.toContain(secret.slice(4));
      }),
      { numRuns: 60 },
    );
  });
});
