import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import { estimateTokens } from '@baton/tokens';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecallTool } from './create-recall-tool.js';
import { textResult, toolCallResult } from './test-utils/conversation.js';

const token = () => crypto.randomUUID().replaceAll('-', '');

/** Tool-result texts the model received in `prompt`. */
function toolResults(prompt: LanguageModelV4Prompt): { type: string; value: unknown }[] {
  return prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-result' ? [part.output as { type: string; value: unknown }] : [],
        )
      : [],
  );
}

/** A root of `filler` turns with `planted` at sequence 5, compacted to its first and last two. */
async function compactedSession(store: SessionStore, planted: ModelMessage) {
  const history: ModelMessage[] = Array.from({ length: 12 }, (_, index) =>
    index === 5 ? planted : { role: 'user', content: `turn ${index}: keep going` },
  );
  const root = await store.createSession();
  await store.appendMessages(root.id, history, { startSequence: 0 });
  const { child } = await store.recordCompaction(root.id, {
    messages: [
      history[0]!,
      { role: 'user', content: 'Summary of turns 1-9.' },
      ...history.slice(-2),
    ],
    summary: 'Summary of turns 1-9.',
    strategy: 'summarize',
    usedFallback: false,
    tokensBefore: 100,
    tokensAfter: 20,
    event: { removedMessageIndexes: [1, 2, 3, 4, 5, 6, 7, 8, 9] },
  });
  return { rootId: root.id, childId: child.id };
}

/** Runs a two-step loop: the model calls `recall` with `input`, then answers; returns what it got back. */
async function loopWith(tools: Parameters<typeof generateText>[0]['tools'], input: unknown) {
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) =>
      toolResults(prompt).length === 0
        ? toolCallResult('call-1', 'recall', input)
        : textResult('answered from the recalled text'),
  });
  const result = await generateText({
    model,
    tools,
    prompt: 'What was the exact build error earlier?',
    stopWhen: stepCountIs(4),
  });
  expect(model.doGenerateCalls).toHaveLength(2);
  const [output] = toolResults(model.doGenerateCalls[1]!.prompt);
  return { output: output!, result };
}

describe('createRecallTool', () => {
  let store: SessionStore;
  beforeAll(async () => {
    store = await createSessionStore();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it('end to end: the model calls recall and the removed message reaches it in the next step', async () => {
    const code = `E${token().slice(0, 10)}`;
    const errorLine = `error TS2307 [${code}]: Cannot find module './auth/session.js'`;
    const { rootId, childId } = await compactedSession(store, {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'b1',
          toolName: 'bash',
          output: { type: 'text', value: `$ pnpm build\n${errorLine}\nexit 2` },
        },
      ],
    });
    const { output, result } = await loopWith(
      { recall: createRecallTool({ store, sessionId: () => childId }) },
      { query: errorLine },
    );
    expect(output.type).toBe('text');
    const text = String(output.value);
    expect(text).toContain(errorLine);
    expect(text).toContain(`session ${rootId}, sequence 5, tool (tool bash)`);
    expect(result.text).toBe('answered from the recalled text');
  });

  it('a range call returns the messages of that range', async () => {
    const { rootId, childId } = await compactedSession(store, { role: 'user', content: 'x' });
    const { output } = await loopWith(
      { recall: createRecallTool({ store, sessionId: childId }) },
      { sessionId: rootId, fromSequence: 3, toSequence: 4 },
    );
    expect(String(output.value)).toContain('turn 3: keep going');
    expect(String(output.value)).toContain('turn 4: keep going');
    expect(String(output.value)).not.toContain('turn 6');
  });

  it('bad input and store failures come back as a result that says what was wrong; the loop goes on', async () => {
    const { childId } = await compactedSession(store, { role: 'user', content: 'x' });
    const other = await store.createSession();
    const recall = createRecallTool({ store, sessionId: childId });
    const cases: [unknown, RegExp][] = [
      [{ query: '   ' }, /query` is empty/],
      [{ query: 'x'.repeat(1_001) }, /at most 1000/],
      [{ query: 42 }, /must be a string/],
      [{}, /give a `query`, a range/],
      [{ query: 'keep', limit: 500 }, /`limit` must be/],
      [{ fromSequence: -3 }, /`fromSequence` must be/],
      [{ sessionId: other.id, fromSequence: 0 }, /not in the lineage/],
      [{ fromSequence: 99 }, /hold no message/],
      ['not an object', /must be an object/],
    ];
    for (const [input, expected] of cases) {
      const { output } = await loopWith({ recall }, input);
      expect(output.type, JSON.stringify(input)).toBe('text');
      expect(String(output.value)).toMatch(expected);
    }
    const lost = createRecallTool({ store, sessionId: `missing-${token()}` });
    expect(String((await loopWith({ recall: lost }, { query: 'x' })).output.value)).toMatch(
      /session does not exist/,
    );
    const closed = await createSessionStore();
    await closed.close();
    const down = createRecallTool({ store: closed, sessionId: childId });
    expect(String((await loopWith({ recall: down }, { query: 'x' })).output.value)).toMatch(
      /could not answer \(store_closed\)/,
    );
  });

  it('caps the result at maxOutputTokens and redacts secrets stored in the clear', async () => {
    const secret = `ghp_${token()}${token().slice(0, 4)}`;
    const word = `w${token().slice(0, 8)}`;
    const root = await store.createSession();
    await store.appendMessages(
      root.id,
      Array.from({ length: 20 }, (_, index) => ({
        role: 'user' as const,
        content: `${word} ${index} token=${secret} ${'lorem ipsum dolor sit amet '.repeat(200)}`,
      })),
    );
    const recall = createRecallTool({
      store,
      sessionId: root.id,
      maxOutputTokens: 300,
      excerptLength: 4_000,
    });
    const { output } = await loopWith({ recall }, { query: word, limit: 20 });
    const text = String(output.value);
    expect(estimateTokens(text)).toBeLessThanOrEqual(300);
    expect(text).toContain(word);
    expect(text).toMatch(/more not shown/);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(4, 20));
  });
});
