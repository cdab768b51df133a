import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { SummarizerRequest } from '@baton/compressor';
import { toolPairProblems } from '@baton/compressor/test';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import { createTokenCounter } from '@baton/tokens';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { ContextWindowExceededError } from './index.js';
import { fixBugsHandoff, textResult } from './test-utils/conversation.js';
import { toModelMessages } from './to-model-messages.js';

/**
 * Attack through `wrapLanguageModel` with a PGlite session store: a conversation grows by runs of
 * 2-20 user messages the model never answered (queued messages, pasted files, failed replies),
 * huge pastes, asks with images and files, tool round trips and replies, each call compacting
 * (in the background or on the spot) the stored, already compacted context again. Every call whose
 * latest ask fits the window beside the instructions reaches the model, within the window, with
 * that ask verbatim and tool calls paired; one whose ask alone is too large is a
 * `ContextWindowExceededError` naming it; no credential reaches the summariser.
 */
const counter = createTokenCounter({ model: 'gpt-4o' });
const instructions = 'You are a careful coding agent.';
const reservedOutputTokens = 500;
/** Room for the smallest handoff beside the ask. */
const insertMargin = 400;

type Ask = { size: number; shape: 'text' | 'image' | 'file'; secret: boolean };
type Operation =
  | { kind: 'run'; asks: Ask[] }
  | { kind: 'tools'; sizes: number[] }
  | { kind: 'reply'; size: number };

