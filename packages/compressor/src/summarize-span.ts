import { setTimeout as wait } from 'node:timers/promises';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { HandoffSections } from '@baton/fallback';
import { estimateTokens, type TokenCounter } from '@baton/tokens';
import { callSummarizer, type Summarizer } from './call-summarizer.js';
import type { SummaryDetail } from './context-compressor-options.js';
import { clipMiddle, renderHandoff } from './peer-api.js';
import { redactForSummary, redactWhole } from './redact-for-summary.js';
import { SummarizerError } from './summarizer-error.js';
import { cacheFriendlyPrompt, summaryInstructions, toolOutputChars } from './summary-prompt.js';
import {
  addStems,
  createRequestCounter,
  framePrompt,
  joinPrompt,
  knownSegment,
  SegmentBlocks,
  segmentText,
  type TranscriptSegment,
  transcriptSegment,
} from './transcript-segments.js';
import {
  extractSpanFacts,
  type SpanFacts,
  type SummaryVerification,
  verifySummary,
  WordStemScanner,
  wordStemsOf,
} from './verify-summary.js';

export interface SummarizeSpanOptions {
  summarizer: Summarizer;
  counter: TokenCounter;
  /** The span to summarise, with each message's index in the whole conversation. */
  span: ReadonlyArray<{
    message: ModelMessage;
    index: number;
    tokens: number;
    /** The pinned latest ask, sent flagged so work after it reads as done on it. */
    latestRequest?: boolean;
  }>;
  /** Text of an earlier Baton handoff found in the span (already excluded from `span`). */
  previousSummary: string | undefined;
  /** For cache-friendly mode: the conversation prefix that ends with the span, unchanged. */
  prefix: readonly ModelMessage[] | undefined;
  targetTokens: number;
  /**
   * A further check facts appended by the top-up must pass: the compressor's exact room beside the
   * verbatim parts. A reply may overshoot `targetTokens` by the tolerance, but the top-up never
   * takes the record past this. Default: only the tolerance applies.
   */
  fits?: (sections: HandoffSections) => boolean;
  inputBudget: number;
  detail: SummaryDetail;
  preserveTopics: readonly string[];
  maxAttempts: number;
  retryDelayMs: number;
  timeoutMs: number;
  /** `performance.now()` after which no attempt starts and no retry waits. */
  deadline: number;
  callerSignal: AbortSignal | undefined;
}

export interface SummarizeSpanResult {
  sections: HandoffSections;
  attempts: number;
  durationMs: number;
  /** The accepted reply checked against the whole span's facts (the last chunk's, when chunked). */
  verification: SummaryVerification;
}

/** What each reply is checked against: the whole span's facts, and whether to top it up. */
interface SpanCheck {
  facts: SpanFacts;
  stems: ReadonlySet<string>;
  topUp: boolean;
}

/** Summaries may overshoot their target a little; beyond this they count as too long. */
export const lengthTolerance = 1.2;
/** Room for the request's own wording around the data. */
const framingTokens = 64;
/**
 * Margin over the fitted estimate (mean error 6.6 %, at most ~10 % per category on the corpus of
 * `@baton/tokens`). Re-tokenising every serialised message exactly cost more than the rest of the
 * pipeline; a request whose bound comes near the budget is counted exactly before it is sent.
 */
const estimateMargin = 1.2;

/** Bound of an unclipped serialised message: its exact count, a margin for redaction marks, tags. */
const unclippedMargin = 1.05;
const tagTokens = 40;

/**
 * Token measure for packing: the fitted estimate (with margin) when the counter is an exact
 * tiktoken counter the estimate imitates; the counter itself otherwise (custom counters).
 */
function packingMeasure(counter: TokenCounter): (text: string) => number {
  if (!counter.exact || counter.encoding === 'heuristic') return (text) => counter.count(text);
  const encoding = counter.encoding;
  return (text) => Math.ceil(estimateTokens(text, { encoding }) * estimateMargin);
}

function deadlineError(lastError: SummarizerError | undefined): SummarizerError {
  return new SummarizerError({
    kind: 'timeout',
    message: `summarise stage deadline reached${lastError ? ` (last failure: ${lastError.kind}: ${lastError.message})` : ''}`,
    cause: lastError,
  });
}

class AttemptTracker {
  attempts = 0;
  durationMs = 0;
}

