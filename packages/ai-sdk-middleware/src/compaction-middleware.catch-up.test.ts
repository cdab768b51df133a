import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { textResult } from './test-utils/conversation.js';
import { fleetRequest } from './test-utils/fleet-conversation.js';

/**
 * Two middleware instances on one store stand for two processes of a fleet (each has its own
 * in-memory state). The deterministic cases behind compaction-middleware.fleet.test.ts.
 */
describe('compactionMiddleware: a process that is behind catches up instead of forking', () => {
  let store: SessionStore;
  beforeAll(async () => {
    store = await createSessionStore();
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  const processFor = (sessionId: string, onCompaction?: () => void) =>
    wrapLanguageModel({
      model: new MockLanguageModelV4({ doGenerate: async () => textResult('ok') }),
      middleware: compactionMiddleware({
        store,
        sessionId,
        contextWindow: 6_000,
        strategy: 'truncate',
        ...(onCompaction ? { onCompaction } : {}),
      }),
    });
  const heads = async (rootId: string) => {
    const all = await store.listSessions({ rootId, includeEnded: true, limit: 1_000 });
    return {
      open: all.filter((session) => session.endedAt === null),
      forks: all.filter((session) => session.origin === 'fork'),
      all,
    };
  };

  it('first calls racing in two processes: both succeed on one root', async () => {
    const sessionId = `race-${crypto.randomUUID()}`;
    const [a, b] = [processFor(sessionId), processFor(sessionId)];
    await Promise.all([
      generateText({ model: a, messages: fleetRequest(0, 1) }),
      generateText({ model: b, messages: fleetRequest(0, 1) }),
    ]);
    const { open, all } = await heads(sessionId);
    expect(all.map((session) => session.id)).toEqual([sessionId]);
    expect(open).toHaveLength(1);
  });

  it('an older request after another process compacted: no fork, no error, the head stays', async () => {
    const sessionId = `lag-${crypto.randomUUID()}`;
    let compactions = 0;
    const ahead = processFor(sessionId, () => void compactions++);
    let step = 0;
    while (compactions === 0) {
      step++;
      await generateText({ model: ahead, messages: fleetRequest(1, step) });
      expect(step).toBeLessThan(40);
    }
    const before = await heads(sessionId);
    expect(before.open).toHaveLength(1);
    const head = before.open[0]!.id;

    // A fresh process gets requests from before that compaction, then catches up with the newest.
    const behind = processFor(sessionId);
    for (const older of [step - 3, step - 1, step, step + 1]) {
      await generateText({ model: behind, messages: fleetRequest(1, older) });
    }
    const after = await heads(sessionId);
    expect(after.forks).toEqual([]);
    expect(after.open).toHaveLength(1);
    // The newer request was appended to the same head, not to a branch.
    expect(after.open[0]!.id).toBe(head);
    // And the first process goes on where the second left off.
    await generateText({ model: ahead, messages: fleetRequest(1, step + 2) });
    const last = await heads(sessionId);
    expect(last.forks).toEqual([]);
    expect(last.open).toHaveLength(1);
  });

  it('a really edited history still forks, once, with the previous head ended in the same step', async () => {
    const sessionId = `edit-${crypto.randomUUID()}`;
    const model = processFor(sessionId);
    await generateText({ model, messages: fleetRequest(2, 2) });
    const edited: ModelMessage[] = fleetRequest(2, 2).slice();
    edited[0] = { role: 'user', content: 'A different first ask.' };
    await generateText({ model, messages: edited });
    const { open, forks, all } = await heads(sessionId);
    expect(forks).toHaveLength(1);
    expect(open.map((session) => session.id)).toEqual([forks[0]!.id]);
    expect(all.find((session) => session.id === sessionId)?.endReason).toBe('branched');
  });
});
