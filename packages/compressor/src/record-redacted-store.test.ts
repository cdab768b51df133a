import { generateKeyPairSync, randomInt } from 'node:crypto';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { redactMessages, redactSecrets } from '@baton/fallback';
import { corpusSkipReason, loadSecretFixtures } from '@baton/test-corpus';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CompressionStrategy,
  ContextCompressor,
  fromOpenAIChat,
  toOpenAIChat,
} from './index.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

/**
 * Attack (reviewer): the record line binds an insert placed after the pinned ask to the ask's
 * text, hashed before redaction. The session store redacts what it stores (the middleware's
 * default), so an ask holding a secret is stored changed, and the binding no longer matches. Once a
 * conversion drops provider options (an OpenAI Chat round trip, which issue 17 names), the next
 * pass takes Baton's insert for the user's latest ask and drops the real (redacted) ask.
 */
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
let id = 0;
function step(output: string): ModelMessage[] {
  const toolCallId = `call_${++id}`;
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Next.' },
        { type: 'tool-call', toolCallId, toolName: 'bash', input: { command: 'ls' } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId,
          toolName: 'bash',
          output: { type: 'text', value: output },
        },
      ],
    },
  ];
}

function history(ask: string): ModelMessage[] {
  const messages: ModelMessage[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Task A: set up the repository.' },
    { role: 'assistant', content: [{ type: 'text', text: 'Done with the setup.' }] },
  ];
  for (let index = 0; index < 6; index++) messages.push(...step(`old-${index} `.repeat(80)));
  messages.push({ role: 'user', content: ask });
  for (let index = 0; index < 14; index++) messages.push(...step(`out-${index} `.repeat(80)));
  return messages;
}

const userTexts = (messages: readonly ModelMessage[]) =>
  messages.flatMap((message) =>
    message.role !== 'user'
      ? []
      : typeof message.content === 'string'
        ? [message.content]
        : [message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')],
  );

async function twoPasses(strategy: CompressionStrategy, ask: string) {
  const compressor = new ContextCompressor({
    counter: createSimpleCounter(),
    summarizer: async () => structuredSummary(),
  });
  const first = await compressor.compress(history(ask), { targetTokens: 2_000, strategy });
  // What a new process reads back from the store (redacted), kept by an OpenAI SDK app.
  const stored = fromOpenAIChat(toOpenAIChat(redactMessages(first.messages).messages));
  const continued = [...stored];
  for (let index = 0; index < 10; index++) continued.push(...step(`new-${index} `.repeat(80)));
  const second = await compressor.compress(continued, { targetTokens: 2_000, strategy });
  const storedAsk = userTexts(redactMessages([{ role: 'user', content: ask }]).messages)[0]!;
  return { first, second, storedAsk };
}

const strategies: CompressionStrategy[] = ['truncate', 'receipt', 'summarize'];
describe('an ask holding a secret, stored redacted, then an OpenAI round trip, stays the ask', () => {
  for (const strategy of strategies) {
    it(`${strategy}: control, an ask without a secret is kept (passes)`, async () => {
      const ask = 'Task B: deploy the service to staging.';
      const { second } = await twoPasses(strategy, ask);
      expect(userTexts(second.messages)).toContain(ask);
    });
    it(`${strategy}: the (redacted) ask is kept on the second pass`, async () => {
      const token = `ghp_${Array.from({ length: 36 }, () => alnum[randomInt(alnum.length)]).join('')}`;
      const ask = `Task B: deploy the service to staging with ${token}.`;
      const { first, second, storedAsk } = await twoPasses(strategy, ask);
      expect(userTexts(first.messages), 'first pass').toContain(ask);
      expect(storedAsk).not.toContain(token);
      expect(userTexts(second.messages), 'second pass').toContain(storedAsk);
    });
  }
});

/**
 * The record binds to the redacted form of the texts it covers, so what a redacting store saves
 * binds the same. Over every secret fixture and generated mixtures of fixtures, tokens and text
 * (glued secrets included, which the redactor does not always finish in one pass).
 */
describe('an ask of any secret-shaped text, stored redacted, then an OpenAI round trip, stays the ask', () => {
  const fixtures = loadSecretFixtures().map((row) => row.text);
  const token = fc
    .array(fc.constantFrom(...alnum), { minLength: 36, maxLength: 36 })
    .map((chars) => `ghp_${chars.join('')}`);
  const piece = fc.oneof(
    fc.string({ maxLength: 40 }),
    token,
    fc.constantFrom(' ', '\n', '=', ': ', '"', "'", 'password = ', 'export API_KEY='),
    ...(fixtures.length > 0 ? [fc.constantFrom(...fixtures)] : []),
  );

  it('truncate and receipt, generated asks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { minLength: 1, maxLength: 8 }),
        fc.constantFrom<CompressionStrategy>('truncate', 'receipt'),
        async (pieces, strategy) => {
          const ask = `Task B: ${pieces.join('')}`;
          const { second, storedAsk } = await twoPasses(strategy, ask);
          expect(userTexts(second.messages)).toContain(storedAsk);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('an ask with a token glued to a private key (redacted in two passes) stays the ask', async () => {
    const key = generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const token = `ghp_${Array.from({ length: 36 }, () => alnum[randomInt(alnum.length)]).join('')}`;
    for (const strategy of ['truncate', 'receipt', 'summarize'] as const) {
      const { second, storedAsk } = await twoPasses(strategy, `Task B: use ${token}${key}`);
      expect(userTexts(second.messages), strategy).toContain(storedAsk);
    }
  });

  it.skipIf(corpusSkipReason !== undefined)(
    'redaction reaches a fixpoint on every secret fixture in one pass',
    () => {
      const once = (text: string) => redactSecrets(text).text;
      expect(fixtures.filter((text) => once(once(text)) !== once(text))).toEqual([]);
    },
  );
});
