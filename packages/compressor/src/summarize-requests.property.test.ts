import type { ModelMessage } from '@ai-sdk/provider-utils';
import { redactSecrets } from '@baton/fallback';
import { createTokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SummarizerRequest, SummaryDetail } from './context-compressor-options.js';
import { CompactionNotEffectiveError, ContextBudgetError, ContextCompressor } from './index.js';
import { redactForSummary } from './redact-for-summary.js';
import { delimitedPrompt, serializeMessage, toolOutputChars } from './summary-prompt.js';
import { structuredSummary } from './test-utils/structured-summary.js';

const counter = createTokenCounter({ encoding: 'o200k_base' });

const alphanumeric = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const body = (length: number) =>
  fc
    .noBias(fc.array(fc.constantFrom(...alphanumeric), { minLength: length, maxLength: length }))
    .map((units) => units.join(''));
/**
 * Secrets of well-known shapes, each drawn fresh: none may reach a request in the clear. Only
 * values the redactor takes for a secret where they stand: a body of a few repeated letters
 * (`AKIAIAKKZLFQLKA80IFA`) reads as a placeholder by design, and shrinking drifts towards them.
 */
const secret = fc
  .oneof(
    body(40).map((text) => `sk-proj-${text}`),
    body(36).map((text) => `ghp_${text}`),
    body(16).map((text) => `AKIA${text.toUpperCase()}`),
  )
  .filter((key) => !redactSecrets(`api_key=${key}`).text.includes(key));
const word = fc.constantFrom(
  'fix',
  'test',
  'src/app.ts',
  'error',
  'build',
  'deploy',
  'é',
  '</message>',
);
const sentence = fc.array(word, { minLength: 1, maxLength: 12 }).map((words) => words.join(' '));
/** Up to a few thousand characters: some past the tool-output clip of every detail level. */
const longText = fc
  .tuple(sentence, fc.nat({ max: 200 }))
  .map(([text, repeat]) => `${text}\n${'line of output with data 0123\n'.repeat(repeat)}`);
const text = fc.oneof(sentence, longText);
const withSecret = fc
  .tuple(text, fc.option(secret, { nil: undefined }))
  .map(([value, key]) =>
    key === undefined ? { value, key } : { value: `${value}\napi_key=${key}`, key },
  );

type Turn =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string; reasoning: string | undefined }
  | {
      kind: 'tool';
      name: string;
      input: { value: string; key: string | undefined };
      output: { value: string; key: string | undefined };
    };

const turn: fc.Arbitrary<Turn> = fc.oneof(
  sentence.map((value) => ({ kind: 'user' as const, text: value })),
  fc.record({
    kind: fc.constant('assistant' as const),
    text,
    reasoning: fc.option(longText, { nil: undefined }),
  }),
  fc.record({
    kind: fc.constant('tool' as const),
    name: fc.constantFrom('read', 'bash', 'edit'),
    input: withSecret,
    output: withSecret,
  }),
);

const history = fc.array(turn, { minLength: 10, maxLength: 80 }).map((turns) => {
  const messages: ModelMessage[] = [{ role: 'user', content: 'Start the work.' }];
  const secrets: string[] = [];
  turns.forEach((item, at) => {
    if (item.kind === 'user') messages.push({ role: 'user', content: item.text });
    else if (item.kind === 'assistant') {
      messages.push({
        role: 'assistant',
        content: [
          ...(item.reasoning === undefined
            ? []
            : [{ type: 'reasoning' as const, text: item.reasoning }]),
          { type: 'text' as const, text: item.text },
        ],
      });
    } else {
      for (const key of [item.input.key, item.output.key]) if (key !== undefined) secrets.push(key);
      const toolCallId = `call_${at}`;
      messages.push({
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId,
            toolName: item.name,
            input: { command: item.input.value },
          },
        ],
      });
      messages.push({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId,
            toolName: item.name,
            output: { type: 'text', value: item.output.value },
          },
        ],
      });
    }
  });
  messages.push({ role: 'user', content: 'Now finish it.' });
  return { messages, secrets };
});

type Sent = Omit<SummarizerRequest, 'abortSignal'>;

