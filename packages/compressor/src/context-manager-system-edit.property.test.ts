import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createContextManager, type PreparedContext } from './index.js';
import { ask, managerOptions, stepOutput, system } from './test-utils/background-loop.js';
import { toolTurn } from './test-utils/history.js';
import { structuredSummary } from './test-utils/structured-summary.js';

/**
 * Matching a compaction skips system messages (apps rebuild them per call), so the system messages
 * sent must be the request's own: an app that edits a mid-conversation policy message after a
 * compaction covered it has its new text sent, never the compacted old one, after any number of
 * compactions, blocking or in the background.
 */
const word = fc
  .noBias(
    fc.array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), { minLength: 4, maxLength: 10 }),
  )
  .map((letters) => letters.join(''));

function systemTexts(prepared: PreparedContext): string[] {
  return prepared.messages
    .filter((message) => message.role === 'system')
    .map((message) => message.content as string);
}

describe('mid-conversation system messages edited after a compaction', () => {
  it('are sent as the request has them (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(fc.nat({ max: 30 }), { minLength: 1, maxLength: 3 }),
        fc.nat({ max: 40 }),
        word,
        async (background, places, editAfter, marker) => {
          const options = managerOptions(async () => structuredSummary());
          const manager = createContextManager({ ...options, background });
          const history: ModelMessage[] = [system, ask];
          const policies: number[] = [];
          let compactions = 0;
          for (let step = 0; step < 80; step++) {
            history.push(...toolTurn('bash', stepOutput(step)));
            // Policy notes stand between round trips, as apps insert them.
            if (places.includes(step)) {
              policies.push(history.length);
              history.push({ role: 'system', content: `Policy ${step}: v1 of ${marker}.` });
            }
            const prepared = await manager.prepare(history);
            if (prepared.report.compacted) compactions++;
            if (compactions > 0 && step >= editAfter && policies.length > 0) {
              // Each policy note is replaced by a fresh object with new text.
              for (const at of policies) {
                const old = history[at]!.content as string;
                if (old.includes(' v1 ')) {
                  history[at] = { role: 'system', content: old.replace(' v1 ', ' v2 ') };
                }
              }
              history.push(...toolTurn('bash', stepOutput(step + 1_000)));
              const sent = systemTexts(await manager.prepare(history));
              const expected = history
                .filter((message) => message.role === 'system')
                .map((message) => message.content as string);
              expect(sent).toEqual(expected);
              expect(sent.some((text) => text.includes(' v1 '))).toBe(false);
              await manager.close();
              return;
            }
          }
          await manager.close();
          // Eighty steps of ~100 tokens pass a 2,000-token trigger: the edit is always checked.
          expect.unreachable(`no compaction before step 80 (${compactions})`);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('inserted after a compaction are sent, and no message twice (property)', async () => {
    // Found by an outside attack: a system message put in just before the latest user message on
    // the step after a compaction that ended there was dropped and that message sent twice.
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.nat(),
        fc.nat({ max: 20 }),
        word,
        async (background, pick, asksFrom, marker) => {
          const options = managerOptions(async () => structuredSummary());
          const manager = createContextManager({ ...options, background });
          const history: ModelMessage[] = [system, ask];
          for (let step = 0; step < 80; step++) {
            history.push(...toolTurn('bash', stepOutput(step)));
            if (step >= asksFrom)
              history.push({ role: 'user', content: `Go on ${step}, ${marker}.` });
            const prepared = await manager.prepare(history);
            if (!prepared.report.compacted) continue;
            history.push(...toolTurn('bash', stepOutput(step + 1_000)));
            // Between two round trips or before a user message: never inside a call and its result.
            const boundaries = history
              .map((message, index) => (index > 1 && message.role !== 'tool' ? index : -1))
              .filter((index) => index > 0);
            // Half the draws: right before the latest user message, where the attack found it.
            const lastUser = history.findLastIndex((message) => message.role === 'user');
            const at = pick % 2 === 0 ? lastUser : boundaries[(pick >> 1) % boundaries.length]!;
            history.splice(at, 0, { role: 'system', content: `New policy of ${marker}.` });
            const sent = (await manager.prepare(history)).messages;
            expect(systemTexts({ messages: sent } as PreparedContext)).toEqual(
              history.filter((m) => m.role === 'system').map((m) => m.content as string),
            );
            const users = sent.filter((m) => m.role === 'user');
            expect(new Set(users).size).toBe(users.length);
            await manager.close();
            return;
          }
          await manager.close();
          expect.unreachable('no compaction before step 80');
        },
      ),
      { numRuns: 30 },
    );
  });
});
