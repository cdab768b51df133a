import type { ModelMessage } from '@ai-sdk/provider-utils';
import { HANDOFF_HEADER, type HandoffSections } from '@baton/fallback';
import {
  type CountMessagesOptions,
  defaultTokenCounter,
  describeValue,
  InvalidInputError,
  type TokenCounter,
} from '@baton/tokens';
import { analyzeMessages, type MessageAnalysis } from './analyze-messages.js';
import {
  type BatonInsertKind,
  createInsert,
  insertBody,
  insertTagSample,
  isBatonInsert,
  resolveRecordKey,
} from './baton-insert.js';
import { type Summarizer, summarizerName } from './call-summarizer.js';
import { CompactionNotEffectiveError } from './compaction-not-effective-error.js';
import { ContextBudgetError } from './context-budget-error.js';
import type {
  CompressOptions,
  ContextCompressorOptions,
  SummaryDetail,
} from './context-compressor-options.js';
import { latestAskIndex } from './latest-ask-index.js';
import { maskToolCallInputs, maskToolMessage } from './mask-tool-message.js';
import { createReceipt, redactSecrets, renderHandoff } from './peer-api.js';
import { storableText } from './storable-text.js';
import { lengthTolerance, summarizeSpan } from './summarize-span.js';
import { SummarizerError } from './summarizer-error.js';
import type {
  AppliedStrategy,
  CompactionEvent,
  CompressionStrategy,
  CompressMode,
  CompressResult,
  UnchangedReason,
} from './types.js';
import { validateMessages } from './validate-messages.js';
import type { SpanFacts, SummaryVerification } from './verify-summary.js';

const strategies: readonly CompressionStrategy[] = [
  'auto',
  'truncate',
  'mask',
  'summarize',
  'receipt',
];
const details: readonly SummaryDetail[] = ['brief', 'concise', 'detailed'];
/** Below this many tokens a handoff cannot say anything useful (and `createReceipt` refuses). */
const minimumHandoffTokens = 120;

interface Layout {
  headEnd: number;
  /**
   * The first exchange did not fit with the smallest tail, so it joined the middle: the head is only
   * the leading system messages.
   */
  headDemoted: boolean;
  /**
   * Smallest tail: the latest assistant reply with its results or trailing calls; when the user has
   * spoken since, the unanswered asks and what follows them.
   */
  minTailStart: number;
  tailStart: number;
  pinnedIndex: number | undefined;
  /** The latest user message when it sits between the head and the smallest tail (kept either way). */
  askIndex: number | undefined;
}

interface MaskPlan {
  /** The layout with the tail sized for a masked middle (no pinned ask: masking removes nothing). */
  layout: Layout;
  /** By offset from the head's end: the masked form of each message masking changes. */
  replacements: Array<ModelMessage | undefined>;
  /** By offset from the head's end: each message's tokens once masked (in full if unchanged). */
  maskedCounts: number[];
  /** Whether the smallest tail with everything in front of it masked fits the target. */
  feasible: boolean;
}

interface CallContext {
  messages: readonly ModelMessage[];
  analysis: MessageAnalysis;
  /** inserts[i]: messages[i] is Baton's own insert from an earlier pass (never the user's ask). */
  inserts: boolean[];
  counts: number[];
  /** suffix[i]: tokens of messages i..n-1. */
  suffix: number[];
  /**
   * systemPrefix[i]: tokens of the system messages among 0..i-1. A system message after the head
   * (rotated credentials, a mode switch) is kept verbatim wherever the middle is cut.
   */
  systemPrefix: number[];
  baseTokens: number;
  /** `budget`: the result must fit `targetTokens`. `protect`: no budget (`targetTokens` is infinite). */
  mode: CompressMode;
  targetTokens: number;
  tools: CountMessagesOptions['tools'];
  counter: TokenCounter;
  callerSignal: AbortSignal | undefined;
  started: number;
  tokensBefore: number;
  /** `#smallestInsertTokens`, once computed. */
  smallestInsert?: number;
}

interface StageOutcome {
  strategy: AppliedStrategy;
  messages: ModelMessage[];
  summary: string | undefined;
  removed: number[];
  masked: number[];
  layout: Layout;
  tokensAfter: number;
  summarizerModel?: string;
  summarizerAttempts?: number;
  summarizerDurationMs?: number;
  /** Set when `messages` is the input unchanged. */
  unchangedReason?: UnchangedReason;
  verification?: SummaryVerification;
}

