import type { LanguageModel } from 'ai';
import type { SummarizerFunction, SummarizerRequest } from './context-compressor-options.js';
import { SummarizerError } from './summarizer-error.js';
import {
  renderStructuredSummary,
  structuredSummaryInstruction,
  structuredSummarySchema,
} from './summary-prompt.js';

export type Summarizer = LanguageModel | SummarizerFunction;

export function summarizerName(summarizer: Summarizer, fallbackName: string): string {
  if (typeof summarizer === 'function') return fallbackName;
  if (typeof summarizer === 'string') return summarizer;
  return summarizer.modelId;
}

/**
 * Whether a model constrains its output to a JSON schema (it sets `supportsStructuredOutputs`, as
 * `@baton/local-model` does). Such a model is asked for a bounded JSON handoff: a small model then
 * has to close the object within its output cap instead of writing until it is cut.
 */
function constrainsToSchema(model: LanguageModel): boolean {
  return (
    typeof model === 'object' &&
    (model as { supportsStructuredOutputs?: unknown }).supportsStructuredOutputs === true
  );
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
  const structured = constrainsToSchema(model);
  let { instructions, messages } = request;
  const schema = structuredSummarySchema(request.targetTokens, request.maxOutputTokens);
  if (structured) {
    if (request.mode === 'delimited')
      instructions = `${instructions}\n${structuredSummaryInstruction(schema)}`;
    // Cache-friendly: the last message is the instruction message (its text is `prompt`).
    else
      messages = [
        ...messages.slice(0, -1),
        { role: 'user', content: `${request.prompt}\n${structuredSummaryInstruction(schema)}` },
      ];
  }
  const generation = ai.generateText({
    model,
    ...(request.mode === 'delimited'
      ? { instructions, messages }
      : { messages, allowSystemInMessages: true }),
    ...(structured
      ? {
          output: ai.Output.object({
            schema: ai.jsonSchema(schema),
          }),
        }
      : {}),
    maxOutputTokens: request.maxOutputTokens,
    abortSignal: request.abortSignal,
    // Retries are ours: bounded, with backoff, and counted in the event.
    maxRetries: 0,
  });
  let result: { text: string; finishReason: string };
  try {
    result = await generation;
  } catch (error) {
    // A reply that is not the object (cut at its cap) is verified as it is, and rejected there for
    // the stated reason.
    if (!structured || !ai.NoObjectGeneratedError.isInstance(error)) throw error;
    result = { text: error.text ?? '', finishReason: error.finishReason ?? 'other' };
  }
  const text = structured ? (renderStructuredSummary(result.text) ?? result.text) : result.text;
  return { text, finishReason: result.finishReason };
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
