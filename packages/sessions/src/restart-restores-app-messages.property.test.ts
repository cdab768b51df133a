import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { CompressionStrategy } from '@baton/compressor';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerAfterRestart,
  anyStrategy,
  restartStore,
  tally,
  githubToken as token,
  toolTurn,
} from './test-utils/restart-attack.js';

/**
 * Attack on the restore after a restart (session 22): a process that resumes a compaction from the
 * store gets the messages it kept verbatim in their stored (redacted) form and must put the app's
 * own back. Oracle: the process that compacted, still running, and a fresh one on the same store
 * answer the same next request; wherever either sends one of the app's messages, both send the
 * same message. Histories hold the same ask with different tokens (equal once redacted), exact
 * duplicates, system messages mid-conversation, and each strategy; found: with masking (the `auto`
 * default for tool-heavy histories) or a pinned ask, a kept message between rewritten ones stayed
 * in stored form, so the latest ask reached the model as `Push with [REDACTED:github-token]`.
 */

type Step =
  | { kind: 'ask'; secret: number | undefined }
  | { kind: 'tools'; size: number; secret: number | undefined }
  | { kind: 'repeat'; back: number }
  | { kind: 'system'; secret: number | undefined }
  | { kind: 'reply' }
  | { kind: 'call' };

const secretIndex = fc.option(fc.integer({ min: 0, max: 1 }), { nil: undefined });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('ask' as const), secret: secretIndex }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('tools' as const),
      size: fc.integer({ min: 40, max: 220 }),
      secret: secretIndex,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('repeat' as const),
      back: fc.integer({ min: 1, max: 6 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('system' as const), secret: secretIndex }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reply' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('call' as const) }) },
);

const startRun = restartStore('restore');

async function run(
  tokens: [string, string],
  strategy: CompressionStrategy,
  steps: Step[],
  outcomes: Record<string, number>,
): Promise<void> {
  const { make } = startRun(strategy);
  const count = (key: string) => tally(outcomes, key);
  const withSecret = (text: string, secret: number | undefined) =>
    secret === undefined ? text : `${text} with ${tokens[secret]}`;
  const history: ModelMessage[] = [
    { role: 'system', content: 'You are a git agent.' },
    { role: 'user', content: 'Set up the repository.' },
  ];
  let call = 0;
  const running = make();
  for (const current of [...steps, { kind: 'call' } as Step]) {
    switch (current.kind) {
      case 'ask':
        // Few distinct texts: the same ask with the other token is equal once redacted.
        history.push({ role: 'user', content: withSecret('Push the branch', current.secret) });
        break;
      case 'tools': {
        const id = `c${++call}`;
        history.push(
          ...toolTurn(
            id,
            current.size,
            current.secret === undefined ? '' : ` with ${tokens[current.secret]}`,
          ),
        );
        break;
      }
      case 'repeat': {
        const source = history.at(-current.back);
        // An exact duplicate of a recent plain message (tool messages would break pairing).
        if (source !== undefined && (source.role === 'user' || source.role === 'system'))
          history.push(source);
        break;
      }
      case 'system':
        history.push({ role: 'system', content: withSecret('Mode: careful', current.secret) });
        break;
      case 'reply':
        history.push({ role: 'assistant', content: 'Working on it.' });
        break;
      case 'call': {
        const first = await running.prepare(history);
        if (!first.report.compacted) break;
        count('compacted');
        const answers = await answerAfterRestart(
          running,
          make,
          history,
          outcomes,
          `Step ${call} done.`,
        );
        if (answers === undefined) break;
        const { fresh, kept } = answers;
        if (JSON.stringify(fresh.messages) !== JSON.stringify(kept.messages)) count('differs');
        const app = new Set(history.map((message) => JSON.stringify(message)));
        const sent = (messages: ModelMessage[]) => messages.map((m) => JSON.stringify(m));
        const [a, b] = [sent(fresh.messages), sent(kept.messages)];
        expect(a.length).toBe(b.length);
        a.forEach((message, index) => {
          // Premise counted: a restored message that held a marker in the store.
          if (app.has(b[index]!) && b[index]!.includes('ghp_')) count('restored secret');
          if (app.has(message) || app.has(b[index]!))
            expect(message, `message ${index} after a restart`).toBe(b[index]);
        });
        break;
      }
    }
  }
  await running.close();
}

describe('a restarted process sends the app messages the compacting process would', () => {
  const outcomes: Record<string, number> = {};
  it('for every strategy, duplicated and equal-once-redacted messages', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(token, token).filter(([a, b]) => a !== b),
        anyStrategy,
        fc.noBias(fc.array(step, { minLength: 6, maxLength: 24 })),
        async (tokens, strategy, steps) => run(tokens, strategy, steps, outcomes),
      ),
      { numRuns: 30 },
    );
    console.info(`restore outcomes: ${JSON.stringify(outcomes)}`);
    // Premises: compactions were compared after a restart, some restoring a redacted secret.
    expect(outcomes.compared ?? 0).toBeGreaterThan(8);
    expect(outcomes['restored secret'] ?? 0).toBeGreaterThan(2);
  }, 600_000);
});
