import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createContextManager } from '@baton/compressor';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentHistory } from './test-utils/conversation.js';
import { ask, backgroundOptions, gatedSummarizer } from './test-utils/gated-summarizer.js';
import {
  expectOneChildPerParent,
  signature,
  storedRawHistory,
} from './test-utils/stored-lineage.js';

/**
 * Attacks (reviewer) on background compaction with a real store: two processes (two managers on
 * one PGlite store) compacting one lineage again and again, and a store failing at the swap. The
 * store must keep every raw message ever sent, in order, along the open head's lineage.
 */

describe('background compaction with a store, attacked', () => {
  let store: SessionStore;
  beforeAll(async () => {
    store = await createSessionStore();
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  it('two processes compacting one lineage many times: one child per parent, every raw message kept in order', async () => {
    const sessionId = `attack-two-${crypto.randomUUID()}`;
    const summaries = gatedSummarizer();
    const managers = [0, 1].map(() =>
      createContextManager({
        ...backgroundOptions,
        store,
        sessionId,
        summarizer: summaries.summarizer,
      }),
    );
    const all = agentHistory(120, 150);
    const history: ModelMessage[] = [ask];
    let compactions = 0;
    for (let step = 0; step < 45; step++) {
      history.push(...all.slice(4 * step, 4 * step + 4));
      const messages = history.slice();
      // Both run concurrently; the summariser answers while they are in flight on odd steps.
      const calls = managers.map((manager) => manager.prepare(messages));
      if (step % 2 === 1) await summaries.release();
      const results = await Promise.all(
        calls.map(async (call) => {
          let settled = false;
          void call.finally(() => {
            settled = true;
          });
          while (!settled) await summaries.release();
          return call;
        }),
      );
      compactions += results.filter((result) => result.report.compacted).length;
      await summaries.release();
    }
    expect(compactions).toBeGreaterThanOrEqual(3);
    await Promise.all(managers.map((manager) => manager.close()));
    await expectOneChildPerParent(store, sessionId);
    expect(await storedRawHistory(store, sessionId)).toEqual(history.map(signature));
  }, 120_000);

  it('a store failing at the swap: that call rejects, the next compacts, nothing is lost', async () => {
    const sessionId = `attack-failing-${crypto.randomUUID()}`;
    const summaries = gatedSummarizer();
    let failNext = false;
    const failing = new Proxy(store, {
      get(target, property, receiver) {
        if (property === 'recordCompaction' && failNext) {
          failNext = false;
          return async () => {
            throw new Error('the disk is full');
          };
        }
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const manager = createContextManager({
      ...backgroundOptions,
      store: failing,
      sessionId,
      summarizer: summaries.summarizer,
    });
    const all = agentHistory(80, 150);
    const history: ModelMessage[] = [ask];
    let failed = 0;
    let compacted = 0;
    let swapped = 0;
    for (let step = 0; step < 30 && compacted < 2; step++) {
      history.push(...all.slice(4 * step, 4 * step + 4));
      // Fail the first compaction the store is asked to record.
      if (compacted === 0 && failed === 0) failNext = true;
      const call = manager.prepare(history.slice());
      let settled = false;
      void call.then(
        () => (settled = true),
        () => (settled = true),
      );
      while (!settled) await summaries.release();
      try {
        const prepared = await call;
        if (prepared.report.compacted) {
          compacted++;
          if (prepared.event?.fromBackground) swapped++;
        }
      } catch (error) {
        expect(String(error)).toMatch(/disk is full/);
        failed++;
      }
      failNext = false;
      await summaries.release();
    }
    expect(failed).toBe(1);
    expect(compacted).toBe(2);
    expect(swapped).toBeGreaterThanOrEqual(1);
    await manager.close();
    await expectOneChildPerParent(store, sessionId);
    expect(await storedRawHistory(store, sessionId)).toEqual(history.map(signature));
  }, 120_000);
});
