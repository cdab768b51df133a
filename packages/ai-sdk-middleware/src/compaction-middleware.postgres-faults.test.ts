import { setTimeout as sleep } from 'node:timers/promises';
import { inspect } from 'node:util';
import type { SummarizerRequest } from '@baton/compressor';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import {
  type CuttingProxy,
  describePrivatePostgres,
  startCuttingProxy,
} from '@baton/sessions/test';
import { BatonError } from '@baton/tokens';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { agentHistory, textResult } from './test-utils/conversation.js';
import { ask, backgroundOptions, gatedSummarizer } from './test-utils/gated-summarizer.js';
import {
  expectOneChildPerParent,
  signature,
  storedRawHistory,
} from './test-utils/stored-lineage.js';
import type { MiddlewareCompactionEvent } from './types.js';

/**
 * The middleware in a tool loop on a PostgreSQL store whose server (one the test starts itself)
 * dies in the middle of a step, stays down for a step, or commits and then loses the
 * acknowledgement. Documented behaviour: a store error fails that call with a typed
 * `StoreConnectionError` (never a secret or the session id in it), the host lives, and once the
 * server is back the host re-sends the same history and goes on. Afterwards the store must hold
 * every raw message sent exactly once, in order, along one open head, with one child per parent.
 */

type Step =
  | { ok: true; compacted: boolean; fromBackground: boolean }
  | { ok: false; error: unknown };

/** A random credential-shaped password: the server trusts every login, so it is never checked. */
function password(): string {
  return `pw${crypto.randomUUID().replaceAll('-', '')}`;
}

function loop(
  store: SessionStore,
  sessionId: string,
  summarizer: (request: SummarizerRequest) => Promise<string>,
  background: boolean,
) {
  const events: MiddlewareCompactionEvent[] = [];
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({ doGenerate: async () => textResult('ok') }),
    middleware: compactionMiddleware({
      ...backgroundOptions,
      background,
      store,
      sessionId,
      summarizer,
      onCompaction: (event) => void events.push(event),
    }),
  });
  const all = agentHistory(80, 150);
  const history: ModelMessage[] = [ask];
  let next = 0;
  return {
    history,
    events,
    grow() {
      history.push(...all.slice(4 * next, 4 * ++next));
    },
    /** Regenerates the reply of the turn before the latest (stored already): the lineage forks. */
    regenerate() {
      const at = history.length - 5;
      expect(history[at]?.role).toBe('assistant');
      history[at] = { role: 'assistant', content: `Regenerated reply ${crypto.randomUUID()}.` };
    },
    /** One model call with the history as it is now. */
    async call(): Promise<Step> {
      const compactionsBefore = events.length;
      try {
        const result = await generateText({ model, messages: history.slice(), maxRetries: 0 });
        const baton = result.providerMetadata?.baton as { compacted?: boolean } | undefined;
        return {
          ok: true,
          compacted: baton?.compacted === true,
          fromBackground: events.slice(compactionsBefore).some((event) => event.fromBackground),
        };
      } catch (error) {
        return { ok: false, error };
      }
    },
  };
}

/** A failed step: a typed store error naming neither the password nor the session id. */
function expectTypedFailure(step: Step, secrets: string[]): StoreConnectionFailure {
  expect(step.ok, 'the step should have failed').toBe(false);
  const error = (step as { error: unknown }).error;
  expect(BatonError.isInstance(error), inspect(error)).toBe(true);
  expect((error as BatonError).code, inspect(error)).toBe('store_connection');
  const shown = [inspect(error, { depth: 8 }), JSON.stringify(error), String(error)].join('\n');
  for (const secret of secrets) expect(shown).not.toContain(secret);
  return error as StoreConnectionFailure;
}

interface StoreConnectionFailure extends BatonError {
  outcomeUnknown: boolean;
}

async function settle(): Promise<void> {
  for (let round = 0; round < 20; round++) await new Promise((done) => setImmediate(done));
}

async function expectWholeLineage(
  store: SessionStore,
  sessionId: string,
  history: ModelMessage[],
): Promise<void> {
  await expectOneChildPerParent(store, sessionId);
  expect(await storedRawHistory(store, sessionId)).toEqual(history.map(signature));
}

