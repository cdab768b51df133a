import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import { createTokenCounter } from '@baton/tokens';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { agentHistory, fixBugsHandoff, promptText, textResult } from './test-utils/conversation.js';
import type { MiddlewareCompactionEvent } from './types.js';

const texts = (messages: readonly { message: { content: unknown } }[]) =>
  messages.map(({ message }) =>
    typeof message.content === 'string'
      ? message.content
      : (message.content as { text?: string }[]).map((part) => part.text ?? '').join(''),
  );

describe('compactionMiddleware lineage details', () => {
  let store: SessionStore;
  beforeEach(async () => {
    store = await createSessionStore();
  });
  afterEach(async () => {
    await store.close();
  });

  it('moves an edited history to a fork of the lineage and keeps the original', async () => {
    const inner = new MockLanguageModelV4({ doGenerate: textResult('ok') });
    const model = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({ store, sessionId: 's1' }),
    });
    const u = (content: string): ModelMessage => ({ role: 'user', content });
    const a = (content: string): ModelMessage => ({ role: 'assistant', content });
    await generateText({ model, messages: [u('u1'), a('a1'), u('u2 original')] });
    await generateText({ model, messages: [u('u1'), a('a1'), u('u2 EDITED')] });
    await generateText({ model, messages: [u('u1'), a('a1'), u('u2 EDITED'), a('a2'), u('u3')] });

    expect(texts(await store.getMessages('s1'))).toEqual(['u1', 'a1', 'u2 original']);
    const [head] = await store.listSessions({ rootId: 's1', limit: 1 });
    expect(head?.id).not.toBe('s1');
    expect(head?.metadata).toMatchObject({ baton: { branchOf: 's1', branchPoint: 2 } });
    expect(texts(await store.getMessages(head?.id as string))).toEqual([
      'u1',
      'a1',
      'u2 EDITED',
      'a2',
      'u3',
    ]);

    // A new process continues on the branch rather than forking again.
    const restarted = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({ store, sessionId: 's1' }),
    });
    await generateText({
      model: restarted,
      messages: [u('u1'), a('a1'), u('u2 EDITED'), a('a2'), u('u3'), a('a3'), u('u4')],
    });
    const sessions = await store.listSessions({ rootId: 's1', includeEnded: true });
    expect(sessions).toHaveLength(2);
    expect(texts(await store.getMessages(head?.id as string))).toHaveLength(7);
  });

  it('never records a compaction against a head holding a different history', async () => {
    const events: MiddlewareCompactionEvent[] = [];
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({ doGenerate: textResult('ok') }),
      middleware: compactionMiddleware({
        contextWindow: 16_000,
        store,
        sessionId: 's2',
        summarizer: async () => fixBugsHandoff,
        onCompaction: (event) => void events.push(event),
      }),
    });
    const history = agentHistory(30, 30, 350);
    await generateText({ model, messages: [...history, { role: 'user', content: 'Ask A' }] });
    expect(events).toHaveLength(1);
    // The app rewrote an early message: the first compaction no longer applies.
    const edited: ModelMessage[] = [
      { role: 'user', content: 'A different first ask' },
      ...history.slice(1),
      { role: 'user', content: 'Ask B' },
    ];
    await generateText({ model, messages: edited });
    expect(events).toHaveLength(2);
    const second = events[1]?.childSessionId as string;
    const lineage = await store.lineage(second);
    const parent = lineage.at(-2);
    // The compacted session's parent holds exactly the history the compressor saw.
    expect(texts(await store.getMessages(parent?.id as string))[0]).toBe('A different first ask');
    expect(await store.getMessages(parent?.id as string)).toHaveLength(edited.length);
  });

  it('persists the calibration ratio and both sets of token figures with a compaction', async () => {
    const counter = createTokenCounter({ model: 'gpt-4o' });
    // The provider reports 1.5x what the counter counts.
    const inner = new MockLanguageModelV4({
      doGenerate: async (options: LanguageModelV4CallOptions) =>
        textResult(
          'ok',
          Math.round(1.5 * counter.countMessages(options.prompt, { tools: options.tools })),
        ),
    });
    const make = () =>
      wrapLanguageModel({
        model: inner,
        middleware: compactionMiddleware({
          contextWindow: 16_000,
          counter,
          calibrate: true,
          store,
          sessionId: 's3',
          summarizer: async () => fixBugsHandoff,
        }),
      });
    const first = make();
    const history = agentHistory(30, 30, 350);
    await generateText({
      model: first,
      messages: [...history.slice(0, 8), { role: 'user', content: 'q' }],
    });
    const compacted = await generateText({
      model: first,
      messages: [...history, { role: 'user', content: 'Ask A' }],
    });
    const baton = compacted.providerMetadata?.baton;
    expect(baton).toMatchObject({ compacted: true, calibrationRatio: 1.5 });
    const child = await store.getSession(baton?.childSessionId as string);
    expect(child.metadata).toMatchObject({
      baton: {
        requestTokensBefore: baton?.tokensBefore,
        requestTokensAfter: baton?.tokensAfter,
        calibrationRatio: 1.5,
      },
    });

    // A new process starts from the stored ratio, not from 1.
    const restarted = make();
    const next = await generateText({
      model: restarted,
      messages: [
        ...history,
        { role: 'user', content: 'Ask A' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'Ask B' },
      ],
    });
    expect(next.providerMetadata?.baton).toMatchObject({
      usedCompactedContext: true,
      calibrationRatio: 1.5,
    });
    expect(promptText(inner.doGenerateCalls.at(-1)?.prompt ?? [])).toContain('Ask B');
  });
});
