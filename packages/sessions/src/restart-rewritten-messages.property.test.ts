import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { CompressionStrategy, ContextManager } from '@baton/compressor';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as restart from './test-utils/restart-attack.js';

/**
 * Attack on the restore after a restart, rewritten messages: Baton sends some app messages
 * rewritten (tool outputs masked to a placeholder or clipped around a marker, a tool message with
 * one part masked and one kept), and the store holds them redacted. A process that resumes the
 * compaction must send what the compacting process sent: the rewrite of the app's own message,
 * secrets included (the caller passes the raw history in), never the stored markers. Oracle: after
 * each compaction, and at random restarts, a fresh process and the one that compacted answer the
 * same next request with identical messages; the store never holds a token.
 */

type Secret = 'none' | 'head' | 'middle' | 'tail';
/** One step of the app: an ask (with the token unless `secret` is none), a tool turn, a restart or a model call. */
interface Step {
  kind: 'ask' | 'tools' | 'restart' | 'call';
  /** Tool turn: words of output, up to one over the window alone (the latest turn gets clipped). */
  size: number;
  /** Where the token sits in the output (or whether the ask holds it). */
  secret: Secret;
  /** A second, small result in the same tool message (kept when the large one is masked). */
  small: boolean;
}

const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom<Step['kind']>('ask', 'tools', 'tools', 'tools', 'restart', 'call', 'call'),
  size: fc.oneof(fc.integer({ min: 30, max: 220 }), fc.integer({ min: 600, max: 1_100 })),
  secret: fc.constantFrom<Secret>('none', 'head', 'middle', 'tail'),
  small: fc.boolean(),
});

const startRun = restart.restartStore('rewritten', { recordKey: true });

/** A tool turn of `size` words with `secret` placed at its head, middle or tail. */
function secretTurn(id: string, size: number, secret: Secret, small: boolean, key: string) {
  const [call, result] = restart.toolTurn(id, size) as [ModelMessage, ModelMessage];
  const part = (result.content as { output: { value: string } }[])[0]!;
  const text = part.output.value;
  const middle = Math.floor(text.length / 2);
  part.output.value =
    secret === 'head'
      ? `token ${key}\n${text}`
      : secret === 'middle'
        ? `${text.slice(0, middle)} token ${key} ${text.slice(middle)}`
        : secret === 'tail'
          ? `${text}\ntoken ${key}`
          : text;
  if (small) {
    (call.content as unknown[]).push({
      type: 'tool-call',
      toolCallId: `${id}s`,
      toolName: 'env',
      input: {},
    });
    (result.content as unknown[]).push({
      type: 'tool-result',
      toolCallId: `${id}s`,
      toolName: 'env',
      output: { type: 'text', value: `GH=${key}` },
    });
  }
  return [call, result];
}

async function run(
  key: string,
  strategy: CompressionStrategy,
  steps: Step[],
  outcomes: Record<string, number>,
): Promise<void> {
  const { store, sessionId, make } = startRun(strategy);
  const count = (name: string) => restart.tally(outcomes, name);
  const history: ModelMessage[] = [
    { role: 'system', content: 'You are a git agent.' },
    { role: 'user', content: 'Set up the repository.' },
  ];
  let call = 0;
  let running: ContextManager = make();
  let rewroteSecret = false;
  const last: Step = { kind: 'call', size: 0, secret: 'none', small: false };
  for (const current of [...steps, last]) {
    switch (current.kind) {
      case 'ask':
        history.push({
          role: 'user',
          content: current.secret === 'none' ? 'Push the branch' : `Push the branch with ${key}`,
        });
        break;
      case 'tools':
        history.push(...secretTurn(`c${++call}`, current.size, current.secret, current.small, key));
        break;
      case 'restart':
        // The process that compacted goes away; the next one resumes from the store.
        await running.close();
        running = make();
        count('restart');
        break;
      case 'call': {
        let first: Awaited<ReturnType<ContextManager['prepare']>>;
        try {
          first = await running.prepare(history);
        } catch (error) {
          expect((error as { code?: unknown }).code).toBe('context_window_exceeded');
          count('too large');
          return;
        }
        if (!first.report.usedCompactedContext) break;
        const answers = await restart.answerAfterRestart(
          running,
          make,
          history,
          outcomes,
          'Pushed.',
        );
        if (answers === undefined) break;
        const { fresh, kept } = answers;
        const app = new Set(history.map((message) => JSON.stringify(message)));
        const rewritten = kept.messages.filter(
          (message) => message.role !== 'system' && !app.has(JSON.stringify(message)),
        );
        // Premise: a rewrite of an app message (not Baton's insert) that holds the token.
        if (rewritten.some((message) => message.role === 'tool')) count('rewritten tool message');
        if (rewritten.some((message) => JSON.stringify(message).includes(key))) {
          count('rewritten with a token');
          rewroteSecret = true;
        }
        expect(fresh.messages.map((m) => JSON.stringify(m))).toEqual(
          kept.messages.map((m) => JSON.stringify(m)),
        );
        break;
      }
    }
  }
  await running.close();
  if (rewroteSecret) count('runs rewriting a token');
  count('runs');
  const sessions = await store.listSessions({
    rootId: sessionId,
    includeEnded: true,
    limit: 1_000,
  });
  const stored = JSON.stringify(
    await Promise.all(sessions.map((session) => store.getMessages(session.id))),
  );
  expect(stored).not.toContain(key);
  expect(JSON.stringify(sessions.map((session) => session.metadata))).not.toContain(key);
}

describe('a restarted process sends the rewritten messages the compacting process sent', () => {
  const outcomes: Record<string, number> = {};
  it('masked and clipped tool outputs holding a token, for every strategy', async () => {
    await fc.assert(
      fc.asyncProperty(
        restart.githubToken,
        restart.anyStrategy,
        fc.noBias(fc.array(step, { minLength: 6, maxLength: 22 })),
        async (key, strategy, steps) => run(key, strategy, steps, outcomes),
      ),
      { numRuns: 30 },
    );
    console.info(`rewritten outcomes: ${JSON.stringify(outcomes)}`);
    expect(outcomes.compared ?? 0).toBeGreaterThan(10);
    // Premise: runs where a rewrite holding the token reached the comparison (0.64, sd 0.10
    // over 10 random seeds: bound at mean - 4 sd).
    expect((outcomes['runs rewriting a token'] ?? 0) / (outcomes.runs ?? 1)).toBeGreaterThan(0.24);
  }, 600_000);
});