function textOf(message: ModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

const minimumRecordKeyBytes = 16;

function checkNumber(value: number, path: string, minimum: number): void {
  if (!Number.isFinite(value) || value < minimum) {
    throw new InvalidInputError({
      path,
      message: `must be a finite number >= ${minimum}, got ${describeValue(value)}`,
    });
  }
}

/**
 * Compacts a conversation that is over budget: keeps the head and the tail verbatim and compresses
 * the middle by masking old tool outputs, summarising with an LLM, or writing a deterministic receipt,
 * without ever splitting a tool call from its result. `compress` never mutates its input.
 */
export class ContextCompressor {
  readonly #options: ContextCompressorOptions;
  readonly #recordKey: Uint8Array;
  #counter: TokenCounter | undefined;

  constructor(options: ContextCompressorOptions = {}) {
    if (options.strategy !== undefined && !strategies.includes(options.strategy)) {
      throw new InvalidInputError({
        path: 'strategy',
        message: `unknown strategy (${describeValue(options.strategy)}); expected ${strategies.join(', ')}`,
      });
    }
    if (options.detail !== undefined && !details.includes(options.detail)) {
      throw new InvalidInputError({
        path: 'detail',
        message: `unknown detail (${describeValue(options.detail)}); expected ${details.join(', ')}`,
      });
    }
    if (options.protectLastNTokens !== undefined)
      checkNumber(options.protectLastNTokens, 'protectLastNTokens', 0);
    if (options.protectFirstN !== undefined) checkNumber(options.protectFirstN, 'protectFirstN', 0);
    if (options.summaryTargetTokens !== undefined)
      checkNumber(options.summaryTargetTokens, 'summaryTargetTokens', 1);
    if (options.maxAttempts !== undefined) checkNumber(options.maxAttempts, 'maxAttempts', 1);
    if (options.timeoutMs !== undefined) checkNumber(options.timeoutMs, 'timeoutMs', 1);
    if (options.retryDelayMs !== undefined) checkNumber(options.retryDelayMs, 'retryDelayMs', 0);
    if (options.summarizerInputBudget !== undefined)
      checkNumber(options.summarizerInputBudget, 'summarizerInputBudget', 1);
    if (options.deadlineMs !== undefined) checkNumber(options.deadlineMs, 'deadlineMs', 1);
    if (options.minimumSavingsRatio !== undefined)
      checkNumber(options.minimumSavingsRatio, 'minimumSavingsRatio', 0);
    this.#options = { ...options };
    this.#recordKey = resolveRecordKey(options.recordKey);
    // A short key can be guessed, and then anyone can write a record that verifies. The message
    // never shows the key.
    if (options.recordKey !== undefined && this.#recordKey.length < minimumRecordKeyBytes) {
      throw new InvalidInputError({
        path: 'recordKey',
        message: `must be a string or Uint8Array of at least ${minimumRecordKeyBytes} bytes`,
      });
    }
    const recallTool = options.recall?.toolName;
    // The name goes into the insert text verbatim: only what a tool name can be.
    if (options.recall !== undefined && !/^[a-zA-Z0-9_-]{1,64}$/.test(String(recallTool))) {
      throw new InvalidInputError({
        path: 'recall.toolName',
        message: 'must be 1 to 64 letters, digits, _ or -',
      });
    }
    this.#counter = options.counter;
  }

  /** The counter in use (created on first use when none was given). */
  get counter(): TokenCounter {
    this.#counter ??= defaultTokenCounter();
    return this.#counter;
  }

  /**
   * Budget mode (`targetTokens` given): the result fits `targetTokens`. Protect mode (no
   * `targetTokens`, e.g. `compress(messages)`): the head and the last `protectLastNTokens` stay
   * verbatim and the whole middle becomes one handoff of at most `summaryTargetTokens`; a history
   * with nothing to compress comes back unchanged (`unchangedReason: 'too-short'`).
   */
  async compress(
    input: readonly ModelMessage[],
    options: CompressOptions = {},
  ): Promise<CompressResult<ModelMessage>> {
    const started = performance.now();
    // The messages as they are now: the caller may change its array while the summariser runs (an
    // app appending the next message), and a result must hold only what was counted and seen.
    const messages: readonly ModelMessage[] = Array.isArray(input) ? input.slice() : input;
    validateMessages(messages);
    if (typeof options !== 'object' || options === null) {
      throw new InvalidInputError({
        path: 'options',
        message: `expected an options object or nothing, got ${describeValue(options)}`,
      });
    }
    const mode: CompressMode = options.targetTokens === undefined ? 'protect' : 'budget';
    if (options.targetTokens !== undefined) checkNumber(options.targetTokens, 'targetTokens', 1);
    const strategy = options.strategy ?? this.#options.strategy ?? 'auto';
    if (!strategies.includes(strategy)) {
      throw new InvalidInputError({
        path: 'strategy',
        message: `unknown strategy (${describeValue(strategy)}); expected ${strategies.join(', ')}`,
      });
    }
    if (strategy === 'summarize' && !this.#options.summarizer) {
      throw new InvalidInputError({
        path: 'summarizer',
        message: 'the "summarize" strategy needs a summarizer (a LanguageModel or a function)',
      });
    }

    const counter = this.counter;
    const counts = messages.map((message) => counter.countMessage(message));
    const suffix = new Array<number>(messages.length + 1);
    suffix[messages.length] = 0;
    for (let index = messages.length - 1; index >= 0; index--) {
      suffix[index] = suffix[index + 1]! + counts[index]!;
    }
    const systemPrefix = new Array<number>(messages.length + 1);
    systemPrefix[0] = 0;
    for (let index = 0; index < messages.length; index++) {
      systemPrefix[index + 1] =
        systemPrefix[index]! + (messages[index]!.role === 'system' ? counts[index]! : 0);
    }
    const baseTokens = counter.countMessages([], { tools: options.tools });
    // Either signal aborts the call; one alone is passed as it is (no dependent signal to keep).
    const signals = [this.#options.abortSignal, options.abortSignal].filter(
      (signal) => signal !== undefined,
    );
    const context: CallContext = {
      messages,
      analysis: analyzeMessages(messages),
      inserts: messages.map((_, index) => isBatonInsert(messages, index, this.#recordKey)),
      counts,
      suffix,
      systemPrefix,
      baseTokens,
      mode,
      // Protect mode has no budget: every budget check passes, and the tail is bounded by
      // `protectLastNTokens` alone.
      targetTokens:
        options.targetTokens === undefined
          ? Number.POSITIVE_INFINITY
          : Math.floor(options.targetTokens),
      tools: options.tools,
      counter,
      callerSignal: signals.length <= 1 ? signals[0] : AbortSignal.any(signals),
      started,
      tokensBefore: baseTokens + suffix[0]!,
    };

    if (mode === 'protect') return this.#protect(context, strategy);
    if (context.tokensBefore <= context.targetTokens) {
      return this.#unchanged(context, 'within-budget');
    }

    switch (strategy) {
      case 'truncate':
        return this.#explicit(context, this.#truncate(context));
      case 'mask':
        return this.#explicit(context, this.#mask(context));
      case 'receipt':
        return this.#explicit(context, this.#receipt(context));
      case 'summarize': {
        const outcome = await this.#summarizeOrReceipt(context);
        return this.#explicit(context, outcome.outcome, outcome.stages, outcome.fallbackReason);
      }
      default:
        return this.#auto(context);
    }
  }

  #unchanged(context: CallContext, reason: UnchangedReason): CompressResult<ModelMessage> {
    const layout = this.#layout(context, 0);
    return this.#finish(
      context,
      {
        strategy: 'none',
        messages: [...context.messages],
        summary: undefined,
        removed: [],
        masked: [],
        layout: { ...layout, tailStart: layout.headEnd },
        tokensAfter: context.tokensBefore,
        unchangedReason: reason,
      },
      [],
      undefined,
    );
  }

  /**
   * Protect mode: head and protected tail verbatim, the middle compressed whole by `strategy`
   * (`auto`: the summariser, else the receipt). Returns the input unchanged when nothing new lies
   * between them, when a handoff could not save anything, or when the result would not be
   * shorter.
   */
  async #protect(
    context: CallContext,
    strategy: CompressionStrategy,
  ): Promise<CompressResult<ModelMessage>> {
    const layout = this.#layout(context, 0);
    const summaryTarget = this.#options.summaryTargetTokens ?? 750;
    let removedTokens = 0;
    let news = false;
    for (let index = layout.headEnd; index < layout.tailStart; index++) {
      if (index === layout.pinnedIndex || context.messages[index]!.role === 'system') continue;
      removedTokens += context.counts[index]!;
      // An earlier insert alone is not worth a new handoff: it would only be rewritten.
      if (!context.inserts[index]) news = true;
    }
    const handoff = strategy !== 'truncate' && strategy !== 'mask';
    if (!news || (handoff && removedTokens <= summaryTarget)) {
      return this.#unchanged(context, 'too-short');
    }
    let outcome: StageOutcome;
    let stages: AppliedStrategy[];
    let fallbackReason: string | undefined;
    if (strategy === 'truncate' || strategy === 'mask' || strategy === 'receipt') {
      outcome =
        strategy === 'truncate'
          ? this.#truncate(context)
          : strategy === 'mask'
            ? this.#mask(context)
            : this.#receipt(context);
      stages = [strategy];
    } else {
      ({ outcome, stages, fallbackReason } = await this.#summarizeOrReceipt(context));
    }
    if (outcome.tokensAfter >= context.tokensBefore) return this.#unchanged(context, 'too-short');
    return this.#finish(context, outcome, stages, fallbackReason);
  }

  #explicit(
    context: CallContext,
    outcome: StageOutcome,
    stages: AppliedStrategy[] = [outcome.strategy],
    fallbackReason?: string,
  ): CompressResult<ModelMessage> {
    const result = this.#finish(context, outcome, stages, fallbackReason);
    if (!this.#effective(context, outcome)) {
      throw new CompactionNotEffectiveError({ targetTokens: context.targetTokens, result });
    }
    return result;
  }

  #effective(context: CallContext, outcome: StageOutcome): boolean {
    const ratio = this.#options.minimumSavingsRatio ?? 0.1;
    return context.tokensBefore - outcome.tokensAfter >= ratio * context.tokensBefore;
  }

  async #auto(context: CallContext): Promise<CompressResult<ModelMessage>> {
    // Only stages that ran are listed: masking is skipped when, with the smallest tail and every
    // output in front of it masked, it still could not fit (or the verbatim parts alone do not).
    const ran: AppliedStrategy[] = [];
    const layout = this.#pickLayout(context, 0, 0);
    if (this.#fits(context, layout, 0)) {
      const plan = this.#maskPlan(context, layout);
      if (plan.feasible) {
        ran.push('mask');
        const masked = this.#applyMask(context, plan);
        if (masked.tokensAfter <= context.targetTokens && this.#effective(context, masked)) {
          return this.#finish(context, masked, ran, undefined);
        }
      }
    }
    const { outcome, stages, fallbackReason } = await this.#summarizeOrReceipt(context);
    return this.#explicit(context, outcome, [...ran, ...stages], fallbackReason);
  }

  async #summarizeOrReceipt(context: CallContext): Promise<{
    outcome: StageOutcome;
    /** The stages that ran: no `summarize` without a summariser. */
    stages: AppliedStrategy[];
    fallbackReason: string | undefined;
  }> {
    const summarizer = this.#options.summarizer;
    if (!summarizer) {
      return {
        outcome: this.#receipt(context),
        stages: ['receipt'],
        fallbackReason: 'no summarizer configured',
      };
    }
    try {
      return {
        outcome: await this.#summarize(context, summarizer),
        stages: ['summarize'],
        fallbackReason: undefined,
      };
    } catch (error) {
      if (!SummarizerError.isInstance(error)) throw error;
      const outcome = this.#receipt(context);
      outcome.summarizerModel = summarizerName(
        summarizer,
        this.#options.summarizerName ?? 'custom',
      );
      outcome.summarizerAttempts = error.attempts;
      outcome.summarizerDurationMs = error.durationMs;
      return {
        outcome,
        stages: ['summarize', 'receipt'],
        // SummarizerError redacts its message; redacted again here for errors a custom summariser
        // built by subclassing or mutating.
        fallbackReason: storableText(redactSecrets(`${error.kind}: ${error.message}`).text),
      };
    }
  }

  /**
   * The layout with the normal head when the head, the protected minimum and `insertTokens` fit the
   * budget; otherwise the layout whose head is only the leading system messages (the first exchange
   * then joins the middle). Does not check that the demoted layout fits: `#assertFits` does.
   */
  #pickLayout(context: CallContext, reserveTokens: number, insertTokens: number): Layout {
    const normal = this.#layout(context, reserveTokens, false);
    if (this.#fits(context, normal, insertTokens)) return normal;
    const demoted = this.#layout(context, reserveTokens, true);
    return demoted.headEnd < normal.headEnd ? demoted : normal;
  }

  #fits(context: CallContext, layout: Layout, insertTokens: number): boolean {
    const { head, kept } = this.#protectedTokens(context, layout);
    return context.baseTokens + head + kept + insertTokens <= context.targetTokens;
  }

  /** Head, smallest tail, chosen tail and pinned ask for a given reserve (tokens kept for the insert). */
  #layout(context: CallContext, reserveTokens: number, demoteHead = false): Layout {
    const { messages, analysis, counts, suffix, targetTokens, inserts } = context;
    const isAsk = (index: number) => messages[index]!.role === 'user' && !inserts[index];
    const n = messages.length;
    const allowed = analysis.cutAllowed;
    const snapForward = (index: number) => {
      let cut = Math.min(index, n);
      while (!allowed[cut]) cut++;
      return cut;
    };
    const snapBackward = (index: number, floor: number) => {
      let cut = index;
      while (cut > floor && !allowed[cut]) cut--;
      return cut;
    };

    let lead = 0;
    while (lead < n && messages[lead]!.role === 'system') lead++;
    let headEnd: number;
    if (demoteHead) {
      headEnd = snapForward(lead);
    } else if (this.#options.protectFirstN !== undefined) {
      headEnd = snapForward(Math.max(lead, Math.floor(this.#options.protectFirstN)));
    } else {
      let firstUser = lead;
      while (firstUser < n && messages[firstUser]!.role !== 'user') firstUser++;
      // An insert first: an earlier pass demoted the first exchange, so the head stays the system
      // messages rather than taking that old record for the task.
      if (firstUser >= n || inserts[firstUser]) {
        headEnd = snapForward(lead);
      } else {
        headEnd = snapForward(firstUser + 1);
        const reply = messages[headEnd];
        if (reply?.role === 'assistant') {
          const replyEnd = snapForward(headEnd + 1);
          const replyTokens = suffix[headEnd]! - suffix[replyEnd]!;
          // A plain reply frames the task; a tool call would pin its (often huge) results forever.
          // Protect mode has no budget to take a share of: the share is of the protected tail.
          const reference =
            context.mode === 'protect'
              ? (this.#options.protectLastNTokens ?? 20_000)
              : targetTokens;
          if (analysis.facts[headEnd]!.callIds.length === 0 || replyTokens <= 0.1 * reference) {
            headEnd = replyEnd;
          }
        }
      }
    }

    let lastAssistant = n - 1;
    while (lastAssistant >= headEnd && messages[lastAssistant]!.role !== 'assistant')
      lastAssistant--;
    const latestUser = latestAskIndex(messages, inserts, headEnd);
    const headTokens = context.suffix[0]! - suffix[headEnd]!;
    let minTailStart = lastAssistant >= headEnd ? snapBackward(lastAssistant, headEnd) : n;
    if (latestUser >= headEnd && latestUser > lastAssistant) {
      // The user spoke after the assistant's last step (or, past the head, the assistant has not
      // spoken at all): the latest turn starts at the first ask the assistant has not answered. A
      // finished tool round trip before it is older history, or one big result there (a file read,
      // then "what is 2+2?") would have to stay verbatim forever.
      let firstUnanswered = Math.max(lastAssistant + 1, headEnd);
      while (!isAsk(firstUnanswered)) firstUnanswered++;
      minTailStart = snapBackward(firstUnanswered, headEnd);
      // A run of asks the assistant has not answered (queued messages, pasted files, replies that
      // failed) that cannot stay whole beside the head and the smallest insert: the earlier ones are
      // middle material, and the smallest tail starts at the latest one. The tail scan below then
      // takes back as many of them as the room allows, latest first.
      const insertRoom = Math.max(reserveTokens, this.#smallestInsertTokens(context));
      const needs = (cut: number) =>
        context.baseTokens +
        headTokens +
        suffix[cut]! +
        this.#systemTokens(context, headEnd, cut) +
        insertRoom;
      if (needs(minTailStart) > targetTokens) {
        let cut = minTailStart + 1;
        while (cut < latestUser && (!allowed[cut] || needs(cut) > targetTokens)) cut++;
        minTailStart = snapBackward(Math.min(cut, latestUser), headEnd);
      }
    }
    // Trailing messages that cannot start a tail (e.g. orphan tool results) stay with the tail.
    minTailStart = snapBackward(minTailStart, headEnd);

    let pinnedIndex: number | undefined;
    if (latestUser >= headEnd && latestUser < minTailStart) {
      if (allowed[latestUser] && allowed[latestUser + 1]) pinnedIndex = latestUser;
      else minTailStart = snapBackward(latestUser, headEnd);
    }

    const pinnedTokens = pinnedIndex === undefined ? 0 : counts[pinnedIndex]!;
    const protectLast = this.#options.protectLastNTokens ?? 20_000;
    const room = targetTokens - context.baseTokens - headTokens - pinnedTokens - reserveTokens;
    let tailStart = minTailStart;
    for (let cut = minTailStart - 1; cut >= headEnd; cut--) {
      // The tail from `cut` plus the system messages kept from the middle before it; the sum only
      // grows as the cut moves earlier, so the first cut that fails ends the scan.
      if (suffix[cut]! > protectLast) break;
      if (suffix[cut]! + this.#systemTokens(context, headEnd, cut) > room) break;
      if (allowed[cut]) tailStart = cut;
    }
    const askIndex = pinnedIndex;
    if (pinnedIndex !== undefined && pinnedIndex >= tailStart) pinnedIndex = undefined;
    return { headEnd, headDemoted: demoteHead, minTailStart, tailStart, pinnedIndex, askIndex };
  }

  /**
   * Tokens of the smallest handoff with its record line and the notes it may carry (after the
   * pinned ask, recall), counted with wide indexes so the room covers any layout: what the verbatim
   * parts must leave room for (a truncation notice is smaller).
   */
  #smallestInsertTokens(context: CallContext): number {
    context.smallestInsert ??=
      minimumHandoffTokens +
      context.counter.countMessage({ role: 'user', content: insertTagSample }) +
      context.counter.count(this.#afterAskNote({ tailStart: 1_000_000 } as Layout)) +
      context.counter.count(
        this.#recallNote({ headEnd: 1_000_000, tailStart: 1_000_000 } as Layout),
      );
    return context.smallestInsert;
  }

  /** Tokens of the system messages among `from..to-1`. */
  #systemTokens(context: CallContext, from: number, to: number): number {
    return context.systemPrefix[to]! - context.systemPrefix[from]!;
  }

  /** Head tokens, and what stays verbatim after it: smallest tail, pinned ask, middle system messages. */
  #protectedTokens(context: CallContext, layout: Layout): { head: number; kept: number } {
    const head = context.suffix[0]! - context.suffix[layout.headEnd]!;
    const ask = layout.askIndex === undefined ? 0 : context.counts[layout.askIndex]!;
    const systems = this.#systemTokens(context, layout.headEnd, layout.minTailStart);
    return { head, kept: context.suffix[layout.minTailStart]! + ask + systems };
  }

  /** The error for a result of `requiredTokens` that the verbatim parts of `layout` left over budget. */
  #budgetError(context: CallContext, layout: Layout, requiredTokens: number): ContextBudgetError {
    const { head, kept } = this.#protectedTokens(context, layout);
    // The latest ask with every system message and the smallest insert: when even that is over,
    // the ask itself is the problem, and the error says so rather than blame the head or the tail.
    const ask = latestAskIndex(context.messages, context.inserts, 0);
    const askTokens = ask < 0 ? 0 : context.counts[ask]!;
    const askAlone =
      context.baseTokens +
      context.systemPrefix[context.messages.length]! +
      askTokens +
      this.#smallestInsertTokens(context);
    const askTooLarge = ask >= 0 && askAlone > context.targetTokens;
    return new ContextBudgetError({
      targetTokens: context.targetTokens,
      requiredTokens,
      headTokens: head,
      protectedTokens: kept,
      headDemoted: layout.headDemoted,
      ...(askTooLarge ? { latestAskTokens: askTokens } : {}),
    });
  }

  /** Throws `ContextBudgetError` when the verbatim parts plus `insertTokens` cannot fit. */
  #assertFits(context: CallContext, layout: Layout, insertTokens: number): void {
    const { head, kept } = this.#protectedTokens(context, layout);
    const required = context.baseTokens + head + kept + insertTokens;
    if (required > context.targetTokens) throw this.#budgetError(context, layout, required);
  }

  /** The insert's token budget, and the layout chosen with it. */
  #handoffLayout(
    context: CallContext,
    demoteHead = false,
  ): { layout: Layout; handoffTokens: number } {
    const summaryTarget = this.#options.summaryTargetTokens ?? 750;
    // The record line and the notes an insert may carry, counted with wide indexes so the room
    // reserved covers any layout.
    const envelope = this.#smallestInsertTokens(context) - minimumHandoffTokens;
    const probe = demoteHead
      ? this.#layout(context, 0, true)
      : this.#pickLayout(context, 0, minimumHandoffTokens + envelope);
    this.#assertFits(context, probe, minimumHandoffTokens + envelope);
    const { head, kept } = this.#protectedTokens(context, probe);
    const free = context.targetTokens - context.baseTokens - head - kept - envelope;
    const reserve = Math.max(minimumHandoffTokens, Math.min(summaryTarget, Math.floor(free / 2)));
    const layout = this.#layout(context, reserve + envelope, probe.headDemoted);
    const pinned = layout.pinnedIndex === undefined ? 0 : context.counts[layout.pinnedIndex]!;
    if (context.mode === 'protect') {
      // The whole insert (record line and note included) stays within `summaryTargetTokens`.
      const handoffTokens = summaryTarget - envelope;
      if (handoffTokens < minimumHandoffTokens) {
        throw new InvalidInputError({
          path: 'summaryTargetTokens',
          message: `must be at least ${minimumHandoffTokens + envelope} without targetTokens (the smallest handoff and its record line), got ${summaryTarget}`,
        });
      }
      return { layout, handoffTokens };
    }
    const handoffTokens = Math.min(
      summaryTarget,
      context.targetTokens -
        context.baseTokens -
        head -
        pinned -
        context.suffix[layout.tailStart]! -
        this.#systemTokens(context, layout.headEnd, layout.tailStart) -
        envelope,
    );
    return { layout, handoffTokens };
  }

  /**
   * The output: head, the insert (marked as Baton's, see `createInsert`), the messages the middle
   * keeps (the pinned ask and every system message, in their order), tail.
   */
  #assemble(
    context: CallContext,
    layout: Layout,
    text: string,
    kind: BatonInsertKind,
    /** False for a probe of the output's size: the removed indexes were a list as long as the span. */
    listRemoved = true,
  ): { messages: ModelMessage[]; removed: number[]; insert: ModelMessage } {
    const { messages } = context;
    const output: ModelMessage[] = messages.slice(0, layout.headEnd);
    const afterAsk = this.#insertAfterAsk(context, layout);
    let insert = createInsert(text, kind, output.at(-1), this.#recordKey);
    if (!afterAsk) output.push(insert);
    const removed: number[] = [];
    for (let index = layout.headEnd; index < layout.tailStart; index++) {
      const message = messages[index]!;
      if (index === layout.pinnedIndex) {
        output.push(message);
        // The removed span holds steps taken after the pinned ask: the insert goes after the ask,
        // so those steps do not read as if they came before it (which invites redoing them).
        if (afterAsk) {
          insert = createInsert(text, kind, message, this.#recordKey);
          output.push(insert);
        }
      } else if (message.role === 'system') output.push(message);
      else if (listRemoved) removed.push(index);
    }
    for (let index = layout.tailStart; index < messages.length; index++)
      output.push(messages[index]!);
    return { messages: output, removed, insert };
  }

  /** Whether messages between the pinned ask and the tail are removed (work already done on it). */
  #workAfterAsk(layout: Layout): boolean {
    return layout.pinnedIndex !== undefined && layout.pinnedIndex + 1 < layout.tailStart;
  }

  /**
   * Whether the insert goes after the pinned ask (work done on it was removed). Not when a kept
   * system message before the ask would then follow the head's own system messages directly: it
   * would read as part of the leading system prompt (which apps, and the middleware, replace with
   * their current one), so the insert goes first and keeps it apart.
   */
  #insertAfterAsk(context: CallContext, layout: Layout): boolean {
    if (!this.#workAfterAsk(layout)) return false;
    const { headEnd, pinnedIndex } = layout;
    const systemBeforeAsk = this.#systemTokens(context, headEnd, pinnedIndex!) > 0;
    return !systemBeforeAsk || (headEnd > 0 && context.messages[headEnd - 1]!.role !== 'system');
  }

  /**
   * Put after the header of an insert that follows the pinned ask: says what the record covers, so
   * the steps after the ask read as done, not as a plan.
   */
  #afterAskNote(layout: Layout): string {
    return `(Placed after the user's latest request, the message just above, kept verbatim: covers the earlier conversation and the work already done on that request, up to message ${layout.tailStart - 1}. Do not redo completed actions.)`;
  }

  #withAfterAskNote(context: CallContext, layout: Layout, text: string): string {
    const recall = this.#recallNote(layout);
    if (!this.#insertAfterAsk(context, layout) && recall === '') return text;
    const newline = text.indexOf('\n');
    const header = newline < 0 ? text : text.slice(0, newline);
    const rest = newline < 0 ? '' : text.slice(newline);
    const after = this.#insertAfterAsk(context, layout) ? `\n${this.#afterAskNote(layout)}` : '';
    return `${header}${after}${recall === '' ? '' : `\n${recall}`}${rest}`;
  }

  /** With `recall`: the span this insert replaced, and how to read it back. Else empty. */
  #recallNote(layout: Layout): string {
    const toolName = this.#options.recall?.toolName;
    if (toolName === undefined) return '';
    return `(Messages ${layout.headEnd}–${layout.tailStart - 1} of the history this compaction received are summarised here; their full original text is kept: call \`${toolName}\` with exact text (an error line, a path) or keywords to read any of them back.)`;
  }

  #count(context: CallContext, messages: readonly ModelMessage[]): number {
    return context.counter.countMessages(messages, { tools: context.tools });
  }

  #truncate(context: CallContext, demoteHead = false): StageOutcome {
    const noticeFor = (count: number) =>
      `[Baton: ${count} earlier messages were removed to fit the context window; no summary of them was kept.]`;
    // A first estimate only: the real record line is a MAC whose hex costs a varying number of
    // tokens (15 to 25 with o200k against 16 for the sample), and it depends on the layout (the
    // message above the notice). The assembled result is counted below and the room grown by what
    // it overshot.
    let reserve = context.counter.countMessage({
      role: 'user',
      content: noticeFor(99_999) + insertTagSample,
    });
    let layout = demoteHead
      ? this.#layout(context, reserve, true)
      : this.#pickLayout(context, reserve, reserve);
    this.#assertFits(context, layout, reserve);
    let messages: ModelMessage[] = [];
    let removed: number[] = [];
    let tokensAfter = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 4; attempt++) {
      let removedCount = 0;
      for (let index = layout.headEnd; index < layout.tailStart; index++) {
        if (index !== layout.pinnedIndex && context.messages[index]!.role !== 'system')
          removedCount++;
      }
      ({ messages, removed } = this.#assemble(context, layout, noticeFor(removedCount), 'notice'));
      tokensAfter = this.#count(context, messages);
      const excess = tokensAfter - context.targetTokens;
      if (excess <= 0) break;
      reserve += excess;
      const next = this.#layout(context, reserve, layout.headDemoted);
      // The tail is already the smallest it can be: more room cannot come from it.
      if (next.tailStart === layout.tailStart && next.pinnedIndex === layout.pinnedIndex) break;
      layout = next;
    }
    if (tokensAfter > context.targetTokens) {
      // The head was kept on the sample's estimate of the notice: give the first exchange up
      // before giving up.
      if (!layout.headDemoted && this.#layout(context, 0, true).headEnd < layout.headEnd) {
        return this.#truncate(context, true);
      }
      throw this.#budgetError(context, layout, tokensAfter);
    }
    return {
      strategy: 'truncate',
      messages,
      summary: undefined,
      removed,
      masked: [],
      layout,
      tokensAfter,
    };
  }

  /**
   * Masks tool outputs between the head and the protected tail, oldest first, until the target is
   * met. The tail stays byte-identical. Tool-call inputs are rewritten only with the opt-in
   * `maskToolInputs` (the placeholder no longer matches the tool's input schema).
   *
   * The tail is sized for masking, not greedily: the middle keeps its prose and one-line
   * placeholders, so the tail is the largest (up to `protectLastNTokens`, never below the smallest
   * tail) for which head + masked middle + tail fits. When even the smallest tail cannot fit, the
   * smallest tail is used, so the shortfall reported is the least masking can reach.
   */
  #mask(context: CallContext): StageOutcome {
    const layout = this.#pickLayout(context, 0, 0);
    this.#assertFits(context, layout, 0);
    return this.#applyMask(context, this.#maskPlan(context, layout));
  }

  /** What masking would make of each message of the widest middle, and the tail it can afford. */
  #maskPlan(context: CallContext, layout: Layout): MaskPlan {
    const { messages, counts, suffix, analysis, counter } = context;
    const { headEnd, minTailStart } = layout;
    const redact = (text: string) => redactSecrets(text).text;
    const maskInputs = this.#options.maskToolInputs === true;
    // Per message its masked form and size (a message masking leaves alone counts in full), in one
    // pass, so choosing the cut stays linear.
    const span = minTailStart - headEnd;
    const replacements = new Array<ModelMessage | undefined>(span);
    const maskedCounts = new Array<number>(span);
    /** maskedPrefix[k]: tokens of messages headEnd..headEnd+k-1 once all of them are masked. */
    const maskedPrefix = new Array<number>(span + 1);
    maskedPrefix[0] = 0;
    for (let offset = 0; offset < span; offset++) {
      const index = headEnd + offset;
      const message = messages[index]!;
      let replacement = maskToolMessage(message, redact);
      if (replacement === message && maskInputs) replacement = maskToolCallInputs(message, redact);
      let size = counts[index]!;
      if (replacement !== message) {
        replacements[offset] = replacement;
        size = counter.countMessage(replacement);
      }
      maskedCounts[offset] = size;
      maskedPrefix[offset + 1] = maskedPrefix[offset]! + size;
    }
    const fixed = context.baseTokens + suffix[0]! - suffix[headEnd]!;
    // Fully masked middle before `cut` plus the verbatim tail from `cut`. It never grows as the cut
    // moves later (masking never enlarges a message), so the first cut that fails ends the scan.
    const fits = (cut: number) =>
      fixed + maskedPrefix[cut - headEnd]! + suffix[cut]! <= context.targetTokens;
    const feasible = fits(minTailStart);
    const protectLast = this.#options.protectLastNTokens ?? 20_000;
    let tailStart = minTailStart;
    if (feasible) {
      for (let cut = minTailStart - 1; cut >= headEnd; cut--) {
        if (suffix[cut]! > protectLast || !fits(cut)) break;
        if (analysis.cutAllowed[cut]) tailStart = cut;
      }
    }
    return {
      layout: { ...layout, tailStart, pinnedIndex: undefined },
      replacements,
      maskedCounts,
      feasible,
    };
  }

  /**
   * Masks tool outputs between the head and the planned tail, oldest first, only until the target
   * is met; then, with the opt-in `maskToolInputs`, large tool-call inputs the same way.
   */
  #applyMask(context: CallContext, plan: MaskPlan): StageOutcome {
    const { messages, counts } = context;
    const { layout, replacements, maskedCounts } = plan;
    const { headEnd, tailStart } = layout;
    const output = [...messages];
    const masked: number[] = [];
    let total = context.tokensBefore;
    // Protect mode masks every output of the middle (there is no budget to stop at).
    const over = () => context.mode === 'protect' || total > context.targetTokens;
    const apply = (index: number, role: ModelMessage['role']) => {
      const offset = index - headEnd;
      const replacement = replacements[offset];
      if (replacement === undefined || messages[index]!.role !== role) return;
      total += maskedCounts[offset]! - counts[index]!;
      output[index] = replacement;
      masked.push(index);
    };
    for (let index = headEnd; index < tailStart && over(); index++) apply(index, 'tool');
    if (this.#options.maskToolInputs === true) {
      for (let index = headEnd; index < tailStart && over(); index++) apply(index, 'assistant');
    }
    return {
      strategy: 'mask',
      messages: output,
      summary: undefined,
      removed: [],
      masked: masked.sort((a, b) => a - b),
      layout,
      // `total` is a sum of whole-message counts, as `tokensBefore` is; a recount gives the same.
      tokensAfter: total,
    };
  }

  /**
   * The removed span. With `withAsk`, a pinned ask followed by removed work rides along, flagged, so
   * the summariser can tell work done on it from what came before (it is not restated).
   */
  #middle(context: CallContext, layout: Layout, withAsk = false) {
    const span: Array<{
      message: ModelMessage;
      index: number;
      tokens: number;
      latestRequest?: boolean;
    }> = [];
    let previousSummary: string | undefined;
    for (let index = layout.headEnd; index < layout.tailStart; index++) {
      if (index === layout.pinnedIndex) {
        if (withAsk && this.#workAfterAsk(layout)) {
          const message = context.messages[index]!;
          span.push({ message, index, tokens: context.counts[index]!, latestRequest: true });
        }
        continue;
      }
      const message = context.messages[index]!;
      // Kept verbatim in the output, so not recorded again.
      if (message.role === 'system') continue;
      const inserted = context.inserts[index]!;
      // An earlier handoff (marked, or by its header: a record written before inserts were
      // marked, which is never the pinned ask here) is what the new one updates. It is redacted
      // like the rest of the span before it reaches the summariser.
      if (
        message.role === 'user' &&
        (inserted ? insertBody(message) : textOf(message)).startsWith(HANDOFF_HEADER)
      ) {
        previousSummary = redactSecrets(textOf(message)).text;
        continue;
      }
      // An earlier truncation notice says nothing worth keeping.
      if (inserted) continue;
      span.push({ message, index, tokens: context.counts[index]! });
    }
    return { span, previousSummary };
  }

  /** The latest user message when it stays below the handoff (pinned or in the tail). */
  #latestUserIndex(context: CallContext, layout: Layout): number | undefined {
    const { messages, inserts } = context;
    const inTail = latestAskIndex(messages, inserts, layout.tailStart, true);
    if (inTail >= 0) return inTail;
    if (layout.pinnedIndex !== undefined) return layout.pinnedIndex;
    const empty = latestAskIndex(messages, inserts, layout.tailStart);
    return empty < 0 ? undefined : empty;
  }

  #latestAsk(context: CallContext, layout: Layout): string | undefined {
    const index = this.#latestUserIndex(context, layout);
    return index === undefined ? undefined : textOf(context.messages[index]!);
  }

  /**
   * The latest-ask section of an LLM handoff: a pointer to the ask, which stays verbatim in the
   * output, rather than a second copy of it.
   */
  #askPointer(context: CallContext, layout: Layout): string | undefined {
    const index = this.#latestUserIndex(context, layout);
    if (index === undefined) return undefined;
    if (textOf(context.messages[index]!).trim() === '') return undefined;
    return index === layout.pinnedIndex && this.#insertAfterAsk(context, layout)
      ? 'Stated once, verbatim, in the user message just above this record.'
      : 'Stated once, verbatim, in the user message below this record.';
  }

  /** `pointer`: the `#askPointer` the summariser's budget was sized with. */
  #handoffMessage(
    context: CallContext,
    layout: Layout,
    sections: HandoffSections,
    pointer: string | undefined,
  ): string {
    const withAsk: HandoffSections =
      pointer === undefined ? sections : { ...sections, latestAsk: pointer };
    return this.#withAfterAskNote(context, layout, redactSecrets(renderHandoff(withAsk)).text);
  }

  #receipt(context: CallContext, demoteHead = false): StageOutcome {
    const { layout, handoffTokens } = this.#handoffLayout(context, demoteHead);
    const { span, previousSummary } = this.#middle(context, layout);
    const middle = span.map((entry) => entry.message);
    // The receipt states the latest ask once: the one that stays below the receipt, given apart so
    // that counts and quoted turns describe the dropped span alone.
    const latestAsk = this.#latestAsk(context, layout);
    // `createReceipt` takes an integer of at least `minimumHandoffTokens`; `#handoffLayout` has
    // already proved that much room exists.
    let budget = Math.max(minimumHandoffTokens, Math.floor(handoffTokens));
    if (!Number.isFinite(budget)) budget = minimumHandoffTokens;
    let text = '';
    let insert: ModelMessage | undefined;
    let output: ModelMessage[] = [];
    let removed: number[] = [];
    let tokensAfter = Number.POSITIVE_INFINITY;
    const summaryTarget = this.#options.summaryTargetTokens ?? 750;
    // Tokens over the limit: of the whole result in budget mode, of the insert's text in protect mode.
    let excess = Number.POSITIVE_INFINITY;
    // The receipt is sized by its own counter; re-check the assembled result and shrink if needed.
    for (let attempt = 0; attempt < 3 && excess > 0; attempt++) {
      const receipt = createReceipt(middle, {
        maxTokens: budget,
        counter: context.counter,
        ...(previousSummary === undefined ? {} : { previousSummary }),
        ...(latestAsk === undefined ? {} : { latestAsk }),
        // With recall the model can read the span back: each item says which message it came from.
        ...(this.#options.recall === undefined
          ? {}
          : { sourceIndexes: span.map((entry) => entry.index) }),
      });
      ({
        messages: output,
        removed,
        insert,
      } = this.#assemble(
        context,
        layout,
        this.#withAfterAskNote(context, layout, redactSecrets(receipt.text).text),
        'handoff',
      ));
      text = textOf(insert);
      tokensAfter = this.#count(context, output);
      excess =
        context.mode === 'protect'
          ? context.counter.count(text) - summaryTarget
          : tokensAfter - context.targetTokens;
      budget = Math.max(minimumHandoffTokens, budget - excess - 16);
    }
    if (excess > 0 && context.mode === 'protect') {
      // Unreachable with a counter whose count of a text does not exceed the sum of its parts.
      const { head, kept } = this.#protectedTokens(context, layout);
      throw new ContextBudgetError({
        targetTokens: summaryTarget,
        requiredTokens: context.counter.count(text),
        headTokens: head,
        protectedTokens: kept,
        headDemoted: layout.headDemoted,
      });
    }
    if (tokensAfter > context.targetTokens && !layout.headDemoted) {
      // The head was kept on an estimate of the smallest receipt that proved short by a few
      // tokens: give the first exchange up before giving up.
      const demoted = this.#layout(context, 0, true);
      if (demoted.headEnd < layout.headEnd) return this.#receipt(context, true);
    }
    if (tokensAfter > context.targetTokens) {
      // Even the smallest receipt did not fit next to the verbatim parts (counting differences at
      // the margin): say so with the numbers rather than return an over-budget history.
      throw this.#budgetError(context, layout, tokensAfter);
    }
    return {
      strategy: 'receipt',
      messages: output,
      summary: text,
      removed,
      masked: [],
      layout,
      tokensAfter,
    };
  }

  /**
   * Whether a handoff with these sections leaves the whole result within the target: the rest of
   * the output is counted once, the insert for each candidate (a message's count does not depend
   * on its neighbours). The top-up appends facts only while this holds, so a fitting reply is never
   * topped up past the target (an estimate of the room once let it overshoot by a token and once
   * stopped it tens of tokens short).
   */
  #insertFits(
    context: CallContext,
    layout: Layout,
    pointer: string | undefined,
  ): (sections: HandoffSections) => boolean {
    const probe = this.#assemble(
      context,
      layout,
      this.#handoffMessage(context, layout, {}, pointer),
      'handoff',
      false,
    );
    const at = probe.messages.indexOf(probe.insert);
    const previous = at > 0 ? probe.messages[at - 1] : undefined;
    const room =
      context.targetTokens -
      (this.#count(context, probe.messages) - context.counter.countMessage(probe.insert));
    return (sections) =>
      context.counter.countMessage(
        createInsert(
          this.#handoffMessage(context, layout, sections, pointer),
          'handoff',
          previous,
          this.#recordKey,
        ),
      ) <= room;
  }

  async #summarize(context: CallContext, summarizer: Summarizer): Promise<StageOutcome> {
    const { layout, handoffTokens } = this.#handoffLayout(context);
    const { span, previousSummary } = this.#middle(context, layout, true);
    if (span.every((entry) => entry.latestRequest)) {
      // Nothing to summarise: calling the model would only spend time and money on an empty span.
      throw new SummarizerError({
        kind: 'empty',
        message: 'the middle holds no messages to summarise; nothing was sent to the summariser',
      });
    }
    const name = summarizerName(summarizer, this.#options.summarizerName ?? 'custom');
    // Sections the summariser writes leave room for the header, the ask pointer and the footer (the
    // note on work done after the ask is already outside `handoffTokens`).
    const pointer = this.#askPointer(context, layout);
    const envelopeTokens = context.counter.count(renderHandoff({ latestAsk: pointer ?? '' })) + 32;
    // In protect mode a summary at the edge of its tolerance must still fit `summaryTargetTokens`.
    const sectionTokens = handoffTokens - envelopeTokens;
    const targetTokens = Math.max(
      16,
      context.mode === 'protect' ? Math.floor(sectionTokens / lengthTolerance) : sectionTokens,
    );
    const result = await summarizeSpan({
      summarizer,
      counter: context.counter,
      span,
      previousSummary,
      prefix: this.#options.cacheFriendly ? context.messages.slice(0, layout.tailStart) : undefined,
      targetTokens,
      // In protect mode the target already leaves the tolerance inside `summaryTargetTokens`.
      fits: context.mode === 'protect' ? undefined : this.#insertFits(context, layout, pointer),
      inputBudget: this.#options.summarizerInputBudget ?? 100_000,
      detail: this.#options.detail ?? 'concise',
      preserveTopics: this.#options.preserveTopics ?? [],
      maxAttempts: this.#options.maxAttempts ?? 3,
      retryDelayMs: this.#options.retryDelayMs ?? 1_000,
      timeoutMs: this.#options.timeoutMs ?? 60_000,
      deadline: performance.now() + (this.#options.deadlineMs ?? 120_000),
      callerSignal: context.callerSignal,
    });
    const { messages, removed, insert } = this.#assemble(
      context,
      layout,
      this.#handoffMessage(context, layout, result.sections, pointer),
      'handoff',
    );
    const text = textOf(insert);
    const tokensAfter = this.#count(context, messages);
    const summaryTarget = this.#options.summaryTargetTokens ?? 750;
    const textTokens = context.mode === 'protect' ? context.counter.count(text) : 0;
    if (tokensAfter > context.targetTokens || textTokens > summaryTarget) {
      const failure = new SummarizerError({
        kind: 'too_long',
        message:
          context.mode === 'protect'
            ? `the handoff took ${textTokens} tokens, over summaryTargetTokens (${summaryTarget})`
            : `the summary left the result at ${tokensAfter} tokens, over the target of ${context.targetTokens}`,
      });
      failure.attempts = result.attempts;
      failure.durationMs = result.durationMs;
      throw failure;
    }
    return {
      strategy: 'summarize',
      messages,
      summary: text,
      removed,
      masked: [],
      layout,
      tokensAfter,
      summarizerModel: name,
      summarizerAttempts: result.attempts,
      summarizerDurationMs: result.durationMs,
      verification: result.verification,
    };
  }

  #finish(
    context: CallContext,
    outcome: StageOutcome,
    stages: AppliedStrategy[],
    fallbackReason: string | undefined,
  ): CompressResult<ModelMessage> {
    const usedFallback = fallbackReason !== undefined;
    // Protect mode has no budget; the bound it keeps is never to return a longer history.
    const targetTokens = context.mode === 'protect' ? context.tokensBefore : context.targetTokens;
    const withinBudget = outcome.tokensAfter <= targetTokens;
    const over = outcome.tokensAfter - targetTokens;
    const shortfallReason = withinBudget
      ? undefined
      : outcome.strategy !== 'mask'
        ? `${outcome.strategy} left the result ${over} tokens over the target of ${targetTokens}`
        : `mask replaces only tool outputs outside the protected tail${this.#options.maskToolInputs === true ? ' and large tool inputs' : ''} (${outcome.masked.length} messages masked); the rest is user and assistant text or the verbatim head and tail, so the result stays ${over} tokens over the target of ${targetTokens}. Nothing was removed; use summarize, receipt or auto to go further.`;
    const event: CompactionEvent = {
      strategy: outcome.strategy,
      stages,
      removedMessageIndexes: outcome.removed,
      maskedMessageIndexes: outcome.masked,
      headMessageCount: outcome.layout.headEnd,
      headDemoted: outcome.layout.headDemoted,
      tailStartIndex: outcome.layout.tailStart,
      summary: outcome.summary,
      summarizerModel: outcome.summarizerModel,
      usedFallback,
      fallbackReason,
      summarizerAttempts: outcome.summarizerAttempts ?? 0,
      tokensBefore: context.tokensBefore,
      tokensAfter: outcome.tokensAfter,
      durationMs: performance.now() - context.started,
      summarizerDurationMs: outcome.summarizerDurationMs ?? 0,
      createdAt: new Date().toISOString(),
      targetTokens,
      withinBudget,
      pinnedMessageIndex: outcome.layout.pinnedIndex,
      mode: context.mode,
      ...(outcome.unchangedReason === undefined
        ? {}
        : { unchangedReason: outcome.unchangedReason }),
      ...(shortfallReason === undefined ? {} : { shortfallReason }),
      ...(outcome.verification === undefined
        ? {}
        : {
            factCoverage: outcome.verification.factCoverage,
            addedFacts: storableFacts(outcome.verification.added),
          }),
    };
    return {
      messages: outcome.messages,
      summary: outcome.summary,
      strategy: outcome.strategy,
      mode: context.mode,
      ...(outcome.unchangedReason === undefined
        ? {}
        : { unchangedReason: outcome.unchangedReason }),
      usedFallback,
      ...(fallbackReason === undefined ? {} : { fallbackReason }),
      tokensBefore: context.tokensBefore,
      tokensAfter: outcome.tokensAfter,
      tokensSaved: context.tokensBefore - outcome.tokensAfter,
      withinBudget,
      ...(shortfallReason === undefined ? {} : { shortfallReason }),
      event,
    };
  }
}

/** The facts as the event records them: Baton's text, so well-formed and without NUL. */
function storableFacts(facts: SpanFacts): SpanFacts {
  return {
    asks: facts.asks.map(storableText),
    files: facts.files.map(storableText),
    errors: facts.errors.map(storableText),
    tools: facts.tools.map(storableText),
    openWork: facts.openWork.map(storableText),
  };
}

/** Same as `new ContextCompressor(options)`. */
export function createContextCompressor(options: ContextCompressorOptions = {}): ContextCompressor {
  return new ContextCompressor(options);
}
