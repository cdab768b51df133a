import type { ModelMessage } from '@ai-sdk/provider-utils';
import { describe, expect, it } from 'vitest';
import {
  type ContextManager,
  createContextManager,
  type PreparedContext,
  validateToolPairs,
} from './index.js';
import { ask, managerOptions, stepOutput, system } from './test-utils/background-loop.js';
import { toolTurn } from './test-utils/history.js';
import { scriptedSummarizer, settle } from './test-utils/scripted-summarizer.js';

/**
 * Background compaction through the public API: a scripted summariser whose calls the test
 * releases, a tool loop that grows the history one round trip per step.
 */

function expectSound(prepared: PreparedContext): void {
  expect(validateToolPairs(prepared.messages).valid).toBe(true);
  expect(prepared.messages[0]).toEqual(system);
  expect(prepared.messages.filter((message) => message.role === 'user')).toContainEqual(ask);
}

/** A prepare whose summariser calls (a synchronous compaction's) are answered as soon as made. */
async function answered(
  manager: ContextManager,
  script: ReturnType<typeof scriptedSummarizer>,
  messages: ModelMessage[],
): Promise<PreparedContext> {
  let settled = false;
  const pending = manager.prepare(messages).finally(() => {
    settled = true;
  });
  while (!settled) await script.release();
  return pending;
}

/** Runs the loop until `until` holds for a prepared call (at most `limit` steps). */
async function runUntil(
  history: ModelMessage[],
  prepare: (messages: ModelMessage[]) => Promise<PreparedContext>,
  until: (prepared: PreparedContext) => boolean,
  limit = 40,
): Promise<PreparedContext> {
  for (let index = 0; index < limit; index++) {
    history.push(...toolTurn('bash', stepOutput(history.length)));
    const prepared = await prepare(history);
    expectSound(prepared);
    if (until(prepared)) return prepared;
  }
  throw new Error('condition never held');
}

