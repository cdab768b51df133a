import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { CountMessagesOptions } from '@baton/tokens';
import { CompactionNotEffectiveError } from './compaction-not-effective-error.js';
import type { ContextCompressor } from './context-compressor.js';
import type { CompactionState } from './create-session-tracker.js';
import { sameMessage } from './same-message.js';
import { SummarizerError } from './summarizer-error.js';
import type { CompressResult } from './types.js';

/** A compaction computed off the critical path, waiting for the trigger. */
export interface BackgroundCompaction {
  /** Raw messages it covers: the app's history when it started. */
  readonly coveredRaw: readonly ModelMessage[];
  /** The compaction it was built on (its input spliced it in); undefined when there was none. */
  readonly base: CompactionState | undefined;
  readonly controller: AbortController;
  /** Settles (never rejects) when the compressor is done. */
  readonly done: Promise<void>;
  outcome: { result: CompressResult<ModelMessage> } | { error: unknown } | undefined;
}

export interface StartBackgroundOptions {
  compressor: ContextCompressor;
  /** What would be sent now: the compressor's input. */
  input: ModelMessage[];
  raw: readonly ModelMessage[];
  base: CompactionState | undefined;
  /** Budget of the job, uncalibrated. */
  targetTokens: number;
  tools: CountMessagesOptions['tools'] | undefined;
}

/** Starts compressing `input` concurrently. The job writes nothing anywhere: the caller records it. */
export function startBackgroundCompaction(options: StartBackgroundOptions): BackgroundCompaction {
  const controller = new AbortController();
  const job: { -readonly [K in keyof BackgroundCompaction]: BackgroundCompaction[K] } = {
    coveredRaw: options.raw.slice(),
    base: options.base,
    controller,
    done: Promise.resolve(),
    outcome: undefined,
  };
  job.done = options.compressor
    // The app may push onto its history array while the job awaits the summariser: compress a copy.
    .compress(options.input.slice(), {
      targetTokens: Math.max(1, Math.floor(options.targetTokens)),
      abortSignal: controller.signal,
      ...(options.tools === undefined ? {} : { tools: options.tools }),
    })
    .then(
      (result) => {
        job.outcome = { result };
      },
      (error: unknown) => {
        job.outcome = { error };
      },
    );
  return job;
}

/**
 * Whether the job still describes the conversation: the compaction it built on is still the
 * current one and the app's history still starts with the raw messages it covered (system messages
 * aside: the current ones are spliced in when it is used).
 */
export function backgroundStillValid(
  job: BackgroundCompaction,
  current: CompactionState | undefined,
  raw: readonly ModelMessage[],
): boolean {
  if (job.base !== current || raw.length < job.coveredRaw.length) return false;
  const covered = job.coveredRaw;
  for (let index = 0; index < covered.length; index++) {
    const message = raw[index] as ModelMessage;
    if (message.role === 'system' && covered[index]?.role === 'system') continue;
    if (!sameMessage(message, covered[index])) return false;
  }
  return true;
}

/**
 * Summariser calls a discarded job cost: those its result reports, or one for a job aborted while
 * it ran (the call in flight) when a summariser was configured.
 */
export function discardBackground(job: BackgroundCompaction, hasSummarizer: boolean): number {
  const outcome = job.outcome;
  if (outcome === undefined) {
    job.controller.abort(new Error('the history changed under the background compaction'));
    return hasSummarizer ? 1 : 0;
  }
  if ('result' in outcome) return outcome.result.event.summarizerAttempts;
  if (CompactionNotEffectiveError.isInstance(outcome.error))
    return outcome.error.result.event.summarizerAttempts;
  // Aborted (by `close`) or failed without a receipt: the calls it made are still paid for.
  if (SummarizerError.isInstance(outcome.error)) return outcome.error.attempts;
  return 0;
}

/**
 * Waits until the job settled, unless `signal` aborts first: then rejects with its reason at once
 * (the job keeps running for the caller's next attempt).
 */
export async function waitForBackground(
  job: BackgroundCompaction,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal === undefined) return job.done;
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([job.done, aborted]);
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}
