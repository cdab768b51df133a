import type {
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { toolPairProblems } from '@baton/compressor/test';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import { InvalidInputError } from '@baton/tokens';
import {
  generateText,
  type ModelMessage,
  stepCountIs,
  streamText,
  tool,
  wrapLanguageModel,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compactionMiddleware } from './compaction-middleware.js';
import { agentHistory, fixBugsHandoff, promptText, usage } from './test-utils/conversation.js';

const recallName = 'baton_recall';
const token = () => crypto.randomUUID().replaceAll('-', '').slice(0, 12);

/** A long agent history with `needle` in one tool output of the middle (compaction removes it). */
function historyWith(needle: string): ModelMessage[] {
  const history = agentHistory(30, 30, 350);
  history.splice(40, 0, {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'call-needle',
        toolName: 'runTests',
        output: { type: 'text', value: `FAIL src/parser.test.ts\n${needle}\n1 failed` },
      },
    ],
  });
  history.splice(40, 0, {
    role: 'assistant',
    content: [{ type: 'tool-call', toolCallId: 'call-needle', toolName: 'runTests', input: {} }],
  });
  history.push({ role: 'user', content: 'What exactly did the failing parser test print?' });
  return history;
}

function lastToolResultText(prompt: LanguageModelV4Prompt): string | undefined {
  const last = prompt.at(-1);
  if (last?.role !== 'tool') return undefined;
  return last.content
    .map((part) =>
      part.type === 'tool-result' && part.output.type === 'text' ? part.output.value : '',
    )
    .join('\n');
}

const toolNames = (options: LanguageModelV4CallOptions) =>
  (options.tools ?? []).map((entry) => entry.name);

function result(content: LanguageModelV4GenerateResult['content']): LanguageModelV4GenerateResult {
  const calls = content.some((part) => part.type === 'tool-call');
  return {
    content,
    finishReason: calls
      ? { unified: 'tool-calls', raw: 'tool_calls' }
      : { unified: 'stop', raw: 'stop' },
    usage: usage(100),
    warnings: [],
  };
}

const recallCall = (
  id: string,
  input: unknown,
): LanguageModelV4GenerateResult['content'][number] => ({
  type: 'tool-call',
  toolCallId: id,
  toolName: recallName,
  input: typeof input === 'string' ? input : JSON.stringify(input),
});

function middleware(store: SessionStore, sessionId: string, recall: unknown = true) {
  return compactionMiddleware({
    contextWindow: 16_000,
    store,
    sessionId,
    summarizer: async () => fixBugsHandoff,
    recall: recall as never,
  });
}