describe('background compaction', () => {
  it('summarises past the soft threshold and swaps the result in at the trigger, without a new call', async () => {
    const script = scriptedSummarizer();
    const manager = createContextManager(managerOptions(script.summarizer));
    const history: ModelMessage[] = [system, ask];
    const prepare = (messages: ModelMessage[]) => manager.prepare(messages);
    // Under the trigger the job starts and prepare returns the history untouched.
    const started = await runUntil(history, prepare, () => script.requests.length > 0);
    expect(started.report.compacted).toBe(false);
    expect(started.report.inputTokens).toBeGreaterThan(1_400);
    expect(started.report.inputTokens).toBeLessThanOrEqual(2_000);
    await script.release();
    const compacted = await runUntil(history, prepare, (prepared) => prepared.report.compacted);
    expect(compacted.event?.fromBackground).toBe(true);
    expect(compacted.event?.backgroundWasted).toBe(0);
    // Exactly the background call: the step that compacted did not wait for a summariser.
    expect(script.requests).toHaveLength(1);
    expect(compacted.report.inputTokens).toBeLessThanOrEqual(2_000);
    // The messages after the job's snapshot follow its result verbatim.
    expect(compacted.messages.at(-1)).toBe(history.at(-1));
    expect(JSON.stringify(compacted.messages)).toContain('Summary number 1.');
    // The compaction is the conversation's context from now on.
    history.push(...toolTurn('bash', 'one more'));
    const next = await manager.prepare(history);
    expect(next.report.usedCompactedContext).toBe(true);
    expect(next.messages.length).toBeLessThan(history.length);
    expectSound(next);
  });

  it('throws a job away when the history it covered changes, counts the call, and compacts the new history', async () => {
    const script = scriptedSummarizer();
    const manager = createContextManager(managerOptions(script.summarizer));
    const history: ModelMessage[] = [system, ask];
    const prepare = (messages: ModelMessage[]) => manager.prepare(messages);
    await runUntil(history, prepare, () => script.requests.length > 0);
    // The app edits an early tool output (a regenerated step) while the summariser runs.
    const edited = history.slice();
    const [call, result] = toolTurn('bash', 'edited output, regenerated');
    edited.splice(2, 2, call as ModelMessage, result as ModelMessage);
    history.splice(0, history.length, ...edited);
    await manager.prepare(history);
    expect(script.aborted).toBe(1);
    // A new job covers the edited history; let every call answer from here on.
    const compacted = await runUntil(
      history,
      async (messages) => {
        const prepared = await prepare(messages);
        await script.release();
        return prepared;
      },
      (prepared) => prepared.report.compacted,
    );
    expect(compacted.event?.backgroundWasted).toBe(1);
    expect(JSON.stringify(compacted.messages)).not.toContain('Summary number 1.');
    // Never a summary of the old history: every request after the edit saw the edited output.
    for (const request of script.requests.slice(1)) {
      expect(JSON.stringify(request.messages)).not.toContain('step 2:');
    }
  });

  it('counts a finished job whose history changed as wasted, and never uses its summary', async () => {
    const script = scriptedSummarizer();
    const options = managerOptions(script.summarizer);
    // Steps add ~110 tokens: a 200-token band below the trigger is always stepped into.
    const manager = createContextManager({ ...options, backgroundThreshold: 0.9 });
    const history: ModelMessage[] = [system, ask];
    await runUntil(
      history,
      (messages) => manager.prepare(messages),
      () => script.requests.length > 0,
    );
    await script.release();
    history.splice(2, 2, ...toolTurn('bash', 'edited output'));
    // Answer the synchronous call as soon as it is made.
    const compacted = await runUntil(
      history,
      (messages) => answered(manager, script, messages),
      (prepared) => prepared.report.compacted,
    );
    expect(compacted.event?.backgroundWasted).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(compacted.messages)).not.toContain('Summary number 1.');
  });

  it('a prefix changed in the very request that crosses the trigger: the ready job is wasted, counted in the event, and the step compacts synchronously', async () => {
    for (const edit of [true, false]) {
      const script = scriptedSummarizer();
      const manager = createContextManager(managerOptions(script.summarizer));
      const history: ModelMessage[] = [system, ask];
      await runUntil(
        history,
        (messages) => manager.prepare(messages),
        () => script.requests.length > 0,
      );
      // The job's summary is ready before the trigger.
      await script.release();
      // The app regenerates an early step (or, the control, does not) and the loop jumps over the
      // trigger in the same request.
      if (edit) history.splice(2, 2, ...toolTurn('bash', 'edited output, regenerated'));
      for (let step = 0; step < 7; step++)
        history.push(...toolTurn('bash', stepOutput(100 + step)));
      const before = script.requests.length;
      const compacted = await answered(manager, script, history);
      expectSound(compacted);
      expect(compacted.report.compacted, `edit: ${edit}`).toBe(true);
      expect(compacted.event?.fromBackground, `edit: ${edit}`).toBe(!edit);
      expect(compacted.event?.backgroundWasted, `edit: ${edit}`).toBe(edit ? 1 : 0);
      // The edited request waited for a summary of its own; the control used the job's.
      expect(script.requests.length > before, `edit: ${edit}`).toBe(edit);
      expect(JSON.stringify(compacted.messages).includes('Summary number 1.')).toBe(!edit);
      for (const request of script.requests.slice(before)) {
        expect(JSON.stringify(request.messages)).not.toContain('step 2:');
      }
    }
  });

  it('close() aborts a running job; the trigger then compacts synchronously', async () => {
    const script = scriptedSummarizer();
    const manager = createContextManager(managerOptions(script.summarizer));
    const history: ModelMessage[] = [system, ask];
    await runUntil(
      history,
      (messages) => manager.prepare(messages),
      () => script.requests.length > 0,
    );
    await manager.close();
    expect(script.aborted).toBe(1);
    const compacted = await runUntil(
      history,
      (messages) => answered(manager, script, messages),
      (prepared) => prepared.report.compacted,
    );
    expect(compacted.event?.fromBackground).toBe(false);
    // No job started after close: the one aborted call and the synchronous one.
    expect(script.requests).toHaveLength(2);
  });

  it('a summariser failing in the background gives the receipt at the trigger, reported as a fallback', async () => {
    const script = scriptedSummarizer({ fail: true });
    const manager = createContextManager({
      ...managerOptions(script.summarizer),
      strategy: 'auto',
      compressor: { maxAttempts: 1 },
    });
    const history: ModelMessage[] = [system, ask];
    const prepare = async (messages: ModelMessage[]) => {
      const prepared = await manager.prepare(messages);
      await script.release();
      return prepared;
    };
    const compacted = await runUntil(history, prepare, (prepared) => prepared.report.compacted);
    expect(compacted.event?.fromBackground).toBe(true);
    expect(compacted.report.usedFallback).toBe(true);
    expect(compacted.report.fallbackReason).toEqual(expect.any(String));
    expect(compacted.report.strategy).toBe('receipt');
    const calls = script.requests.length;
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(compacted.event?.summarizerAttempts).toBe(calls);
  });

  it('without background (the default) the step over the trigger waits for the summariser', async () => {
    const script = scriptedSummarizer();
    const { background: _background, ...options } = managerOptions(script.summarizer);
    const manager = createContextManager(options);
    const history: ModelMessage[] = [system, ask];
    let compactedAt = -1;
    for (let index = 0; index < 40 && compactedAt < 0; index++) {
      history.push(...toolTurn('bash', stepOutput(index)));
      const before = script.requests.length;
      const pending = manager.prepare(history);
      await settle();
      const calledNow = script.requests.length > before;
      await script.release();
      const prepared = await pending;
      if (prepared.report.compacted) {
        expect(calledNow).toBe(true);
        expect(prepared.event?.fromBackground).toBe(false);
        compactedAt = index;
      } else expect(calledNow).toBe(false);
    }
    expect(compactedAt).toBeGreaterThan(0);
  });

  it('rejects a background threshold outside (0, 1)', () => {
    for (const backgroundThreshold of [0, 1, 1.5, Number.NaN]) {
      expect(() => createContextManager({ background: true, backgroundThreshold })).toThrow(
        /backgroundThreshold/,
      );
    }
  });
});