describePrivatePostgres('the middleware on a PostgreSQL store that fails', (server) => {
  let secret: string;
  let store: SessionStore;
  beforeAll(async () => {
    secret = password();
    store = await createSessionStore({
      connectionString: `postgres://postgres:${secret}@127.0.0.1:${server().port}/postgres`,
    });
  });
  afterAll(async () => {
    await store?.close();
  });
  afterEach(async () => {
    // A failed test must not leave the server down for the next one.
    await server().start();
  });

  const kills = [
    { at: 'while the step waits for the summariser', background: false, swap: false },
    { at: 'with a background job in flight', background: true, swap: false },
    {
      at: 'while the step at the trigger waits for the background job',
      background: true,
      swap: true,
    },
  ];
  for (const { at, background, swap } of kills) {
    it(`server killed ${at}, then down for a step: typed errors, then nothing lost or duplicated`, async () => {
      const sessionId = `killed-${crypto.randomUUID()}`;
      const summaries = gatedSummarizer();
      const agent = loop(store, sessionId, summaries.summarizer, background);
      let killed = false;
      let compactions = 0;
      for (let step = 0; step < 60 && compactions < 2; step++) {
        agent.grow();
        const requestsBefore = summaries.requests.length;
        let pending = agent.call();
        let settled = false;
        void pending.then(() => (settled = true));
        // Store round trips are real I/O: wait until the step returned or called the summariser.
        while (!settled && summaries.requests.length === requestsBefore) await sleep(2);
        await settle();
        if (!killed && summaries.requests.length > requestsBefore) {
          killed = true;
          if (swap) {
            // The job runs, unanswered; the next step lands well over the trigger and must wait
            // for it (or for a synchronous summary): it cannot finish before the summariser answers.
            expect(await pending, 'the step that started the job').toMatchObject({ ok: true });
            for (let turn = 0; turn < 4; turn++) agent.grow();
            pending = agent.call();
            settled = false;
            void pending.then(() => (settled = true));
            await sleep(100);
          }
          // Premise: the step cannot finish without the summariser, except one that only started a job.
          const waiting = !settled;
          expect(waiting || !swap).toBe(true);
          expect(waiting || background).toBe(true);
          await server().stop('immediate');
          await summaries.release();
          const during = await pending;
          if (waiting) expectTypedFailure(during, [secret, sessionId]);
          // The next step comes while the server is down.
          agent.grow();
          expectTypedFailure(await agent.call(), [secret, sessionId]);
          await server().start();
          // The host re-sends the history it has; from here every call succeeds.
          const retried = await retryWhileAnswering(agent.call, summaries);
          expect(retried, inspect(retried)).toMatchObject({ ok: true });
          if (retried.ok && retried.compacted) compactions++;
          continue;
        }
        while (!settled) await summaries.release();
        const done = await pending;
        expect(done, inspect(done)).toMatchObject({ ok: true });
        if (done.ok && done.compacted) compactions++;
        await summaries.release();
      }
      expect(killed).toBe(true);
      expect(compactions).toBe(2);
      await expectWholeLineage(store, sessionId, agent.history);
    }, 30_000);
  }

  it('acknowledgements lost after the server committed, at every COMMIT of every step (forks included): typed errors, retries write nothing twice', async () => {
    const proxy: CuttingProxy = await startCuttingProxy(server().port);
    const throughProxy = await createSessionStore({
      connectionString: `postgres://postgres:${secret}@127.0.0.1:${proxy.port}/postgres`,
      migrate: false,
    });
    try {
      const sessionId = `lost-ack-${crypto.randomUUID()}`;
      const agent = loop(throughProxy, sessionId, async () => 'The parser test was fixed.', false);
      let compactions = 0;
      let cutCompactions = 0;
      for (let step = 0; step < 40 && compactions < 3; step++) {
        agent.grow();
        if (step % 5 === 4) agent.regenerate();
        // The same call again and again, its k-th COMMIT cut each time, until a run reaches no
        // k-th COMMIT: every transaction of the step loses its acknowledgement once.
        for (let commit = 0; ; commit++) {
          const cutsBefore = proxy.cuts;
          proxy.cut = 'commit';
          proxy.skip = commit;
          const run = await agent.call();
          proxy.cut = undefined;
          if (proxy.cuts === cutsBefore) {
            expect(run, inspect(run)).toMatchObject({ ok: true });
            if (run.ok && run.compacted) compactions++;
            break;
          }
          const error = expectTypedFailure(run, [secret, sessionId]);
          expect(error.outcomeUnknown).toBe(true);
          if (commit > 0) cutCompactions++;
          expect(commit).toBeLessThan(10);
        }
      }
      expect(compactions).toBe(3);
      // Premise: cuts struck later commits of a step (a compaction's), not only its first append.
      expect(cutCompactions).toBeGreaterThan(0);
      // Premise: the regenerated replies forked the lineage (each fork's COMMIT was cut too).
      const sessions = await store.listSessions({
        rootId: sessionId,
        includeEnded: true,
        limit: 1_000,
      });
      expect(sessions.filter((session) => session.endReason === 'branched').length).toBeGreaterThan(
        1,
      );
      await expectWholeLineage(store, sessionId, agent.history);
    } finally {
      await throughProxy.close();
      await proxy.close();
    }
  }, 30_000);
});

/** Calls until it settles, answering summariser calls meanwhile. */
async function retryWhileAnswering(
  call: () => Promise<Step>,
  summaries: ReturnType<typeof gatedSummarizer>,
): Promise<Step> {
  const pending = call();
  let settled = false;
  void pending.then(() => (settled = true));
  while (!settled) await summaries.release();
  return pending;
}
