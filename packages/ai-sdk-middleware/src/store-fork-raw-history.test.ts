import { randomBytes } from 'node:crypto';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { filler, textResult } from './test-utils/conversation.js';
import { currentHead } from './test-utils/current-head.js';

/**
 * Regression for the sequence property's seed -173026863 ("raw message … lost"), shrunk: a
 * compacted conversation that the app forks in the store and goes on in with a new process (a new
 * record key, so the copied compaction's sealed prefix cannot be checked: the middleware branches
 * and stores the whole raw history in the branch). The message was never lost: `resume` stops at
 * the head the middleware ended for the branch. The raw history is checked along the current head.
 */

let store: SessionStore;
beforeAll(async () => {
  store = await createSessionStore();
}, 60_000);
afterAll(async () => {
  await store?.close();
});

function toolTurn(ids: string[], outputs: string[]): ModelMessage[] {
  return [
    {
      role: 'assistant',
      content: ids.map((toolCallId) => ({
        type: 'tool-call' as const,
        toolCallId,
        toolName: 'bash',
        input: { command: `cat f-${toolCallId}` },
      })),
    },
    {
      role: 'tool',
      content: ids.map((toolCallId, index) => ({
        type: 'tool-result' as const,
        toolCallId,
        toolName: 'bash',
        output: { type: 'text' as const, value: outputs[index]! },
      })),
    },
  ];
}

async function rawOfLineage(headId: string): Promise<string> {
  const raw: string[] = [];
  for (const session of await store.lineage(headId))
    for (const row of await store.getMessages(session.id)) raw.push(JSON.stringify(row.message));
  return raw.join('\n');
}

describe('a store fork of a compacted head, continued by a new process', () => {
  it('keeps every app message in the raw history of the current head', async () => {
    let sessionId = 'fork-raw-root';
    const model = new MockLanguageModelV4({ doGenerate: async () => textResult('Done.') });
    // A new process per call: a new record key, so only the store carries state over.
    const newProcess = () =>
      wrapLanguageModel({
        model,
        middleware: compactionMiddleware({
          contextWindow: 6_000,
          reservedOutputTokens: 500,
          store,
          strategy: 'auto',
          getSessionId: () => sessionId,
          summarizer: async () => '## Goal\nFinish the task.\n## Remaining work\nContinue.',
          compressor: { maxAttempts: 1, retryDelayMs: 0, recordKey: randomBytes(32) },
        }),
      });
    const history: ModelMessage[] = [
      { role: 'user', content: 'Start the task TAG-start.' },
      ...toolTurn(['c1', 'c2'], [`TAG-o1\n${filler(1_500, 1)}`, `TAG-o2\n${filler(1_500, 2)}`]),
      ...toolTurn(['c3'], [`TAG-o3\n${filler(900, 3)}`]),
    ];
    const call = async () => {
      const result = await generateText({
        model: newProcess(),
        instructions: 'You are agent A.',
        messages: history,
      });
      return (result.providerMetadata?.baton ?? {}) as Record<string, unknown>;
    };
    // The app forks what `resume` gives it, as the property's `storeFork` step does.
    const storeFork = async (id: string) => {
      const head = await store.resume(sessionId);
      await store.fork(head.session.id, { id });
      sessionId = id;
      return head.session;
    };
    const tags = ['TAG-start', 'TAG-o1', 'TAG-o2', 'TAG-o3'];

    // Premise: the first call compacts.
    expect((await call()).compacted).toBe(true);
    await storeFork('fork-raw-b');
    history.push({ role: 'user', content: 'Please refactor module TAG-ask next.' });
    tags.push('TAG-ask');
    await call();

    // Premise: the middleware left the app's fork for a branch, so `resume` stops short of the ask.
    const resumed = await store.resume(sessionId);
    expect(resumed.session.endReason).toBe('branched');
    expect(await rawOfLineage(resumed.session.id)).not.toContain('TAG-ask');
    const head = await currentHead(store, sessionId);
    expect(head.branches).toBe(1);
    const raw = await rawOfLineage(head.id);
    for (const tag of tags) expect(raw, `raw message ${tag} lost`).toContain(tag);

    // The app forks the ended head (its copy lacks the ask); the next process stores it again.
    expect((await storeFork('fork-raw-c')).endReason).toBe('branched');
    history.push(...toolTurn(['c4'], [`TAG-o4\n${filler(200, 4)}`]));
    tags.push('TAG-o4');
    await call();
    const last = await rawOfLineage((await currentHead(store, sessionId)).id);
    for (const tag of tags) expect(last, `raw message ${tag} lost`).toContain(tag);
  }, 120_000);

  it('a restarted process of one store fork goes on in its own branch, not a sibling fork', async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => textResult('Done.') });
    const processFor = (sessionId: string) =>
      wrapLanguageModel({
        model,
        middleware: compactionMiddleware({
          contextWindow: 6_000,
          reservedOutputTokens: 500,
          store,
          strategy: 'auto',
          getSessionId: () => sessionId,
          summarizer: async () => '## Goal\nGo on.',
          compressor: { maxAttempts: 1, retryDelayMs: 0, recordKey: randomBytes(32) },
        }),
      });
    const base: ModelMessage[] = [
      { role: 'user', content: 'Start TAG-start.' },
      ...toolTurn(['s1', 's2'], [`s1\n${filler(1_500, 1)}`, `s2\n${filler(1_500, 2)}`]),
      ...toolTurn(['s3'], [`s3\n${filler(900, 3)}`]),
    ];
    await generateText({ model: processFor('sib-root'), messages: base });
    // Two conversations forked in the store from the same compacted head, each in a new process
    // (each branches: its new record key cannot check the copied compaction).
    const head = await store.resume('sib-root');
    await store.fork(head.session.id, { id: 'sib-one' });
    await store.fork(head.session.id, { id: 'sib-two' });
    const one: ModelMessage[] = [...base, { role: 'user', content: 'Ask TAG-one.' }];
    const two: ModelMessage[] = [...base, { role: 'user', content: 'Ask TAG-two.' }];
    await generateText({ model: processFor('sib-one'), messages: one });
    await generateText({ model: processFor('sib-two'), messages: two });
    // A restart of the first conversation, one step on. The newest open session of the root is
    // the second conversation's: it must not go on there.
    one.push(...toolTurn(['s9'], [`TAG-s9\n${filler(50, 9)}`]));
    await generateText({ model: processFor('sib-one'), messages: one });

    const rawOne = await rawOfLineage((await currentHead(store, 'sib-one')).id);
    for (const tag of ['TAG-start', 'TAG-one', 'TAG-s9']) expect(rawOne).toContain(tag);
    expect(rawOne).not.toContain('TAG-two');
    const rawTwo = await rawOfLineage((await currentHead(store, 'sib-two')).id);
    expect(rawTwo).toContain('TAG-two');
    expect(rawTwo).not.toContain('TAG-one');
    // Each conversation has one open head: the first one's restart ended nothing of the second.
    const open = await store.listSessions({ rootId: 'sib-root', limit: 100 });
    const lineOf = async (id: string) => (await store.lineage(id)).map((session) => session.id);
    const heads = await Promise.all(open.map((session) => lineOf(session.id)));
    expect(heads.filter((line) => line.includes('sib-one'))).toHaveLength(1);
    expect(heads.filter((line) => line.includes('sib-two'))).toHaveLength(1);
  }, 120_000);
});