describe('recall for the model (compactionMiddleware recall option)', () => {
  let store: SessionStore;
  beforeAll(async () => {
    store = await createSessionStore();
  }, 60_000);
  afterAll(async () => {
    await store.close();
  });

  it('generateText: the model recalls a line compaction removed; the result reaches it, and the app sees only the answer', async () => {
    // An ordinary output line, not an error line: receipts and summary top-ups keep error lines
    // verbatim, so only a line no fact list keeps is certain to be removed by compaction.
    const needle = `parser printed ${token()} where ${token()} was wanted`;
    const prompts: LanguageModelV4CallOptions[] = [];
    const inner = new MockLanguageModelV4({
      doGenerate: async (options) => {
        prompts.push(options);
        const recalled = lastToolResultText(options.prompt);
        if (recalled !== undefined)
          return result([{ type: 'text', text: `It printed: ${recalled}` }]);
        return result([
          { type: 'text', text: 'Let me look that up.' },
          recallCall('r1', { query: needle.split(' where')[0] }),
        ]);
      },
    });
    const model = wrapLanguageModel({
      model: inner,
      middleware: middleware(store, `c-${token()}`),
    });
    const answer = await generateText({ model, messages: historyWith(needle) });

    expect(prompts).toHaveLength(2);
    expect(answer.providerMetadata?.baton).toMatchObject({ compacted: true });
    // Compaction removed the line from what the model saw; it came back through recall only.
    expect(promptText(prompts[0]!.prompt)).not.toContain(needle);
    expect(toolNames(prompts[0]!)).toContain(recallName);
    // The insert says what it replaced and how to read it back.
    expect(promptText(prompts[0]!.prompt)).toMatch(
      /\(Messages \d+–\d+ of the history this compaction received[^)]*`baton_recall`/,
    );
    const second = prompts[1]!.prompt;
    expect(second.at(-2)).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me look that up.' },
        { type: 'tool-call', toolName: recallName },
      ],
    });
    expect(lastToolResultText(second)).toContain(needle);
    expect(toolPairProblems(second)).toEqual([]);
    // The app: one step, the final answer, no recall call or result in its messages.
    expect(answer.text).toContain(needle);
    expect(answer.steps).toHaveLength(1);
    expect(JSON.stringify(answer.response.messages)).not.toContain(recallName);
    expect(answer.finishReason).toBe('stop');
    expect(answer.providerMetadata?.batonRecall).toEqual({ steps: 1, calls: 1 });
    expect(answer.usage.inputTokens).toBe(200);
  }, 60_000);

  it('a range read off the summary note ("Messages N–M") returns those messages of the history', async () => {
    const history = agentHistory(30, 30, 350);
    history.push({ role: 'user', content: `Which file did ask ${token()} name?` });
    const asked: { from: number; to: number; expected: string[] }[] = [];
    let recalled: string | undefined;
    const inner = new MockLanguageModelV4({
      doGenerate: async (options) => {
        const back = lastToolResultText(options.prompt);
        if (back !== undefined) {
          recalled = back;
          return result([{ type: 'text', text: 'found it' }]);
        }
        const note = /\(Messages (\d+)–(\d+) of the history this compaction received/.exec(
          promptText(options.prompt),
        );
        if (note === null) return result([{ type: 'text', text: 'no note' }]);
        // The provider prompt the compaction received: the instructions, then the history.
        const first = Number(note[1]);
        const last = Number(note[2]);
        const from = first + Math.floor((last - first) / 2);
        const to = Math.min(last, from + 2);
        const expected = history
          .slice(from - 1, to)
          .filter((message) => typeof message.content === 'string')
          .map((message) => message.content as string);
        asked.push({ from, to, expected });
        return result([recallCall('r1', { fromSequence: from, toSequence: to })]);
      },
    });
    const model = wrapLanguageModel({
      model: inner,
      middleware: middleware(store, `c-${token()}`),
    });
    await generateText({ model, instructions: 'You are a coding agent.', messages: history });
    expect(asked).toHaveLength(1);
    const [{ from, to, expected }] = asked as [(typeof asked)[number]];
    expect(recalled).toBeDefined();
    for (let sequence = from; sequence <= to; sequence++) {
      expect(recalled).toContain(`sequence ${sequence},`);
    }
    expect(expected.length).toBeGreaterThan(0);
    for (const text of expected) expect(recalled).toContain(text.slice(0, 200));
  }, 60_000);

  it('bad input never ends the loop: each call gets a tool result saying what was wrong', async () => {
    const sessionId = `c-${token()}`;
    const bad: unknown[] = [
      { query: '   ' },
      { query: 'x'.repeat(5_000) },
      { sessionId: 'no-such-session', fromSequence: 0, toSequence: 3 },
      { fromSequence: 10_000, toSequence: 10_005 },
      { limit: 500, query: 'parser' },
      {},
      '{not json',
      [1, 2],
    ];
    const results: string[] = [];
    const inner = new MockLanguageModelV4({
      doGenerate: async (options) => {
        const recalled = lastToolResultText(options.prompt);
        if (recalled !== undefined) results.push(recalled);
        const next = bad[results.length];
        if (next === undefined) return result([{ type: 'text', text: 'done' }]);
        return result([recallCall(`r${results.length}`, next)]);
      },
    });
    const model = wrapLanguageModel({
      model: inner,
      middleware: middleware(store, sessionId, { maxSteps: 10 }),
    });
    const answer = await generateText({
      model,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(answer.text).toBe('done');
    expect(results).toHaveLength(bad.length);
    for (const [index, text] of results.entries()) {
      expect(text, JSON.stringify(bad[index]).slice(0, 80)).toMatch(
        /^Recall (was not run|failed): \S/,
      );
      // Never the raw value back (the 5,000-character query is not echoed).
      expect(text.length).toBeLessThan(400);
    }
    expect(results[2]).toContain('session');
  }, 60_000);

  it('the steps are bounded: the last call goes without the tool, and a recall call it makes anyway is dropped', async () => {
    const seen: LanguageModelV4CallOptions[] = [];
    const inner = new MockLanguageModelV4({
      doGenerate: async (options) => {
        seen.push(options);
        return result([
          { type: 'text', text: `try ${seen.length}` },
          recallCall(`r${seen.length}`, { query: 'anything' }),
        ]);
      },
    });
    const model = wrapLanguageModel({
      model: inner,
      middleware: middleware(store, `c-${token()}`, { maxSteps: 2 }),
    });
    const answer = await generateText({ model, messages: [{ role: 'user', content: 'hi' }] });
    expect(seen).toHaveLength(3);
    expect(seen.map((options) => toolNames(options).includes(recallName))).toEqual([
      true,
      true,
      false,
    ]);
    expect(answer.text).toBe('try 3');
    expect(answer.finishReason).toBe('stop');
    expect(answer.toolCalls).toEqual([]);
    expect(answer.providerMetadata?.batonRecall).toEqual({ steps: 2, calls: 2 });
  }, 60_000);

  it('a reply calling recall and an app tool: asked again with the recall result only; app tools keep working', async () => {
    const prompts: LanguageModelV4Prompt[] = [];
    let step = 0;
    const inner = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => {
        prompts.push(prompt);
        step++;
        if (step === 1) {
          return result([
            recallCall('r1', { query: 'hello' }),
            { type: 'tool-call', toolCallId: 'a1', toolName: 'readFile', input: '{"path":"a.ts"}' },
          ]);
        }
        if (step === 2) {
          return result([
            { type: 'tool-call', toolCallId: 'a2', toolName: 'readFile', input: '{"path":"b.ts"}' },
          ]);
        }
        return result([{ type: 'text', text: 'read it' }]);
      },
    });
    const files: string[] = [];
    const model = wrapLanguageModel({
      model: inner,
      middleware: middleware(store, `c-${token()}`),
    });
    const answer = await generateText({
      model,
      messages: [{ role: 'user', content: 'hello there' }],
      tools: {
        readFile: tool({
          description: 'Reads a file',
          inputSchema: z.object({ path: z.string() }),
          execute: async ({ path }) => {
            files.push(path);
            return `contents of ${path}`;
          },
        }),
      },
      stopWhen: stepCountIs(5),
    });
    expect(files).toEqual(['b.ts']);
    expect(answer.text).toBe('read it');
    for (const prompt of prompts) expect(toolPairProblems(prompt)).toEqual([]);
    expect(JSON.stringify(prompts[1])).not.toContain('"a1"');
    expect(JSON.stringify(answer.response.messages)).not.toContain(recallName);
  }, 60_000);

  it('streamText: recall parts never reach the app; the answer streams after the result reached the model', async () => {
    const sessionId = `c-${token()}`;
    const needle = `ENOENT: no such file '/srv/${token()}.conf'`;
    const prompts: LanguageModelV4Prompt[] = [];
    const parts = (list: LanguageModelV4StreamPart[]) =>
      new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of list) controller.enqueue(part);
          controller.close();
        },
      });
    const inner = new MockLanguageModelV4({
      doStream: async ({ prompt }) => {
        prompts.push(prompt);
        const recalled = lastToolResultText(prompt);
        if (recalled !== undefined) {
          return {
            stream: parts([
              { type: 'stream-start', warnings: [] },
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: `found: ${recalled}` },
              { type: 'text-end', id: 't' },
              { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(70) },
            ]),
          };
        }
        return {
          stream: parts([
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'Checking. ' },
            { type: 'text-end', id: 't' },
            { type: 'tool-input-start', id: 'r1', toolName: recallName },
            { type: 'tool-input-delta', id: 'r1', delta: '{"query":"ENOENT"}' },
            { type: 'tool-input-end', id: 'r1' },
            {
              type: 'tool-call',
              toolCallId: 'r1',
              toolName: recallName,
              input: '{"query":"ENOENT"}',
            },
            {
              type: 'finish',
              finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
              usage: usage(50),
            },
          ]),
        };
      },
    });
    const model = wrapLanguageModel({ model: inner, middleware: middleware(store, sessionId) });
    // The line is in the stored history (persisted by the middleware on an earlier call).
    await generateText({
      model: wrapLanguageModel({
        model: new MockLanguageModelV4({
          doGenerate: async () => result([{ type: 'text', text: 'ok' }]),
        }),
        middleware: middleware(store, sessionId),
      }),
      messages: [{ role: 'user', content: `the log said ${needle}` }],
    });
    const streamed = streamText({
      model,
      messages: [
        { role: 'user', content: `the log said ${needle}` },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'what was the error?' },
      ],
    });
    const chunks: string[] = [];
    for await (const part of streamed.fullStream) chunks.push(part.type);
    expect(await streamed.text).toBe(`Checking. found: ${lastToolResultText(prompts[1]!) ?? ''}`);
    expect(lastToolResultText(prompts[1]!)).toContain(needle);
    expect(chunks).not.toContain('tool-call');
    expect(chunks).not.toContain('tool-input-start');
    expect(await streamed.finishReason).toBe('stop');
    expect((await streamed.providerMetadata)?.batonRecall).toEqual({ steps: 1, calls: 1 });
    expect((await streamed.usage).inputTokens).toBe(120);
  }, 60_000);

  it('adds nothing when off (the default), when the app rules tools out, or names its own tool so', async () => {
    const seen: LanguageModelV4CallOptions[] = [];
    const inner = new MockLanguageModelV4({
      doGenerate: async (options) => {
        seen.push(options);
        return result([{ type: 'text', text: 'ok' }]);
      },
    });
    const messages: ModelMessage[] = [{ role: 'user', content: 'hi' }];
    const off = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({ store, sessionId: `c-${token()}` }),
    });
    await generateText({ model: off, messages });
    const on = wrapLanguageModel({ model: inner, middleware: middleware(store, `c-${token()}`) });
    await generateText({ model: on, messages, toolChoice: 'none' });
    const own = tool({
      description: 'mine',
      inputSchema: z.object({}),
      execute: async () => 'mine',
    });
    await generateText({ model: on, messages, tools: { [recallName]: own } });
    expect(seen.map(toolNames)).toEqual([[], [], [recallName]]);
    expect(seen[2]!.tools?.[0]).toMatchObject({ description: 'mine' });
  }, 60_000);

  it('rejects a recall option it cannot honour', () => {
    expect(() => compactionMiddleware({ recall: true })).toThrow(InvalidInputError);
    expect(() => compactionMiddleware({ store, sessionId: 's', recall: { maxSteps: 0 } })).toThrow(
      InvalidInputError,
    );
    expect(() =>
      compactionMiddleware({ store, sessionId: 's', recall: { toolName: 'no spaces' } }),
    ).toThrow(InvalidInputError);
    expect(() => compactionMiddleware({ store, sessionId: 's', recall: 'yes' as never })).toThrow(
      InvalidInputError,
    );
  });
});