async function requestSections(
  options: SummarizeSpanOptions,
  request: {
    instructions: string;
    messages: ModelMessage[];
    prompt: string;
    mode: 'delimited' | 'cache-friendly';
    previousSummary: string | undefined;
    chunkIndex: number;
    chunkCount: number;
  },
  tracker: AttemptTracker,
  inputTokens: number,
  check: SpanCheck,
): Promise<{ sections: HandoffSections; verification: SummaryVerification }> {
  if (inputTokens > options.inputBudget) {
    // Never send what cannot fit.
    throw new SummarizerError({
      kind: 'input_too_large',
      message: `summariser request of ${inputTokens} tokens exceeds the input budget of ${options.inputBudget}`,
    });
  }
  let lastError: SummarizerError | undefined;
  for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
    // Only attempts actually sent are counted: an abort or a spent deadline stops before the call.
    if (options.callerSignal?.aborted) {
      throw new SummarizerError({ kind: 'aborted', message: 'summariser aborted by the caller' });
    }
    const remaining = options.deadline - performance.now();
    if (remaining <= 0) throw deadlineError(lastError);
    tracker.attempts++;
    const started = performance.now();
    const maxOutputTokens = Math.ceil(options.targetTokens * 1.5) + 64;
    try {
      const { text, finishReason } = await callSummarizer(
        options.summarizer,
        {
          ...request,
          targetTokens: options.targetTokens,
          maxOutputTokens,
          inputTokens,
          attempt,
        },
        {
          timeoutMs: Math.max(1, Math.min(options.timeoutMs, Math.ceil(remaining))),
          callerSignal: options.callerSignal,
        },
      );
      const trimmed = text.trim();
      if (trimmed === '') {
        throw new SummarizerError({
          kind: 'empty',
          message: 'summariser returned an empty summary',
        });
      }
      const length = options.counter.count(trimmed);
      const limit = options.targetTokens * lengthTolerance;
      const envelope = options.counter.count(renderHandoff({}));
      const { sections, verification } = verifySummary(trimmed, check.facts, check.stems, {
        // The model stopped at its output cap: the record is unfinished. (A function summariser
        // reports no finish reason; a reply past the cap is then too long, below.)
        truncated: finishReason === 'length',
        topUp: check.topUp,
        // Facts are appended only while the record stays within the length a reply may have.
        // The target is of the sections alone (the caller left room for the envelope), so the
        // rendered header and footer are not counted against it twice.
        fits: (candidate) =>
          options.counter.count(renderHandoff(candidate)) - envelope <= limit &&
          (options.fits?.(candidate) ?? true),
      });
      if (!sections) {
        const rejection = verification.rejection ?? 'empty';
        throw new SummarizerError({
          kind: rejection === 'empty' ? 'empty' : 'garbage',
          message: `summary rejected as ${rejection} (fact coverage ${Math.round(verification.factCoverage * 100)} %)`,
        });
      }
      if (length > limit) {
        throw new SummarizerError({
          kind: 'too_long',
          message: `summary of ${length} tokens exceeds its target of ${options.targetTokens}`,
        });
      }
      return { sections, verification };
    } catch (error) {
      lastError = SummarizerError.isInstance(error)
        ? error
        : new SummarizerError({ kind: 'error', message: String(error), cause: error });
      if (!lastError.retryable || attempt === options.maxAttempts) break;
      const delay = lastError.retryAfterMs ?? options.retryDelayMs * 2 ** (attempt - 1);
      // A wait (a provider's retry-after included) that would outlast the deadline is not waited.
      if (performance.now() + delay >= options.deadline) throw deadlineError(lastError);
      try {
        await wait(delay, undefined, { signal: options.callerSignal });
      } catch {
        // The only way the wait fails: the caller's signal fired.
        throw new SummarizerError({ kind: 'aborted', message: 'summariser aborted by the caller' });
      }
    } finally {
      tracker.durationMs += performance.now() - started;
    }
  }
  throw lastError!;
}

/**
 * The facts a summary of `span` is checked against, from its redacted, unclipped messages
 * (`redactWhole` of the span's messages); the pinned latest ask is not one: it stays verbatim
 * beside the summary.
 */
export function spanFacts(
  span: SummarizeSpanOptions['span'],
  whole: readonly ModelMessage[],
): SpanFacts {
  // A loop, not `flatMap`: that made an empty array per message of the span.
  const latest = new Set<number>();
  for (let position = 0; position < span.length; position++) {
    if (span[position]!.latestRequest === true) latest.add(position);
  }
  return extractSpanFacts(whole, latest);
}

