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
 * Attacks (reviewer) on background compaction: the caller giving up, or the manager closing, while
 * the step over the trigger waits for a job still summarising; a secret in the prefix a job covers.
 */

/**
 * Grows the loop (the summariser never answering) until a `prepare` does not return at once: the
 * step over the trigger, waiting for the background job. Returns that pending call.
 */
async function untilWaiting(
  manager: ContextManager,
  history: ModelMessage[],
  abortSignal?: AbortSignal,
): Promise<{ pending: Promise<PreparedContext>; isSettled: () => boolean }> {
  for (let index = 0; index < 40; index++) {
    history.push(...toolTurn('bash', stepOutput(history.length)));
    let settled = false;
    const pending = manager.prepare(history, abortSignal === undefined ? {} : { abortSignal });
    pending.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    await settle();
    if (!settled) return { pending, isSettled: () => settled };
    const prepared = await pending;
    expect(prepared.report.compacted).toBe(false);
  }
  throw new Error('no step waited for the background job');
}

describe('background compaction under attack', () => {
  it('a caller abort while the trigger waits for a running job rejects at once; the job is still used', async () => {
    const script = scriptedSummarizer();
    const manager = createContextManager(managerOptions(script.summarizer));
    const history: ModelMessage[] = [system, ask];
    const controller = new AbortController();
    const { pending, isSettled } = await untilWaiting(manager, history, controller.signal);
    expect(script.requests).toHaveLength(1);
    controller.abort();
    await settle();
    expect(isSettled()).toBe(true);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    // The job was not the caller's: it still runs, and the retried call swaps it in.
    expect(script.aborted).toBe(0);
    await script.release();
    const retried = await manager.prepare(history);
    expect(retried.report.compacted).toBe(true);
    expect(retried.event?.fromBackground).toBe(true);
    expect(retried.event?.backgroundWasted).toBe(0);
    expect(script.requests).toHaveLength(1);
    expect(validateToolPairs(retried.messages).valid).toBe(true);
    expect(retried.messages.at(-1)).toBe(history.at(-1));
  });

  it('close() while the trigger waits for the job: its aborted receipt is neither sent nor recorded', async () => {
    const script = scriptedSummarizer();
    const manager = createContextManager({
      ...managerOptions(script.summarizer),
      strategy: 'auto',
      compressor: { maxAttempts: 1 },
    });
    const history: ModelMessage[] = [system, ask];
    const { pending, isSettled } = await untilWaiting(manager, history);
    const closing = manager.close();
    // The waiting call compacts synchronously instead: answer its summariser calls.
    while (!isSettled()) await script.release();
    await closing;
    const prepared = await pending;
    expect(script.aborted).toBe(1);
    expect(prepared.report.compacted).toBe(true);
    expect(prepared.event?.fromBackground).toBe(false);
    expect(prepared.report.usedFallback).toBe(false);
    expect(prepared.report.fallbackReason ?? '').not.toMatch(/abort/i);
    expect(prepared.event?.backgroundWasted).toBe(1);
  });

  it('a secret in the prefix a job covers never reaches the summariser, the summary or the receipt', async () => {
    const secret = `sk-proj-${'Q7w9E2r4T6y8U1i3O5p7A9s2D4f6G8h1'}${Date.now().toString(36)}`;
    for (const fail of [false, true]) {
      const script = scriptedSummarizer({ fail });
      const manager = createContextManager({
        ...managerOptions(script.summarizer),
        strategy: 'auto',
        compressor: { maxAttempts: 1 },
      });
      const history: ModelMessage[] = [
        system,
        ask,
        ...toolTurn('bash', `export OPENAI_API_KEY=${secret}\n${stepOutput(0)}`),
      ];
      let compacted: PreparedContext | undefined;
      for (let index = 0; index < 40 && compacted === undefined; index++) {
        history.push(...toolTurn('bash', stepOutput(history.length)));
        const prepared = await manager.prepare(history);
        await script.release();
        if (prepared.report.compacted) compacted = prepared;
      }
      expect(compacted?.event?.fromBackground).toBe(true);
      expect(compacted?.report.usedFallback).toBe(fail);
      for (const request of script.requests) expect(JSON.stringify(request)).not.toContain(secret);
      expect(JSON.stringify(compacted?.messages)).not.toContain(secret);
      expect(JSON.stringify(compacted?.event)).not.toContain(secret);
    }
  });
  it('an app pushing onto the same history array while the job runs gets its snapshot summarised, no message twice', async () => {
    for (const lateSteps of [1, 2, 3]) {
      const script = scriptedSummarizer();
      const manager = createContextManager(managerOptions(script.summarizer));
      const history: ModelMessage[] = [system, ask];
      let compacted: PreparedContext | undefined;
      let startedAt = -1;
      for (let index = 0; index < 40 && compacted === undefined; index++) {
        history.push(...toolTurn('bash', stepOutput(history.length)));
        if (startedAt >= 0 && index - startedAt >= lateSteps) await script.release();
        const prepared = await manager.prepare(history);
        if (startedAt < 0 && script.requests.length > 0) startedAt = index;
        if (prepared.report.compacted) compacted = prepared;
      }
      expect(compacted?.event?.fromBackground).toBe(true);
      expect(script.requests).toHaveLength(1);
      const sent = compacted?.messages ?? [];
      expect(validateToolPairs(sent).valid).toBe(true);
      expect(new Set(sent).size).toBe(sent.length);
      const ids = sent.flatMap((message) =>
        Array.isArray(message.content)
          ? message.content.flatMap((part) => ('toolCallId' in part ? [part.toolCallId] : []))
          : [],
      );
      // Each id twice at most: its call and its result.
      expect(ids.length).toBe(new Set(ids).size * 2);
      expect(sent.at(-1)).toBe(history.at(-1));
    }
  });
});

describe('background compaction across many conversations', () => {
  it('a conversation the manager forgets (beyond its 256 most recent) has its job aborted, not left running', async () => {
    const script = scriptedSummarizer();
    const manager = createContextManager(managerOptions(script.summarizer));
    const conversations = 300;
    // One step past the soft threshold for each: a job each.
    const history: ModelMessage[] = [system, ask];
    while (history.length < 22) history.push(...toolTurn('bash', stepOutput(history.length)));
    for (let index = 0; index < conversations; index++) {
      const prepared = await manager.prepare(history, { sessionId: `conversation-${index}` });
      expect(prepared.report.compacted).toBe(false);
    }
    expect(script.requests).toHaveLength(conversations);
    await settle();
    // The forgotten conversations' summaries could never be used: their calls were aborted.
    expect(script.aborted).toBeGreaterThanOrEqual(conversations - 256);
    await manager.close();
    expect(script.aborted).toBe(conversations);
  });
});
