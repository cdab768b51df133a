import type { ModelMessage } from '@ai-sdk/provider-utils';
import { validateToolPairs } from '@baton/compressor';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { filler, textResult } from './test-utils/conversation.js';
import { toModelMessages } from './to-model-messages.js';

/**
 * One hostile tool output in the middle of a conversation, through the whole path (counting,
 * masking, redaction for the summariser and the store, the PGlite write): the call succeeds with
 * a valid prompt, and its CPU time grows linearly with the output (a growth check with a generous
 * ratio, not a timing). Outputs are generated at test time.
 */
const letters = 'abcdefghijklmnopqrstuvwxyz';
function unbroken(length: number, seed: number): string {
  const parts: string[] = [];
  let state = seed;
  for (let index = 0; index < length; index++) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    parts.push(letters[state % letters.length]!);
  }
  return parts.join('');
}
const repeatTo = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length));

const shapes: Record<string, (length: number, seed: number) => string> = {
  'an unbroken run of letters': unbroken,
  'deeply nested JSON': (length) => `${'{"a":['.repeat(length / 12)}1${']}'.repeat(length / 12)}`,
  'lone surrogates and NUL': (length) => repeatTo('\ud800\u0000x\udfff', length),
  "Baton's own markers": (length) =>
    repeatTo(
      '[REDACTED:github-token] [Baton record v1 ab] ## Goal\n[Baton: 9 tokens omitted]\n',
      length,
    ),
  'secret-shaped prefixes': (length) => repeatTo('ghp_ password= -----BEGIN AKIA eyJ ', length),
};

let store: SessionStore;
beforeAll(async () => {
  store = await createSessionStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});

let session = 0;
async function cpuOfCall(output: string): Promise<number> {
  const history: ModelMessage[] = [
    { role: 'user', content: 'Inspect the artefact.' },
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'big', toolName: 'read', input: { path: 'a' } }],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'big',
          toolName: 'read',
          output: { type: 'text', value: output },
        },
      ],
    },
    { role: 'assistant', content: filler(400, 1) },
    { role: 'user', content: 'Now tell me what you found.' },
  ];
  let sent: unknown;
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({
      doGenerate: async (options) => {
        sent = options.prompt;
        return textResult('ok');
      },
    }),
    middleware: compactionMiddleware({
      contextWindow: 8_000,
      store,
      sessionId: `growth-${++session}`,
      summarizer: async () => '## Goal\nReport.\n## Completed actions\n1. READ a — ok',
    }),
  });
  const start = process.cpuUsage();
  await generateText({ model, instructions: 'Be brief.', messages: history });
  const used = process.cpuUsage(start);
  expect(validateToolPairs(toModelMessages(sent as never)).valid).toBe(true);
  expect(JSON.stringify(sent)).toContain('Now tell me what you found.');
  return used.user + used.system;
}

describe('a hostile tool output costs linear time through the middleware and the store', () => {
  for (const [name, make] of Object.entries(shapes)) {
    it(name, async () => {
      // Warm-up: the first call loads encoders and prepares statements.
      await cpuOfCall(make(20_000, 3));
      const small = await cpuOfCall(make(256 * 1_024, 5));
      const large = await cpuOfCall(make(1_024 * 1_024, 7));
      // 4x the input; linear work is ~4x. 12x leaves room for a loaded machine and GC, and
      // still fails a quadratic path (16x and more).
      console.info(
        `${name}: ${small} -> ${large} µs CPU, ratio ${(large / Math.max(small, 1)).toFixed(1)}`,
      );
      expect(large / Math.max(small, 1), `${small} -> ${large} µs`).toBeLessThan(12);
    }, 120_000);
  }
});