/** What a span's replies are checked against, remembered for the span summarised again. */
interface SpanChecks {
  whole: readonly ModelMessage[];
  segments: readonly TranscriptSegment[];
  facts: SpanFacts;
  /** Stems of the transcript alone (a previous summary's are added per request). */
  stems: ReadonlySet<string>;
}

// By the span's last message: a span summarised again (the same history compacted by a second
// compressor, a retry with another budget, a background job redone) has the same redacted
// messages and the same memoised segments, so its facts and stems are the same; extracting them
// again walked every message of the span. Confirmed element by element (identity), so a span that
// starts elsewhere or holds other messages is a miss, never a wrong check.
const spanChecksMemo = new WeakMap<ModelMessage, SpanChecks>();

function spanChecks(
  span: SummarizeSpanOptions['span'],
  whole: readonly ModelMessage[],
  segments: readonly TranscriptSegment[],
  scanned: WordStemScanner | undefined,
): SpanChecks {
  const key = span.at(-1)?.message;
  const known = key === undefined ? undefined : spanChecksMemo.get(key);
  if (
    known !== undefined &&
    known.whole.length === whole.length &&
    known.whole.every((message, position) => message === whole[position]) &&
    known.segments.every((segment, position) => segment === segments[position])
  ) {
    return known;
  }
  const checks: SpanChecks = {
    whole,
    segments,
    facts: spanFacts(span, whole),
    stems: (scanned ?? scanSegments(segments)).stems,
  };
  if (key !== undefined) spanChecksMemo.set(key, checks);
  return checks;
}

function scanSegments(segments: readonly TranscriptSegment[]): WordStemScanner {
  const scanner = new WordStemScanner();
  for (let position = 0; position < segments.length; position++) {
    addStems(segments[position]!, scanner);
  }
  return scanner;
}

/**
 * The span's segments; when any is new, their words scanned on the way (in order), as the span's
 * checks are then new too. A span whose segments are all remembered is not scanned here: its
 * checks are usually remembered as well. With `inBlocks`, new segments are written into shared
 * blocks (see `SegmentBlocks`), which the requests then slice instead of serialising them again.
 */
function spanSegments(
  span: SummarizeSpanOptions['span'],
  redacted: readonly ModelMessage[],
  detail: SummaryDetail,
  inBlocks: boolean,
): {
  segments: TranscriptSegment[];
  scanned: WordStemScanner | undefined;
  blocks: SegmentBlocks | undefined;
} {
  const segments = new Array<TranscriptSegment>(redacted.length);
  let position = 0;
  for (; position < redacted.length; position++) {
    const entry = span[position]!;
    const known = knownSegment(
      redacted[position]!,
      entry.index,
      detail,
      entry.latestRequest === true,
    );
    if (known === undefined) break;
    segments[position] = known;
  }
  if (position === redacted.length) return { segments, scanned: undefined, blocks: undefined };
  const scanned = new WordStemScanner();
  for (let earlier = 0; earlier < position; earlier++) addStems(segments[earlier]!, scanned);
  if (!inBlocks) {
    for (; position < redacted.length; position++) {
      const entry = span[position]!;
      segments[position] = transcriptSegment(
        redacted[position]!,
        entry.index,
        detail,
        entry.latestRequest === true,
        scanned,
      );
    }
    return { segments, scanned, blocks: undefined };
  }
  const blocks = new SegmentBlocks(segments, scanned);
  for (; position < redacted.length; position++) {
    const entry = span[position]!;
    const message = redacted[position]!;
    const latestRequest = entry.latestRequest === true;
    const known = knownSegment(message, entry.index, detail, latestRequest);
    if (known !== undefined) {
      addStems(known, scanned);
      segments[position] = known;
    } else {
      blocks.write(position, message, entry.index, detail, latestRequest);
    }
  }
  blocks.finish();
  return { segments, scanned, blocks };
}

/**
 * Summarises a span: redacts it, sends it as delimited data (in chunks when it exceeds the input
 * budget, each chunk updating the summary of the previous ones), retries faults with backoff, and
 * returns the parsed sections. Throws `SummarizerError` when every attempt failed.
 */
