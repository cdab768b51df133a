import type { ModelMessage } from '@ai-sdk/provider-utils';
import { type ContextManager, validateToolPairs } from '@baton/compressor';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  restartStore,
  tally,
  githubToken as token,
  toolTurn,
} from './test-utils/restart-attack.js';

/**
 * Attack: two context managers (two processes) on one store and session answer the same growing
 * history at the same time, and either restarts now and then, so compactions race with restores
 * from the store. The lineage keeps one child per compacted parent and one open head; what each
 * sends pairs its tool calls, holds no token outside the app's own messages (in the app's order)
 * and ends with the app's latest ask and what followed it.
 */

interface Round {
  ask: boolean;
  secret: boolean;
  tools: number[];
  restart: 'none' | 'first' | 'second';
}
const round: fc.Arbitrary<Round> = fc.record({
  ask: fc.boolean(),
  secret: fc.boolean(),
  tools: fc.array(fc.integer({ min: 40, max: 200 }), { minLength: 1, maxLength: 3 }),
  restart: fc.constantFrom('none', 'none', 'first', 'second'),
});

const startRun = restartStore('two-managers');

async function run(
  secret: string,
  strategy: 'auto' | 'summarize',
  rounds: Round[],
  outcomes: Record<string, number>,
) {
  const { store, sessionId, make } = startRun(strategy);
  const count = (key: string) => tally(outcomes, key);
  const managers: ContextManager[] = [make(), make()];
  const history: ModelMessage[] = [
    { role: 'system', content: 'You are a git agent.' },
    { role: 'user', content: `Set up the repository with ${secret}.` },
  ];
  let call = 0;
  for (const [index, current] of rounds.entries()) {
    if (current.ask)
      history.push({
        role: 'user',
        content: current.secret ? `Push ${index} with ${secret}` : `Push ${index}`,
      });
    for (const size of current.tools) {
      const id = `c${++call}`;
      history.push(...toolTurn(id, size));
    }
    if (current.restart !== 'none') {
      const at = current.restart === 'first' ? 0 : 1;
      await managers[at]!.close();
      managers[at] = make();
      count('restart');
    }
    const snapshot = history.slice();
    const results = await Promise.allSettled(managers.map((manager) => manager.prepare(snapshot)));
    const appJson = snapshot.map((message) => JSON.stringify(message));
    for (const result of results) {
      if (result.status === 'rejected') {
        const code = (result.reason as { code?: unknown }).code;
        count(`error:${String(code)}`);
        expect(code, String(result.reason)).toBe('context_window_exceeded');
        continue;
      }
      const sent = result.value.messages;
      if (result.value.report.compacted) count('compacted');
      else if (result.value.report.usedCompactedContext) count('spliced');
      expect(
        validateToolPairs(sent).problems.filter((p) => p.code !== 'system_not_leading'),
      ).toEqual([]);
      let cursor = -1;
      for (const message of sent) {
        const json = JSON.stringify(message);
        let at = -1;
        for (let index = cursor + 1; index < appJson.length; index++)
          if (appJson[index] === json) {
            at = index;
            break;
          }
        if (json.includes(secret)) {
          count('sent the token');
          expect(at, `sent ${json.slice(0, 160)}, not the app's`).toBeGreaterThan(cursor);
        }
        if (at >= 0) cursor = at;
      }
      // The latest message is the app's, sent last.
      expect(JSON.stringify(sent.at(-1))).toBe(appJson.at(-1));
    }
  }
  await Promise.all(managers.map((manager) => manager.close()));
  // One open head; every compacted parent has exactly one child.
  const sessions = await store.listSessions({
    rootId: sessionId,
    includeEnded: true,
    limit: 1_000,
  });
  expect(sessions.filter((session) => session.endReason === null)).toHaveLength(1);
  for (const parent of sessions.filter((session) => session.endReason === 'compaction')) {
    const children = sessions.filter((session) => session.parentId === parent.id);
    expect(children).toHaveLength(1);
    count('compacted parent');
  }
  const stored = JSON.stringify(
    await Promise.all(sessions.map((session) => store.getMessages(session.id))),
  );
  expect(stored).not.toContain(secret);
}

describe('two context managers on one store, restarting', () => {
  const outcomes: Record<string, number> = {};
  it('race compactions and restores without orphaned pairs, leaked tokens or two heads', async () => {
    await fc.assert(
      fc.asyncProperty(
        token,
        fc.constantFrom<'auto' | 'summarize'>('auto', 'summarize'),
        fc.noBias(fc.array(round, { minLength: 3, maxLength: 9 })),
        async (secret, strategy, rounds) => run(secret, strategy, rounds, outcomes),
      ),
      { numRuns: 15 },
    );
    console.info(`two manager outcomes: ${JSON.stringify(outcomes)}`);
    expect(outcomes['compacted parent'] ?? 0).toBeGreaterThan(5);
    expect(outcomes.restart ?? 0).toBeGreaterThan(5);
    expect(outcomes['sent the token'] ?? 0).toBeGreaterThan(5);
  }, 600_000);
});