const size = (max: number) => fc.noBias(fc.integer({ min: 0, max }));
const askArbitrary: fc.Arbitrary<Ask> = fc.record({
  // Short asks, pasted files, and pastes larger than any window used (about 8 characters a token).
  size: fc.oneof(
    { weight: 6, arbitrary: size(300) },
    { weight: 4, arbitrary: size(30_000) },
    { weight: 2, arbitrary: size(150_000) },
  ),
  shape: fc.constantFrom('text', 'text', 'image', 'file'),
  secret: fc.boolean(),
});
const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('run' as const),
      asks: fc.array(askArbitrary, { minLength: 1, maxLength: 20 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('tools' as const),
      sizes: fc.array(size(20_000), { minLength: 1, maxLength: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reply' as const), size: size(2_000) }) },
);

const words = ['parser', 'config', 'src/index.ts', 'failing', 'value', 'the', 'retry', 'cache'];
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function textOfPrompt(prompt: LanguageModelV4Prompt): string {
  return JSON.stringify(prompt);
}

describe('unanswered runs through wrapLanguageModel with a session store (property)', () => {
  let store: SessionStore;
  beforeAll(async () => {
    store = await createSessionStore();
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  it('reaches the model within the window whenever the latest ask fits, ask verbatim, pairs kept', async () => {
    const seen = { calls: 0, compacted: 0, askTooLarge: 0, runsShrunk: 0 };
    let conversationNumber = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(operation, { minLength: 1, maxLength: 8 }),
        fc.noBias(fc.integer({ min: 3_000, max: 12_000 })),
        fc.boolean(),
        fc.integer(),
        async (operations, contextWindow, background, salt) => {
          let state = salt | 0;
          const random = () => {
            state = (Math.imul(state, 1_103_515_245) + 12_345) | 0;
            return ((state >>> 8) & 0xffffff) / 0x1000000;
          };
          const draw = (list: string) => list[Math.floor(random() * list.length)]!;
          const filler = (characters: number) => {
            const out: string[] = [];
            for (let length = 0; length < characters; length += 8)
              out.push(words[Math.floor(random() * words.length)]!);
            return out.join(' ');
          };
          const secrets: string[] = [];
          let next = 0;
          const marker = (kind: string) => `${kind}-${++next}-${Math.floor(random() * 1e9)}`;
          const prompts: LanguageModelV4Prompt[] = [];
          const requests: SummarizerRequest[] = [];
          const available = contextWindow - reservedOutputTokens;
          const model = wrapLanguageModel({
            model: new MockLanguageModelV4({
              doGenerate: async (options) => {
                prompts.push(options.prompt);
                return textResult('ok');
              },
            }),
            middleware: compactionMiddleware({
              contextWindow,
              reservedOutputTokens,
              counter,
              store,
              sessionId: `unanswered-${++conversationNumber}-${salt}`,
              background,
              compressor: { maxAttempts: 1, retryDelayMs: 0 },
              summarizer: async (request) => {
                requests.push(request);
                return fixBugsHandoff;
              },
            }),
          });
          const history: ModelMessage[] = [
            { role: 'user', content: `${marker('first')} ${filler(200)}` },
            { role: 'assistant', content: `${marker('reply')} ${filler(200)}` },
          ];
          let latestAsk: ModelMessage | undefined;
          let unanswered = 0;
          for (const op of operations) {
            if (op.kind === 'reply') {
              history.push({ role: 'assistant', content: `${marker('reply')} ${filler(op.size)}` });
              unanswered = 0;
            } else if (op.kind === 'tools') {
              const ids = op.sizes.map(() => marker('call'));
              history.push({
                role: 'assistant',
                content: ids.map((toolCallId) => ({
                  type: 'tool-call' as const,
                  toolCallId,
                  toolName: 'read_file',
                  input: { path: 'src/index.ts' },
                })),
              });
              history.push({
                role: 'tool',
                content: ids.map((toolCallId, index) => ({
                  type: 'tool-result' as const,
                  toolCallId,
                  toolName: 'read_file',
                  output: { type: 'text' as const, value: filler(op.sizes[index]!) },
                })),
              });
              unanswered = 0;
            } else {
              for (const ask of op.asks) {
                let secret = '';
                if (ask.secret) {
                  secret = `ghp_${Array.from({ length: 36 }, () => draw(alphabet)).join('')}`;
                  secrets.push(secret);
                }
                const text = `${marker('ask')} ${secret} ${filler(ask.size)}`;
                latestAsk =
                  ask.shape === 'text'
                    ? { role: 'user', content: text }
                    : {
                        role: 'user',
                        content: [
                          { type: 'text', text },
                          ask.shape === 'image'
                            ? {
                                type: 'image',
                                image: Buffer.from(marker('png')).toString('base64'),
                                mediaType: 'image/png',
                              }
                            : {
                                type: 'file',
                                data: Buffer.from(marker('file')).toString('base64'),
                                mediaType: 'text/plain',
                              },
                        ],
                      };
                history.push(latestAsk);
                unanswered++;
              }
            }
            if (latestAsk === undefined) continue;
            const askText =
              typeof latestAsk.content === 'string'
                ? latestAsk.content
                : (latestAsk.content[0] as { text: string }).text;
            const at = history.indexOf(latestAsk);
            const askFits =
              counter.countMessages([
                { role: 'system', content: instructions },
                ...history.slice(at),
              ]) +
                insertMargin <=
              available;
            const askAlone = counter.countMessages([
              { role: 'system', content: instructions },
              latestAsk,
            ]);
            const before = prompts.length;
            let compacted = false;
            try {
              const result = await generateText({ model, instructions, messages: history });
              compacted = result.providerMetadata?.baton?.compacted === true;
            } catch (error) {
              if (!ContextWindowExceededError.isInstance(error)) throw error;
              expect(askFits, error.message).toBe(false);
              if (askAlone > available) {
                seen.askTooLarge++;
                expect(error.latestAskTokens).toBeGreaterThan(0);
              }
              continue;
            }
            seen.calls++;
            const prompt = prompts[before]!;
            const sent = toModelMessages(prompt);
            expect(counter.countMessages(sent)).toBeLessThanOrEqual(available);
            expect(toolPairProblems(prompt)).toEqual([]);
            expect(textOfPrompt(prompt)).toContain(JSON.stringify(askText).slice(1, -1));
            if (compacted) seen.compacted++;
            if (unanswered >= 2 && compacted) seen.runsShrunk++;
            for (const request of requests.splice(0)) {
              const body = JSON.stringify(request);
              for (const secret of secrets) expect(body).not.toContain(secret);
            }
          }
        },
      ),
      { numRuns: 40 },
    );
    console.info(`unanswered runs through the middleware: ${JSON.stringify(seen)}`);
    expect(seen.compacted).toBeGreaterThan(0);
    expect(seen.askTooLarge).toBeGreaterThan(0);
    expect(seen.runsShrunk).toBeGreaterThan(0);
  }, 600_000);
});
