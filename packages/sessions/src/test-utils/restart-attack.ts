import type { ModelMessage } from '@ai-sdk/provider-utils';
import {
  type CompactionStore,
  type CompressionStrategy,
  type ContextManager,
  createContextManager,
  type PreparedContext,
} from '@baton/compressor';
import fc from 'fast-check';
import { afterAll, beforeAll } from 'vitest';
import { createSessionStore, type SessionStore } from '../index.js';

/** Shared by the restart attack properties: tokens, a fixed summariser and a tool turn. */
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A GitHub token; credential-like: a shrunk `AAAA…A9xQ` is a placeholder the redactor leaves alone. */
export const githubToken: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...alnum), { minLength: 36, maxLength: 36 })
  .filter(
    (chars) =>
      Math.max(...[...new Set(chars)].map((c) => chars.filter((d) => d === c).length)) <= 9,
  )
  .map((chars) => `ghp_${chars.join('')}`);

export const fixedSummarizer = async (): Promise<string> =>
  '## Goal\nPush the branch.\n## Completed actions\n1. RAN bash — ok\n## Active state\nok\n## Remaining work\nPush';

/** A bash call and its result of `size` repeated words (plus `suffix`). */
export function toolTurn(id: string, size: number, suffix = ''): ModelMessage[] {
  return [
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: id, toolName: 'bash', input: { command: 'git log' } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: 'bash',
          output: { type: 'text', value: `commit ${id} `.repeat(size) + suffix },
        },
      ],
    },
  ];
}

/**
 * The context manager every restart attack builds: a small window so a few tool turns compact, a
 * fixed summariser, one attempt. Call it again with the same store and session id to restart.
 */
export function restartableManager(
  store: CompactionStore,
  sessionId: string,
  strategy: CompressionStrategy,
  recordKey?: Uint8Array,
): ContextManager {
  return createContextManager({
    contextWindow: 3_000,
    reservedOutputTokens: 300,
    strategy,
    store,
    sessionId,
    summarizer: fixedSummarizer,
    compressor: {
      maxAttempts: 1,
      retryDelayMs: 0,
      ...(recordKey === undefined ? {} : { recordKey }),
    },
  });
}

/** Counts one more `key` in `outcomes` (premises and rates the properties report). */
export function tally(outcomes: Record<string, number>, key: string): void {
  outcomes[key] = (outcomes[key] ?? 0) + 1;
}

/**
 * One store for a test file, opened before its tests and closed after them. Each call of the
 * returned function starts a run: a session id of its own (`prefix-<n>-<time>`, so the runs of a
 * property never share a lineage) and `make`, which starts a process on it (again: a restart).
 */
export function restartStore(
  prefix: string,
  { recordKey = false }: { recordKey?: boolean } = {},
): (strategy: CompressionStrategy) => {
  store: SessionStore;
  sessionId: string;
  make: () => ContextManager;
  /** A process on a session of its own with the same key: one that never saw this history. */
  makeFresh: () => ContextManager;
} {
  let opened: SessionStore | undefined;
  // One key for every process of the file, as an app keeps its record key across restarts.
  const key = recordKey ? crypto.getRandomValues(new Uint8Array(32)) : undefined;
  let serial = 0;
  beforeAll(async () => {
    opened = await createSessionStore();
  }, 180_000);
  afterAll(async () => {
    await opened?.close();
  });
  return (strategy) => {
    const store = opened;
    if (store === undefined) throw new Error('the store opens in beforeAll');
    const sessionId = `${prefix}-${++serial}-${Date.now()}`;
    return {
      store,
      sessionId,
      make: () => restartableManager(store, sessionId, strategy, key),
      makeFresh: () => restartableManager(store, `${sessionId}-fresh`, strategy, key),
    };
  };
}

/** Every compression strategy, for properties that must hold whichever the app picks. */
export const anyStrategy: fc.Arbitrary<CompressionStrategy> = fc.constantFrom<CompressionStrategy>(
  'auto',
  'mask',
  'summarize',
  'truncate',
);

/**
 * The next request after a compaction (the history plus a short reply) answered first by a fresh
 * process on the same store, then by `running`, the one that compacted (which holds the app's
 * messages in memory). Undefined, counted, when either compacts again instead.
 */
export async function answerAfterRestart(
  running: ContextManager,
  make: () => ContextManager,
  history: ModelMessage[],
  outcomes: Record<string, number>,
  reply: string,
): Promise<{ fresh: PreparedContext; kept: PreparedContext } | undefined> {
  history.push({ role: 'assistant', content: reply });
  const restarted = make();
  const fresh = await restarted.prepare(history);
  const kept = await running.prepare(history);
  await restarted.close();
  if (fresh.report.compacted || kept.report.compacted) {
    tally(outcomes, 'recompacted on restart');
    return undefined;
  }
  tally(outcomes, 'compared');
  return { fresh, kept };
}
