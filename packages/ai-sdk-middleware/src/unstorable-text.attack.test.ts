import type { ModelMessage } from '@ai-sdk/provider-utils';
import {
  type CompressionStrategy,
  createContextManager,
  type SummarizerRequest,
} from '@baton/compressor';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Attack: text PostgreSQL cannot keep (NUL, an unpaired UTF-16 surrogate) in the history or in the
 * summariser's reply. A tool that `cat`s a binary file returns NULs; a function summariser can
 * return anything. The session store keeps raw messages as they are (a `json` column), but refuses
 * such text in a compaction's summary and event; Baton used to copy it there from the span (a
 * receipt quoting an error line, an earlier ask, a tool name) or from the reply, so every
 * compaction of such a conversation rejected with `InvalidInputError` and the app could never
 * compact it. Baton's own text is written well-formed and without NUL; the app's messages are sent
 * and stored unchanged.
 */
const poisons = ['\u0000', '\ud800', '\udfff', '\ud83d\u0000', 'a\udc00b'];
type Place =
  | 'tool-output'
  | 'error-line'
  | 'earlier-ask'
  | 'tool-name'
  | 'tool-input'
  | 'assistant-text'
  | 'reasoning'
  | 'reply'
  | 'summariser-error'
  | 'latest-ask';

const wellFormed = (text: string) =>
  !text.includes('\u0000') &&
  !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

let store: SessionStore;
beforeAll(async () => {
  store = await createSessionStore();
});
afterAll(async () => {
  await store.close();
});

describe('unstorable characters in a history compacted with a store', () => {
  it('compaction is recorded; Baton writes no NUL or lone surrogate; the app text is kept', async () => {
    let runs = 0;
    let poisonedInserts = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Place>(
          'tool-output',
          'error-line',
          'earlier-ask',
          'tool-name',
          'tool-input',
          'assistant-text',
          'reasoning',
          'reply',
          'summariser-error',
          'latest-ask',
        ),
        fc.constantFrom(...poisons),
        // Mostly the strategies that write from the span; truncate and mask as controls.
        fc.constantFrom<CompressionStrategy>(
          'receipt',
          'summarize',
          'receipt',
          'summarize',
          'auto',
          'truncate',
          'mask',
        ),
        fc.integer({ min: 0, max: 29 }),
        fc.noBias(fc.integer({ min: 0, max: 30 })),
        async (place, poison, strategy, at, offset) => {
          runs++;
          const mark = (text: string) => `${text.slice(0, offset)}${poison}${text.slice(offset)}`;
          const summarizer = async (request: SummarizerRequest) => {
            if (place === 'summariser-error') throw new Error(mark('provider failed: bad gateway'));
            const body = `## Goal\nFix the parser.\n## Completed actions\n${request.prompt.slice(-2_000)}`;
            return place === 'reply' ? mark(body) : body;
          };
          const messages: ModelMessage[] = [
            { role: 'system', content: 'You are a coding agent.' },
            { role: 'user', content: 'Fix the parser.' },
          ];
          for (let index = 0; index < 30; index++) {
            const here = (wanted: Place) => place === wanted && index === at;
            if (place === 'earlier-ask' && index === at)
              messages.push({ role: 'user', content: mark('Also check the lexer, please.') });
            if (here('assistant-text') || here('reasoning'))
              messages.push({
                role: 'assistant',
                content: [
                  {
                    type: here('reasoning') ? 'reasoning' : 'text',
                    text: mark('Looking at the lexer next.'),
                  },
                ],
              });
            const toolName = here('tool-name') ? mark('bash') : 'bash';
            messages.push(
              {
                role: 'assistant',
                content: [
                  {
                    type: 'tool-call',
                    toolCallId: `c${index}`,
                    toolName,
                    input: { command: here('tool-input') ? mark('cat src/app.bin') : 'ls' },
                  },
                ],
              },
              {
                role: 'tool',
                content: [
                  {
                    type: 'tool-result',
                    toolCallId: `c${index}`,
                    toolName,
                    output: {
                      type: 'text',
                      value: `${here('error-line') ? mark('Error: cannot parse src/app.ts') : 'ok'}\n${here('tool-output') ? mark('binary output') : ''} ${'listing '.repeat(120)}`,
                    },
                  },
                ],
              },
            );
          }
          const ask = place === 'latest-ask' ? mark('Now run the tests.') : 'Now run the tests.';
          messages.push({ role: 'user', content: ask });
          const manager = createContextManager({
            contextWindow: 4_000,
            reservedOutputTokens: 300,
            strategy,
            store,
            sessionId: `unstorable-${runs}-${crypto.randomUUID()}`,
            summarizer,
            compressor: { retryDelayMs: 0 },
          });
          try {
            const prepared = await manager.prepare(messages);
            // Premise: the history was over the trigger, and this call compacted it.
            expect(prepared.report.compacted).toBe(true);
            expect(prepared.report.childSessionId).not.toBeNull();
            const inserts = prepared.messages.filter(
              (message) => message.providerOptions?.baton !== undefined,
            );
            for (const insert of inserts) {
              const text = typeof insert.content === 'string' ? insert.content : '';
              if (text.includes('\ufffd')) poisonedInserts++;
              expect(wellFormed(text)).toBe(true);
            }
            expect(wellFormed(prepared.event?.summary ?? '')).toBe(true);
            // Every string of the event (JSON.stringify would escape what is looked for).
            const strings: string[] = [];
            const walk = (value: unknown): void => {
              if (typeof value === 'string') strings.push(value);
              else if (typeof value === 'object' && value !== null)
                Object.values(value).forEach(walk);
            };
            walk(prepared.event);
            walk(prepared.report);
            expect(strings.filter((text) => !wellFormed(text))).toEqual([]);
            // Control: the app's latest ask is sent as it is, poison included.
            expect(prepared.messages.at(-1)).toBe(messages.at(-1));
          } finally {
            await manager.close();
          }
        },
      ),
      { numRuns: 80 },
    );
    // Premise: in some runs the poison reached Baton's own text (and was replaced). Where it lands
    // decides whether a handoff quotes it, so the share varies by seed (5 to 15 % seen).
    expect(poisonedInserts).toBeGreaterThan(runs / 40);
  }, 300_000);
});
