import type { LanguageModel } from 'ai';
import type { SummarizerFunction, SummarizerRequest } from './context-compressor-options.js';
import { SummarizerError } from './summarizer-error.js';

export type Summarizer = LanguageModel | SummarizerFunction;

export function summarizerName(summarizer: Summarizer, fallbackName: string): string {
  if (typeof summarizer === 'function') return fallbackName;
  if (typeof summarizer === 'string') return summarizer;
  return summarizer.modelId;
}

/**
 * One summariser call on an AI SDK model, as the compressor makes it (no SDK retries: the
 * compressor's own are bounded and counted). Exported for wrappers that also need the finish reason.
 */
export async function generateSummaryWithModel(
  model: LanguageModel,
  request: SummarizerRequest,
): Promise<{ text: string; finishReason: string }> {
  let ai: typeof import('ai');
  try {
    ai = await import('ai');
  } catch (cause) {
    throw new SummarizerError({
      kind: 'error',
      message: 'a LanguageModel summariser needs the optional peer dependency "ai"',
      cause,
    });
  }
  const result = await ai.generateText({
    model,
    ...(request.mode === 'delimited'
      ? { instructions: request.instructions, messages: request.messages }
      : { messages: request.messages, allowSystemInMessages: true }),
    maxOutputTokens: request.maxOutputTokens,
    abortSignal: request.abortSignal,
    // Retries are ours: bounded, with backoff, and counted in the event.
    maxRetries: 0,
  });
  return { text: result.text, finishReason: result.finishReason };
}

function retryAfterMs(error: Record<string, unknown>): number | undefined {
  const headers = error.responseHeaders;
  if (typeof headers !== 'object' || headers === null) return undefined;
  const value = (headers as Record<string, unknown>)['retry-after'];
  if (typeof value !== 'string') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function classify(
  error: unknown,
  callerSignal: AbortSignal | undefined,
  timedOut: boolean,
  timeoutMs: number,
): SummarizerError {
  if (callerSignal?.aborted) {
    return new SummarizerError({
      kind: 'aborted',
      message: 'summariser aborted by the caller',
      cause: error,
    });
  }
  if (timedOut) {
    return new SummarizerError({
      kind: 'timeout',
      message: `summariser timed out after ${timeoutMs} ms`,
      cause: error,
    });
  }
  if (SummarizerError.isInstance(error)) return error;
  if (typeof error === 'object' && error !== null) {
    const record = error as Record<string, unknown>;
    const status = record.statusCode ?? record.status;
    if (status === 429 || /rate.?limit|too many requests/i.test(describe(error))) {
      return new SummarizerError({
        kind: 'rate_limited',
        message: `summariser rate-limited: ${describe(error)}`,
        cause: error,
        retryAfterMs: retryAfterMs(record),
      });
    }
  }
  return new SummarizerError({
    kind: 'error',
    message: `summariser failed: ${describe(error)}`,
    cause: error,
  });
}

/**
 * One attempt: calls the summariser with a time limit and the caller's abort signal. A summariser that
 * ignores its signal is abandoned when the signal fires rather than awaited. The finish reason is
 * known for AI SDK models only (`length`: the reply stopped at its output cap).
 */
export async function callSummarizer(
  summarizer: Summarizer,
  request: Omit<SummarizerRequest, 'abortSignal'>,
  options: { timeoutMs: number; callerSignal: AbortSignal | undefined },
): Promise<{ text: string; finishReason: string | undefined }> {
  const timeout = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    timeout.abort(new SummarizerError({ kind: 'timeout', message: 'summariser timed out' }));
  }, options.timeoutMs);
  const signal = options.callerSignal
    ? AbortSignal.any([options.callerSignal, timeout.signal])
    : timeout.signal;
  let onAbort: (() => void) | undefined;
  try {
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => {});
    if (signal.aborted) throw signal.reason;
    const work: Promise<{ text: unknown; finishReason: string | undefined }> =
      typeof summarizer === 'function'
        ? Promise.resolve(summarizer({ ...request, abortSignal: signal })).then((text) => ({
            text,
            finishReason: undefined,
          }))
        : generateSummaryWithModel(summarizer, { ...request, abortSignal: signal });
    work.catch(() => {});
    const { text, finishReason } = await Promise.race([work, aborted]);
    if (typeof text !== 'string') {
      throw new SummarizerError({ kind: 'garbage', message: 'summariser returned a non-string' });
    }
    return { text, finishReason };
  } catch (error) {
    throw classify(error, options.callerSignal, timedOut, options.timeoutMs);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
