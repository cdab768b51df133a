import { generateKeyPairSync } from 'node:crypto';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { describe, expect, it } from 'vitest';
import { type CompressionStrategy, ContextCompressor } from './index.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

/**
 * Attack: `redactForSummary` redacts only a window of each long tool output (the kept start and
 * end plus a 1,024-character margin). A PEM private key longer than the margin (a 4096-bit RSA key
 * is ~3,200 characters) that straddles the tail window reaches the redactor without its BEGIN
 * line; the PEM rule does not match a headless block, so raw key lines go to the summariser.
 * Measured: 10 of 48 (filler, trailer) placements leaked 10-13 key lines each.
 */
const pem = generateKeyPairSync('rsa', { modulusLength: 4096 })
  .privateKey.export({ type: 'pkcs1', format: 'pem' })
  .toString();
const keyLines = pem
  .trim()
  .split('\n')
  .slice(1, -1)
  .map((line) => line.slice(0, 40));

function history(output: string): ModelMessage[] {
  const messages: ModelMessage[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Task: rotate the deploy keys.' },
    { role: 'assistant', content: [{ type: 'text', text: 'On it.' }] },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'key',
          toolName: 'bash',
          input: { command: 'cat id_rsa' },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'key',
          toolName: 'bash',
          output: { type: 'text', value: output },
        },
      ],
    },
  ];
  for (let index = 0; index < 10; index++) {
    const toolCallId = `ls_${index}`;
    messages.push(
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId, toolName: 'bash', input: { command: 'ls' } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId,
            toolName: 'bash',
            output: { type: 'text', value: 'file '.repeat(200) },
          },
        ],
      },
    );
  }
  return messages;
}

describe('a long PEM key straddling the summariser clip never reaches it', () => {
  const strategies: CompressionStrategy[] = ['summarize', 'receipt'];
  for (const strategy of strategies) {
    it(`${strategy}: no key line reaches the summariser or the result`, async () => {
      const leaks: string[] = [];
      for (const filler of [0, 1_000, 2_000, 3_000, 3_500, 4_000, 5_000, 6_000]) {
        for (const trailer of [0, 200, 2_000]) {
          const output = `${'x '.repeat(filler / 2)}\n${pem}\n${'y '.repeat(trailer / 2)}`;
          const sent: string[] = [];
          const compressor = new ContextCompressor({
            counter: createSimpleCounter(),
            summarizer: async (request) => {
              sent.push(JSON.stringify(request));
              return structuredSummary();
            },
          });
          const result = await compressor.compress(history(output), {
            targetTokens: 1_500,
            strategy,
          });
          const seen = `${sent.join('\n')}\n${JSON.stringify(result.messages)}`;
          const leaked = keyLines.filter((line) => seen.includes(line)).length;
          if (leaked > 0) leaks.push(`filler ${filler}, trailer ${trailer}: ${leaked} key lines`);
        }
      }
      expect(leaks).toEqual([]);
    });
  }
});
