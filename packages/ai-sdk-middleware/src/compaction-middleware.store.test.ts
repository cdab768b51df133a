import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { SummarizerRequest } from '@baton/compressor';
import { toolPairProblems } from '@baton/compressor/test';
import { createSessionStore } from '@baton/sessions';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { agentHistory, fixBugsHandoff, promptText, textResult } from './test-utils/conversation.js';
import type { MiddlewareCompactionEvent } from './types.js';

const instructions = 'You are a careful coding agent.';

function compactingModel(
  store: Awaited<ReturnType<typeof createSessionStore>>,
  events: MiddlewareCompactionEvent[],
) {
  const inner = new MockLanguageModelV4({ doGenerate: textResult('ok') });
  const summaries: SummarizerRequest[] = [];
  const model = wrapLanguageModel({
    model: inner,
    middleware: compactionMiddleware({
      contextWindow: 16_000,
      store,
      sessionId: 'conversation-1',
      summarizer: async (request) => {
        summaries.push(request);
        return fixBugsHandoff;
      },
      onCompaction: (event) => void events.push(event),
    }),
  });
  return { inner, model, summaries };
}

describe('compactionMiddleware with a PGlite session store', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'baton-middleware-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('persists raw messages and the compaction, and a restart resumes from the compacted context', async () => {
    const secret = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
    const history: ModelMessage[] = [
      ...agentHistory(30, 30, 350),
      { role: 'user', content: `First ask after the long history; the token is ${secret}` },
    ];

    // Process 1: compaction, then one more turn spliced onto it.
    const store1 = await createSessionStore({ dataDir });
    const events1: MiddlewareCompactionEvent[] = [];
    const first = compactingModel(store1, events1);
    const compactedCall = await generateText({
      model: first.model,
      instructions,
      messages: history,
    });
    expect(events1).toHaveLength(1);
    const childSessionId = events1[0]?.childSessionId as string;
    expect(compactedCall.providerMetadata?.baton).toMatchObject({
      compacted: true,
      childSessionId,
      sessionId: 'conversation-1',
    });
    const lineage = await store1.lineage(childSessionId);
    expect(lineage.map((session) => session.id)).toEqual(['conversation-1', childSessionId]);
    // The root holds the raw history the app sent (system message included).
    const rootMessages = await store1.getMessages('conversation-1');
    expect(rootMessages).toHaveLength(history.length + 1);
    // Secrets are stored redacted, in the raw history and in the compacted child alike.
    expect(JSON.stringify(rootMessages)).not.toContain(secret);
    expect(JSON.stringify(rootMessages)).toContain('[REDACTED');
    expect(JSON.stringify(await store1.getMessages(childSessionId))).not.toContain(secret);
    // The live call still sent the real text to the provider.
    expect(promptText(first.inner.doGenerateCalls[0]?.prompt ?? [])).toContain(secret);

    const secondTurn: ModelMessage[] = [
      ...history,
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'Second ask' },
    ];
    const spliced = await generateText({ model: first.model, instructions, messages: secondTurn });
    expect(spliced.providerMetadata?.baton).toMatchObject({
      compacted: false,
      usedCompactedContext: true,
    });
    expect(events1).toHaveLength(1);
    const secondPrompt = first.inner.doGenerateCalls[1]?.prompt as LanguageModelV4Prompt;
    expect(promptText(secondPrompt)).toContain('Fix the bugs in the files.');
    expect(promptText(secondPrompt)).toContain('Second ask');
    await store1.close();

    // Process 2: a new store on the same directory and a new middleware instance.
    const store2 = await createSessionStore({ dataDir });
    const events2: MiddlewareCompactionEvent[] = [];
    const second = compactingModel(store2, events2);
    const thirdTurn: ModelMessage[] = [
      ...secondTurn,
      { role: 'assistant', content: 'ok again' },
      { role: 'user', content: 'Third ask' },
    ];
    const resumed = await generateText({ model: second.model, instructions, messages: thirdTurn });
    expect(events2).toHaveLength(0);
    expect(second.summaries).toHaveLength(0);
    expect(resumed.providerMetadata?.baton).toMatchObject({
      compacted: false,
      usedCompactedContext: true,
    });
    const thirdPrompt = second.inner.doGenerateCalls[0]?.prompt as LanguageModelV4Prompt;
    // The same compacted context as before the restart, the messages it kept verbatim as the app
    // wrote them (the store holds their secrets as markers), then the new raw messages.
    const resumedPrefix = JSON.stringify(thirdPrompt.slice(0, secondPrompt.length));
    expect(resumedPrefix).toBe(JSON.stringify(secondPrompt));
    expect(resumedPrefix).toContain(secret);
    expect(thirdPrompt.slice(secondPrompt.length)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'ok again' }] },
      { role: 'user', content: [{ type: 'text', text: 'Third ask' }] },
    ]);
    expect(toolPairProblems(thirdPrompt)).toEqual([]);

    // The child now holds the compacted history plus every raw message after the compaction.
    const { session, messages } = await store2.resume('conversation-1');
    expect(session.id).toBe(childSessionId);
    expect(messages.slice(-2)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'ok again' }] },
      { role: 'user', content: [{ type: 'text', text: 'Third ask' }] },
    ]);
    await store2.close();
  });

  it('a message another process appends while this one compacts is kept, and the call still succeeds', async () => {
    const store = await createSessionStore();
    try {
      // The store refuses a compaction computed from a history that grew meanwhile
      // (CompactionStaleError); the middleware must catch up rather than fail the user's call.
      const racing = new Proxy(store, {
        get(target, property, receiver) {
          if (property === 'recordCompaction') {
            return async (...args: Parameters<typeof store.recordCompaction>) => {
              await target.appendMessages(args[0], [
                { role: 'user', content: 'appended by another process' },
              ]);
              return target.recordCompaction(...args);
            };
          }
          const value = Reflect.get(target, property, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const events: MiddlewareCompactionEvent[] = [];
      const { inner, model } = compactingModel(racing, events);
      const long: ModelMessage[] = [
        ...agentHistory(30, 30, 350),
        { role: 'user', content: 'Latest ask' },
      ];
      const result = await generateText({ model, instructions, messages: long });
      expect(result.text).toBe('ok');
      expect(events).toHaveLength(1);
      const sent = inner.doGenerateCalls[0]?.prompt as LanguageModelV4Prompt;
      expect(promptText(sent)).toContain('Latest ask');
      expect(toolPairProblems(sent)).toEqual([]);
      // Nothing was recorded against the stale history, and the late message is still stored.
      const sessions = await store.listSessions({ includeEnded: true });
      const stored = await Promise.all(sessions.map((session) => store.getMessages(session.id)));
      expect(
        stored
          .flat()
          .some((row) => JSON.stringify(row.message).includes('appended by another process')),
      ).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('two instances on one store: the one whose head went stale catches up instead of failing', async () => {
    const store = await createSessionStore();
    try {
      const eventsA: MiddlewareCompactionEvent[] = [];
      const eventsB: MiddlewareCompactionEvent[] = [];
      const a = compactingModel(store, eventsA);
      const b = compactingModel(store, eventsB);
      const long: ModelMessage[] = [
        ...agentHistory(30, 30, 350),
        { role: 'user', content: 'Latest ask' },
      ];
      // B starts the conversation (short, no compaction); A later compacts it; B's head is then ended.
      await generateText({ model: b.model, instructions, messages: long.slice(0, 5) });
      await generateText({ model: a.model, instructions, messages: long });
      expect(eventsA).toHaveLength(1);
      const next: ModelMessage[] = [
        ...long,
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'Next ask' },
      ];
      const result = await generateText({ model: b.model, instructions, messages: next });
      expect(eventsB).toHaveLength(0);
      expect(result.providerMetadata?.baton).toMatchObject({
        compacted: false,
        usedCompactedContext: true,
      });
      const sent = b.inner.doGenerateCalls[1]?.prompt as LanguageModelV4Prompt;
      expect(promptText(sent)).toContain('Fix the bugs in the files.');
      expect(promptText(sent)).toContain('Next ask');
      expect(toolPairProblems(sent)).toEqual([]);
      const { messages } = await store.resume('conversation-1');
      expect(messages.at(-1)).toEqual({
        role: 'user',
        content: [{ type: 'text', text: 'Next ask' }],
      });
    } finally {
      await store.close();
    }
  });
});