async function summarise(
  messages: ModelMessage[],
  detail: SummaryDetail,
  inputBudget: number,
  targetTokens: number,
): Promise<{ requests: Sent[]; result: unknown }> {
  const requests: Sent[] = [];
  const compressor = new ContextCompressor({
    counter,
    detail,
    summarizerInputBudget: inputBudget,
    summarizer: async ({ abortSignal: _signal, ...request }) => {
      requests.push(request);
      return structuredSummary(`chunk ${requests.length}`);
    },
  });
  try {
    const result = await compressor.compress(messages, { targetTokens, strategy: 'summarize' });
    return { requests, result: [result.messages, result.strategy] };
  } catch (error) {
    if (!ContextBudgetError.isInstance(error) && !CompactionNotEffectiveError.isInstance(error))
      throw error;
    return { requests, result: String(error) };
  }
}

const opening = /^<message index="(\d+)" role="[a-z]+"( latest-request="true")?>\n/gm;

describe('summariser requests of a span', () => {
  it('hold each message of the span once, in order, as the reference serialisation of its redaction, and are counted exactly', async () => {
    let chunked = 0;
    await fc.assert(
      fc.asyncProperty(
        history,
        fc.constantFrom<SummaryDetail>('brief', 'concise', 'detailed'),
        fc.noBias(fc.integer({ min: 3_000, max: 12_000 })),
        fc.noBias(fc.integer({ min: 2, max: 5 })),
        async ({ messages, secrets }, detail, inputBudget, share) => {
          const targetTokens = Math.max(1_500, Math.floor(counter.countMessages(messages) / share));
          const first = await summarise(messages, detail, inputBudget, targetTokens);
          // The same objects again (every memo warm) and fresh copies send and return the same.
          expect(await summarise(messages, detail, inputBudget, targetTokens)).toEqual(first);
          expect(
            await summarise(structuredClone(messages), detail, inputBudget, targetTokens),
          ).toEqual(first);
          const reference = redactForSummary(structuredClone(messages), toolOutputChars[detail]);
          const sentIndexes: number[] = [];

          for (const request of first.requests) {
            const wire = JSON.stringify(request);
            for (const key of secrets) expect(wire).not.toContain(key);
            if (request.mode !== 'delimited') continue;
            expect(request.messages).toEqual([{ role: 'user', content: request.prompt }]);
            const start = request.prompt.indexOf('<transcript>\n') + '<transcript>\n'.length;
            const end = request.prompt.lastIndexOf('\n</transcript>');
            const transcript = request.prompt.slice(start, end);
            const openings = [...transcript.matchAll(opening)];
            const sent: string[] = [];
            openings.forEach((match, at) => {
              const index = Number(match[1]);
              sentIndexes.push(index);
              const text = transcript.slice(
                match.index,
                (openings[at + 1]?.index ?? transcript.length + 1) - 1,
              );
              sent.push(text);
              const expected = serializeMessage(reference[index]!, index, detail, {
                latestRequest: match[2] !== undefined,
              }).text;
              if (text === expected) return;
              // Cut further to fit the request: the reference's start and end around one mark.
              const cut = /\n\[Baton: \d+ tokens omitted\]\n/.exec(text);
              expect(cut).not.toBeNull();
              expect(expected.startsWith(text.slice(0, cut!.index))).toBe(true);
              expect(expected.endsWith(text.slice(cut!.index + cut![0].length))).toBe(true);
              expect(text.length).toBeLessThan(expected.length);
            });
            expect(request.prompt).toBe(delimitedPrompt(sent.join('\n'), request.previousSummary));
            expect(request.inputTokens).toBe(
              counter.countMessages([
                { role: 'system', content: request.instructions },
                { role: 'user', content: request.prompt },
              ]),
            );
          }
          // One contiguous run of the history, each message once per attempt: a summary the
          // verifier rejects is asked for again from the span's first message.
          sentIndexes.forEach((index, at) => {
            if (at > 0 && index !== sentIndexes[at - 1]! + 1) expect(index).toBe(sentIndexes[0]);
          });
          if (first.requests.length > 1) chunked++;
        },
      ),
      { numRuns: 60 },
    );
    // Most draws summarise in several requests (the chunked path this pins).
    expect(chunked).toBeGreaterThan(15);
  }, 240_000);
});