export async function summarizeSpan(options: SummarizeSpanOptions): Promise<SummarizeSpanResult> {
  const tracker = new AttemptTracker();
  try {
    return await summarizeWith(options, tracker);
  } catch (error) {
    const failure = SummarizerError.isInstance(error)
      ? error
      : new SummarizerError({ kind: 'error', message: String(error), cause: error });
    failure.attempts = tracker.attempts;
    failure.durationMs = tracker.durationMs;
    throw failure;
  }
}

async function summarizeWith(
  options: SummarizeSpanOptions,
  tracker: AttemptTracker,
): Promise<SummarizeSpanResult> {
  const { counter } = options;
  const first = options.span[0]?.index ?? 0;
  const last = options.span.at(-1)?.index ?? first;
  const spanMessages = options.span.map((entry) => entry.message);
  // One redaction serves both: the facts come from the whole (unclipped) span, as the receipt
  // would see it; the transcript clips it.
  const whole = redactWhole(spanMessages);
  const redacted = redactForSummary(spanMessages, toolOutputChars[options.detail], whole);
  // Delimited requests slice the new segments' blocks; a cache-friendly request sends no
  // transcript, so its segments are only serialised (and scanned), not joined.
  const {
    segments: serialized,
    scanned,
    blocks,
  } = spanSegments(options.span, redacted, options.detail, options.prefix === undefined);
  const { facts, stems: transcriptStems } = spanChecks(options.span, whole, serialized, scanned);
  const stems =
    options.previousSummary === undefined || options.previousSummary === ''
      ? transcriptStems
      : new Set([...wordStemsOf([options.previousSummary]), ...transcriptStems]);

  if (options.prefix) {
    const instructions = summaryInstructions({
      detail: options.detail,
      preserveTopics: options.preserveTopics,
      targetTokens: options.targetTokens,
      hasPreviousSummary: false,
    });
    const prompt = cacheFriendlyPrompt(instructions, first, last);
    const messages: ModelMessage[] = [...options.prefix, { role: 'user', content: prompt }];
    const prefixTokens = counter.countMessages(messages);
    if (prefixTokens <= options.inputBudget) {
      const { sections, verification } = await requestSections(
        options,
        {
          instructions: '',
          messages,
          prompt,
          mode: 'cache-friendly',
          previousSummary: undefined,
          chunkIndex: 0,
          chunkCount: 1,
        },
        tracker,
        prefixTokens,
        { facts, stems, topUp: true },
      );
      return {
        sections,
        verification,
        attempts: tracker.attempts,
        durationMs: tracker.durationMs,
      };
    }
    // The prefix alone is over the input budget: fall through to chunked, delimited requests.
  }

  // An entry's unredacted message, whose count (already known) its line's count derives from.
  const countRequest = createRequestCounter(counter, (position) => options.span[position]?.message);
  const textOf = (segment: string | TranscriptSegment) =>
    typeof segment === 'string' ? segment : segmentText(segment);
  const instructionsFor = (hasPrevious: boolean, latestRequest = false) =>
    summaryInstructions({
      detail: options.detail,
      preserveTopics: options.preserveTopics,
      targetTokens: options.targetTokens,
      hasPreviousSummary: hasPrevious,
      latestRequest,
    });
  const measure = packingMeasure(counter);
  const instructionTokens = counter.count(instructionsFor(true, true));
  // A rolling previous summary may reach its tolerance; the original one is counted as it is.
  const previousAllowance = Math.max(
    Math.ceil(options.targetTokens * lengthTolerance) + framingTokens,
    options.previousSummary ? counter.count(options.previousSummary) + framingTokens : 0,
  );
  const capacity = options.inputBudget - instructionTokens - previousAllowance - framingTokens;
  if (capacity < 256) {
    throw new SummarizerError({
      kind: 'input_too_large',
      message: `summariser input budget ${options.inputBudget} leaves no room for data`,
    });
  }

  // First packing by estimate (cheap); every finished request is then counted exactly before it
  // is sent, and split or clipped further when the estimate was short.
  const chunks: Array<Array<string | TranscriptSegment>> = [];
  // The span position of each chunk's first entry: chunks cover the span in order, one position
  // per entry, so an entry's position is its chunk's first plus its place in the chunk.
  const firsts: number[] = [];
  let current: Array<string | TranscriptSegment> = [];
  let currentFirst = 0;
  let used = 0;
  for (let position = 0; position < serialized.length; position++) {
    const entry = serialized[position]!;
    // Read only when measured or cut: most segments go to their prompt as slices of their block.
    let text = entry.clipped ? segmentText(entry) : undefined;
    // An unclipped message is bounded by its own exact count plus the tags; only clipped ones
    // (whose count no longer applies) are measured.
    let tokens =
      text !== undefined
        ? measure(text) + 1
        : Math.ceil(options.span[position]!.tokens * unclippedMargin) + tagTokens;
    let cut: string | undefined;
    if (tokens > capacity) {
      text ??= segmentText(entry);
      // Clipping the middle keeps the message's opening and closing tags. The bound above may be
      // an overestimate: the clip measures the text itself and leaves it whole when it fits.
      const clipped = clipMiddle(text, capacity - 1, {
        counter: { count: measure },
        ...(entry.clipped ? { tokens: tokens - 1 } : {}),
      });
      if (clipped !== text) cut = clipped;
      tokens = measure(clipped) + 1;
    }
    if (used + tokens > capacity && current.length > 0) {
      chunks.push(current);
      firsts.push(currentFirst);
      current = [];
      used = 0;
    }
    if (current.length === 0) currentFirst = position;
    // Unclipped here: the segment itself, whose exact count is remembered with it.
    current.push(cut ?? entry);
    used += tokens;
  }
  if (current.length > 0 || chunks.length === 0) {
    chunks.push(current);
    firsts.push(currentFirst);
  }
  // `joinPrompt` of a chunk; from the blocks when its entries are new segments written there.
  const promptOf = (
    chunk: ReadonlyArray<string | TranscriptSegment>,
    first: number,
    previous: string | undefined,
  ) => {
    const transcript = blocks?.transcript(chunk, first);
    return transcript === undefined
      ? joinPrompt(chunk, previous)
      : framePrompt(transcript, previous);
  };

  let previous = options.previousSummary;
  let sections: HandoffSections = {};
  let verification: SummaryVerification | undefined;
  const latestRequest = options.span.some((entry) => entry.latestRequest === true);
  for (let chunkIndex = 0; chunkIndex < chunks.length; chunkIndex++) {
    const chunk = chunks[chunkIndex]!;
    const instructions = instructionsFor(previous !== undefined, latestRequest);
    // Joined before it is counted: a segment first sent here takes its line from the prompt.
    let prompt = promptOf(chunk, firsts[chunkIndex]!, previous);
    // Exact, as a recount of the request would give (see createRequestCounter).
    let inputTokens = countRequest(instructions, chunk, previous, prompt, firsts[chunkIndex]);
    while (inputTokens > options.inputBudget) {
      if (chunk.length > 1) {
        // Over budget: the second half becomes a chunk of its own, counted in its turn.
        const half = Math.ceil(chunk.length / 2);
        chunks.splice(chunkIndex + 1, 0, chunk.splice(half));
        firsts.splice(chunkIndex + 1, 0, firsts[chunkIndex]! + half);
      } else {
        const only = textOf(chunk[0] ?? '');
        const over = inputTokens - options.inputBudget;
        const onlyTokens = Math.max(1, counter.count(only));
        if (onlyTokens <= over + 16) {
          throw new SummarizerError({
            kind: 'input_too_large',
            message: `summariser request of ${inputTokens} tokens exceeds the input budget of ${options.inputBudget} even with its data clipped`,
          });
        }
        chunk[0] = clipMiddle(only, onlyTokens - over - 16, { counter, tokens: onlyTokens });
      }
      prompt = promptOf(chunk, firsts[chunkIndex]!, previous);
      inputTokens = countRequest(instructions, chunk, previous, prompt, firsts[chunkIndex]);
    }
    ({ sections, verification } = await requestSections(
      options,
      {
        instructions,
        messages: [{ role: 'user', content: prompt }],
        prompt,
        mode: 'delimited',
        previousSummary: previous,
        chunkIndex,
        chunkCount: chunks.length,
      },
      tracker,
      inputTokens,
      // Earlier chunks' records feed the next request; only the final record is topped up.
      { facts, stems, topUp: chunkIndex === chunks.length - 1 },
    ));
    previous = renderHandoff(sections);
  }
  return {
    sections,
    verification: verification!,
    attempts: tracker.attempts,
    durationMs: tracker.durationMs,
  };
}
