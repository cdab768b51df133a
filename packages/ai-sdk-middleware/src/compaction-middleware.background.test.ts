import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContextManager } from '@baton/compressor';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { agentHistory, textResult } from './test-utils/conversation.js';
import { ask, backgroundOptions, gatedSummarizer } from './test-utils/gated-summarizer.js';
import type { MiddlewareCompactionEvent } from './types.js';

/**
 * Background compaction with a real session store: a process dying with a job in flight, and two
 * processes (two middleware instances, each with its own state) compacting one lineage.
 */

/** Agent turns (ask, tool call, ~150-token result, reply) handed out one per step. */
function turns(): () => ModelMessage[] {
  const all = agentHistory(80, 150);
  let next = 0;
  return () => all.slice(4 * next, 4 * ++next);
}

describe('background compaction with a session store', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'baton-background-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a process that dies with a job in flight leaves nothing half-written; the next one compacts once', async () => {
    const sessionId = 'restart-with-job';
    const history: ModelMessage[] = [ask];
    const loopStep = turns();
    const first = gatedSummarizer();
    const store1 = await createSessionStore({ dataDir });
    const manager1 = createContextManager({
      ...backgroundOptions,
      store: store1,
      sessionId,
      summarizer: first.summarizer,
    });
    while (first.requests.length === 0) {
      history.push(...loopStep());
      const prepared = await manager1.prepare(history);
      expect(prepared.report.compacted).toBe(false);
      expect(history.length).toBeLessThan(200);
    }
    // The process goes away: its store closes with the job still waiting for the summariser.
    await store1.close();
    // The job finishing afterwards writes nothing (and must not throw into a closed store).
    await first.release();

    const store2 = await createSessionStore({ dataDir });
    try {
      const stored = await store2.listSessions({ rootId: sessionId, includeEnded: true });
      expect(stored.map((session) => session.id)).toEqual([sessionId]);
      expect(await store2.getMessages(sessionId)).toHaveLength(history.length);

      const second = gatedSummarizer();
      const manager2 = createContextManager({
        ...backgroundOptions,
        store: store2,
        sessionId,
        summarizer: second.summarizer,
      });
      let compacted: Awaited<ReturnType<typeof manager2.prepare>> | undefined;
      for (let step = 0; step < 40 && compacted === undefined; step++) {
        history.push(...loopStep());
        const pending = manager2.prepare(history);
        const prepared = await pending;
        await second.release();
        if (prepared.report.compacted) compacted = prepared;
      }
      expect(compacted?.event?.fromBackground).toBe(true);
      const all = await store2.listSessions({ rootId: sessionId, includeEnded: true });
      const children = all.filter((session) => session.parentId === sessionId);
      expect(children).toHaveLength(1);
      expect(children[0]?.id).toBe(compacted?.report.childSessionId);
      // The child holds exactly what was sent.
      expect(await store2.getMessages(children[0]?.id as string)).toHaveLength(
        compacted?.messages.length as number,
      );
      await manager2.close();
    } finally {
      await store2.close();
    }
  }, 120_000);

  describe('two processes on one lineage', () => {
    let store: SessionStore;
    beforeAll(async () => {
      store = await createSessionStore();
    }, 120_000);
    afterAll(async () => {
      await store?.close();
    });

    it('both prepare in the background; the store keeps one child and the loser splices onto it', async () => {
      const sessionId = `two-${crypto.randomUUID()}`;
      const summaries = gatedSummarizer();
      const events: MiddlewareCompactionEvent[] = [];
      const processFor = () =>
        wrapLanguageModel({
          model: new MockLanguageModelV4({ doGenerate: async () => textResult('ok') }),
          middleware: compactionMiddleware({
            ...backgroundOptions,
            store,
            sessionId,
            summarizer: summaries.summarizer,
            onCompaction: (event) => void events.push(event),
          }),
        });
      const [a, b] = [processFor(), processFor()];
      const history: ModelMessage[] = [ask];
      const loopStep = turns();
      for (let step = 0; step < 40 && events.length === 0; step++) {
        history.push(...loopStep());
        const messages = history.slice();
        await Promise.all([
          generateText({ model: a, messages }),
          generateText({ model: b, messages }),
        ]);
        await summaries.release();
      }
      expect(events.length).toBeGreaterThanOrEqual(1);
      expect(events.some((event) => event.fromBackground)).toBe(true);
      // One more step for both: the loser of the race now builds on the winner's compaction.
      history.push(...loopStep());
      const [left, right] = await Promise.all([
        generateText({ model: a, messages: history.slice() }),
        generateText({ model: b, messages: history.slice() }),
      ]);
      const all = await store.listSessions({ rootId: sessionId, includeEnded: true, limit: 100 });
      const children = all.filter((session) => session.parentId === sessionId);
      expect(children).toHaveLength(1);
      for (const result of [left, right]) {
        expect(result.providerMetadata?.baton?.usedCompactedContext).toBe(true);
      }
      expect(all.filter((session) => session.endedAt === null)).toHaveLength(1);
    }, 120_000);
  });
});
