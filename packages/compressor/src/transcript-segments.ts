import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { TokenCounter } from '@baton/tokens';
import type { SummaryDetail } from './context-compressor-options.js';
import { derivedLineTokens, pricesAsChat } from './derived-line-tokens.js';
import {
  delimitedPrompt,
  type PieceSink,
  serializeMessage,
  serializeMessageInto,
} from './summary-prompt.js';
import type { WordStemScanner } from './verify-summary.js';

/**
 * One message as transcript data (`serializeMessage` of it), with its exact tokens once asked for
 * (per counter). Its text is kept once: a slice of the block it was written to (`SegmentBlocks`,
 * whose slices the prompts are made of) or of the first prompt it was joined into (or, for a
 * clipped message, whose text packing measures, its own line), never a line of its own beside the
 * prompt that copies it.
 */
export interface TranscriptSegment {
  /** The redacted, clipped message, serialised again while `line` is unknown. */
  readonly message: ModelMessage;
  readonly index: number;
  readonly detail: SummaryDetail;
  readonly latestRequest: boolean;
  /** The serialised message and the newline after it, once known. */
  line: string | undefined;
  /** Whether anything was cut (the message's own count then no longer bounds it). */
  clipped: boolean;
  /** Exact tokens of the text followed by the newline that joins segments, by `countedBy`. */
  tokens: number | undefined;
  countedBy: TokenCounter | undefined;
}

// A redacted message is memoised by identity (see redact-for-summary.ts), so a span summarised
// again (a retry with a smaller budget, a background job redone, a second compressor on the same
// history) reuses its segments and their counts instead of serialising and tokenising again.
// One segment is stored as it is (most messages are serialised once); a list from the second on.
const serialized = new WeakMap<ModelMessage, TranscriptSegment | TranscriptSegment[]>();

function matches(
  segment: TranscriptSegment,
  index: number,
  detail: SummaryDetail,
  latestRequest: boolean,
): boolean {
  return (
    segment.index === index && segment.detail === detail && segment.latestRequest === latestRequest
  );
}

/** The remembered segment of `message` at `index` with these options, if any. */
export function knownSegment(
  message: ModelMessage,
  index: number,
  detail: SummaryDetail,
  latestRequest: boolean,
): TranscriptSegment | undefined {
  const known = serialized.get(message);
  if (known === undefined) return undefined;
  if (!Array.isArray(known)) {
    return matches(known, index, detail, latestRequest) ? known : undefined;
  }
  return known.find((segment) => matches(segment, index, detail, latestRequest));
}

/**
 * The pieces of a message: the ones a prompt joins, or (`scanOnly`) just handed to a word scan,
 * with the characters pushed so far counted so a segment's place in the joined prompt is known.
 */
class Pieces implements PieceSink {
  items: string[] = [];
  count = 0;
  /** Items before this index may hold a piece of an earlier join; the rest are empty strings. */
  filled = 0;
  characters = 0;
  stems: WordStemScanner | undefined;
  scanOnly = false;
  /** `joinPrompt`'s notes of where each segment it serialises lies in the prompt. */
  fresh: number[] = [];

  push(piece: string): void {
    this.stems?.add(piece);
    if (this.scanOnly) return;
    this.items[this.count++] = piece;
    this.characters += piece.length;
  }

  join(): string {
    // Past the pieces pushed, empty strings rather than a shorter list: setting `length` trimmed
    // the list's storage, and the next prompt (about as long) grew it again, copy by copy. A list
    // far longer than this join needs is cut as before, so a short join never walks a long tail.
    const items = this.items;
    if (items.length - this.count > this.count) {
      items.length = this.count;
    } else {
      for (let at = this.count; at < this.filled; at++) items[at] = '';
    }
    this.filled = this.count;
    const joined = items.join('');
    this.reset();
    return joined;
  }

  reset(): void {
    if (this.count > this.filled) this.filled = this.count;
    this.count = 0;
    this.characters = 0;
    this.stems = undefined;
    this.scanOnly = false;
  }
}

// Building is synchronous: one list serves every call, except a nested one (a tool input's
// `toJSON` summarising again), which takes a list of its own.
let spare: Pieces | undefined = new Pieces();

function takePieces(): Pieces {
  const pieces = spare ?? new Pieces();
  spare = undefined;
  return pieces;
}

function releasePieces(pieces: Pieces): void {
  pieces.reset();
  // A list grown by a long prompt is not kept for the next one.
  if (pieces.items.length > 65_536) {
    pieces.items = [];
    pieces.filled = 0;
  }
  if (pieces.fresh.length > 65_536) pieces.fresh = [];
  spare = pieces;
}

function withPieces<T>(use: (pieces: Pieces) => T): T {
  const pieces = takePieces();
  try {
    return use(pieces);
  } finally {
    releasePieces(pieces);
  }
}

/**
 * `serializeMessage`, memoised by message identity, index and options. A new segment is only
 * scanned (`stems`, when given, takes its words, in order): its text is joined when first needed.
 * A clipped one is joined at once, as packing measures it. A remembered one adds its words to
 * `stems` too.
 */
export function transcriptSegment(
  message: ModelMessage,
  index: number,
  detail: SummaryDetail,
  latestRequest: boolean,
  stems?: WordStemScanner,
): TranscriptSegment {
  const known = knownSegment(message, index, detail, latestRequest);
  if (known !== undefined) {
    if (stems !== undefined) addStems(known, stems);
    return known;
  }
  // Taken and released here rather than through `withPieces`: its callback was a closure per
  // message of the span.
  const pieces = takePieces();
  let segment: TranscriptSegment;
  try {
    pieces.stems = stems;
    const clipped = serializeMessageInto(pieces, message, index, detail, latestRequest);
    segment = newSegment(
      message,
      index,
      detail,
      latestRequest,
      clipped ? pieces.join() : undefined,
    );
    segment.clipped = clipped;
  } finally {
    releasePieces(pieces);
  }
  rememberSegment(segment);
  return segment;
}

function newSegment(
  message: ModelMessage,
  index: number,
  detail: SummaryDetail,
  latestRequest: boolean,
  line: string | undefined,
): TranscriptSegment {
  // Every field a segment ever gets, set here: `tokens` added later would move the object to a
  // new shape with an out-of-object property store, per segment of the span.
  return {
    message,
    index,
    detail,
    latestRequest,
    line,
    clipped: false,
    tokens: undefined,
    countedBy: undefined,
  };
}

function rememberSegment(segment: TranscriptSegment): void {
  const message = segment.message;
  const list = serialized.get(message);
  if (list === undefined) serialized.set(message, segment);
  else if (!Array.isArray(list)) serialized.set(message, [list, segment]);
  else {
    // A message is summarised at a handful of indexes over a session; keep the latest few.
    if (list.length >= 4) list.shift();
    list.push(segment);
  }
}

/** A segment's words, added to `stems` (from its line, or serialised again to be scanned). */
export function addStems(segment: TranscriptSegment, stems: WordStemScanner): void {
  if (segment.line !== undefined) {
    stems.add(segment.line);
    return;
  }
  const pieces = takePieces();
  try {
    pieces.stems = stems;
    pieces.scanOnly = true;
    serializeSegmentInto(pieces, segment);
  } finally {
    releasePieces(pieces);
  }
}

function serializeSegmentInto(pieces: Pieces, segment: TranscriptSegment): void {
  serializeMessageInto(
    pieces,
    segment.message,
    segment.index,
    segment.detail,
    segment.latestRequest,
  );
}

/** A segment's line (its text and a newline), serialised alone when no prompt has held it yet. */
export function segmentLine(segment: TranscriptSegment): string {
  segment.line ??= serializeMessage(segment.message, segment.index, segment.detail, {
    latestRequest: segment.latestRequest,
  }).line;
  return segment.line;
}

/** `serializeMessage(…).text` of a segment. */
export function segmentText(segment: TranscriptSegment): string {
  return segmentLine(segment).slice(0, -1);
}

/**
 * Whether `count(a + b) === count(a) + count(b)` whenever `b` starts right after a newline with
 * `<`: tiktoken's o200k and cl100k patterns always end a piece there (no piece runs from a line
 * end into a following `<`), and BPE never merges across pieces. Not so for the GPT-2 pattern
 * (no newline alternative), the heuristic estimate, open-weight tokenizers or a custom counter,
 * which are counted whole.
 */
function splitsAtLineStarts(counter: TokenCounter): boolean {
  if (!counter.exact) return false;
  if (counter.encoding !== 'o200k_base' && counter.encoding !== 'cl100k_base') return false;
  return counter.tokenizer === undefined || counter.tokenizer === counter.encoding;
}

/**
 * Exact tokens of a delimited summariser request (`instructions` as a system message, then one
 * user message holding `delimitedPrompt(segments.join('\n'), previous)`), as
 * `counter.countMessages` would give them. With an exact o200k or cl100k counter it is a sum: each
 * segment is counted once (and remembered), so re-chunking never tokenises the data again and the
 * joined prompt is never tokenised at all. Any other counter counts the whole request.
 */
export function createRequestCounter(
  counter: TokenCounter,
  /**
   * The message (before redaction) the entry at a span position was serialised from, when known: a
   * line that is that message's text between its tags takes its count from the message's (see
   * derivedLineTokens). Positions are given per request (`first`).
   */
  sourceAt?: (position: number) => ModelMessage | undefined,
) {
  const additive = splitsAtLineStarts(counter);
  const derive = additive && sourceAt !== undefined && pricesAsChat(counter) ? sourceAt : undefined;
  // countMessages = sum of countMessage + reply priming; a user message with string content costs
  // its header plus the count of its text.
  const priming = counter.countMessages([]);
  const userHeader = counter.countMessage({ role: 'user', content: '' });
  const byText = segmentCounts(counter);
  const segmentTokens = (segment: string | TranscriptSegment, position: number): number => {
    if (typeof segment === 'string') return counter.count(`${segment}\n`);
    if (segment.countedBy !== counter || segment.tokens === undefined) {
      const line = segmentLine(segment);
      const source = position < 0 ? undefined : derive?.(position);
      segment.tokens =
        (source === undefined ? undefined : derivedLineTokens(line, source, counter)) ??
        byText.count(line, counter);
      segment.countedBy = counter;
    }
    return segment.tokens;
  };
  return (
    instructions: string,
    segments: ReadonlyArray<string | TranscriptSegment>,
    previous: string | undefined,
    /** `joinPrompt(segments, previous)`, when the caller has it already. */
    prompt?: string,
    /** The span position of the first segment (for `sourceAt`), when known. */
    first?: number,
  ): number => {
    const system =
      instructions === '' ? 0 : counter.countMessage({ role: 'system', content: instructions });
    // A segment's text always opens with its `<message` tag.
    const startsWithTag = (segment: string | TranscriptSegment) =>
      typeof segment !== 'string' || segment.startsWith('<');
    if (!additive || segments.length === 0 || !segments.every(startsWithTag)) {
      const whole = prompt ?? joinPrompt(segments, previous);
      return system + counter.countMessages([{ role: 'user', content: whole }]);
    }
    // The prompt is `<opening>` + each segment followed by `\n` + `<closing>`; every segment starts
    // with `<message` right after a newline, and the closing with `</transcript>`.
    const { opening, closing } = promptFrame(previous);
    let tokens = counter.count(opening) + counter.count(closing);
    const from = first ?? -1;
    for (let at = 0; at < segments.length; at++) {
      tokens += segmentTokens(segments[at]!, from < 0 ? -1 : from + at);
    }
    return system + priming + userHeader + tokens;
  };
}

/**
 * Segment counts by text, per counter: a span summarised again as fresh message objects with the
 * same content (the next step of a tool loop hands over new objects) misses the identity memo;
 * hashing a segment costs far less than tokenising it. Kept apart from the counter's own memos so
 * a large span never evicts the conversation's entries there. Bounded by characters: past the
 * bound the older half is dropped.
 */
class SegmentCounts {
  #current = new Map<string, number>();
  #older = new Map<string, number>();
  #characters = 0;

  /** Tokens of `line` (a segment's text and its newline). */
  count(line: string, counter: TokenCounter): number {
    let tokens = this.#current.get(line);
    if (tokens !== undefined) return tokens;
    tokens = this.#older.get(line) ?? counter.count(line);
    if (this.#characters + line.length > maxSegmentCharacters) {
      this.#older = this.#current;
      this.#current = new Map();
      this.#characters = 0;
    }
    this.#current.set(line, tokens);
    this.#characters += line.length;
    return tokens;
  }
}

const maxSegmentCharacters = 8_000_000;
const segmentMemos = new WeakMap<TokenCounter, SegmentCounts>();

function segmentCounts(counter: TokenCounter): SegmentCounts {
  let memo = segmentMemos.get(counter);
  if (!memo) {
    memo = new SegmentCounts();
    segmentMemos.set(counter, memo);
  }
  return memo;
}

/**
 * `delimitedPrompt(texts.join('\n'), previous)` with the transcript built in one join, so a large
 * request is copied once rather than once per nesting level. A segment whose line is not known yet
 * is serialised straight into the transcript, and keeps a slice of it as its line: the transcript
 * is held once. The frame is concatenated around the joined transcript, not joined with it: a
 * previous summary with one character past Latin-1 (a dash) made the whole prompt two bytes a
 * character, while the transcript alone, usually Latin-1, stays one (the concatenation shares it).
 */
export function joinPrompt(
  segments: ReadonlyArray<string | TranscriptSegment>,
  previous: string | undefined,
): string {
  if (segments.length === 0) return delimitedPrompt('', previous);
  const { opening, closing } = promptFrame(previous);
  const transcript = withPieces((pieces) => {
    // Each segment serialised here: its position in `segments`, where it starts and where it ends
    // in the prompt (numbers in one list: an object per segment was a few MiB of a large span).
    // The list is the pieces' own, kept from prompt to prompt (counted, not emptied: `length = 0`
    // drops its storage): made per prompt, it grew by copies to thousands of numbers every time.
    const fresh = pieces.fresh;
    let noted = 0;
    for (let index = 0; index < segments.length; index++) {
      const segment = segments[index]!;
      if (typeof segment === 'string') {
        pieces.push(segment);
        pieces.push('\n');
      } else if (segment.line !== undefined) {
        pieces.push(segment.line);
      } else {
        fresh[noted++] = index;
        fresh[noted++] = pieces.characters;
        serializeSegmentInto(pieces, segment);
        fresh[noted++] = pieces.characters;
      }
    }
    const joined = pieces.join();
    for (let at = 0; at < noted; at += 3) {
      const segment = segments[fresh[at]!] as TranscriptSegment;
      segment.line ??= joined.slice(fresh[at + 1], fresh[at + 2]);
    }
    return joined;
  });
  return opening + transcript + closing;
}

const frameMarker = '\u0000';

/** The text `delimitedPrompt` puts before the first segment and after the last one's newline. */
function promptFrame(previous: string | undefined): { opening: string; closing: string } {
  const frame = delimitedPrompt(frameMarker, previous);
  const at = frame.lastIndexOf(frameMarker);
  return { opening: frame.slice(0, at), closing: frame.slice(at + 1 + 1) };
}

/** Characters after which a block of new segments is joined and a new one begins. */
const blockCharacters = 262_144;
/** Pieces after which a block is joined: under the list size `releasePieces` keeps. */
const blockPieces = 32_768;

/**
 * New segments of a span serialised into shared blocks, each joined once, every segment's line a
 * slice of its block: a request of consecutive new segments is then a slice of a block (or a few
 * slices joined end to end), not a second serialisation of its messages and a copy of their text.
 * The words of each new segment go to `stems` as it is serialised, in the span's order, as
 * `transcriptSegment` gives them. Blocks of bounded size: one character past Latin-1 makes only
 * its own block two bytes a character.
 */
export class SegmentBlocks {
  readonly #texts: string[] = [];
  /** Per span position: the block of a segment written here, or -1 (a remembered segment). */
  readonly #block: Int32Array;
  /** Per span position: where its line starts in its block. */
  readonly #start: Int32Array;
  readonly #segments: TranscriptSegment[];
  #pieces: Pieces | undefined;
  /**
   * Positions of segments in the block being written, with where each starts and ends: the first
   * `#noted` numbers. Counted, not emptied: `length = 0` drops the storage, and every block grew
   * it again by copies.
   */
  readonly #pending: number[] = [];
  #noted = 0;
  readonly #stems: WordStemScanner | undefined;

  constructor(segments: TranscriptSegment[], stems: WordStemScanner | undefined) {
    this.#segments = segments;
    this.#block = new Int32Array(segments.length).fill(-1);
    this.#start = new Int32Array(segments.length);
    this.#stems = stems;
  }

  /** Serialises the message at `position` of the span into the current block. */
  write(
    position: number,
    message: ModelMessage,
    index: number,
    detail: SummaryDetail,
    latestRequest: boolean,
  ): TranscriptSegment {
    if (this.#pieces === undefined) {
      this.#pieces = takePieces();
      this.#pieces.stems = this.#stems;
    }
    const pieces = this.#pieces;
    const start = pieces.characters;
    let clipped: boolean;
    try {
      clipped = serializeMessageInto(pieces, message, index, detail, latestRequest);
    } catch (error) {
      this.#release();
      this.#noted = 0;
      throw error;
    }
    const segment = newSegment(message, index, detail, latestRequest, undefined);
    segment.clipped = clipped;
    rememberSegment(segment);
    this.#segments[position] = segment;
    const pending = this.#pending;
    pending[this.#noted++] = position;
    pending[this.#noted++] = start;
    pending[this.#noted++] = pieces.characters;
    if (pieces.characters >= blockCharacters || pieces.count >= blockPieces) this.finish();
    return segment;
  }

  /** Joins the current block and gives its segments their lines. Call after the last `write`. */
  finish(): void {
    const pieces = this.#pieces;
    if (pieces === undefined) return;
    const text = pieces.join();
    const pending = this.#pending;
    this.#release();
    const block = this.#texts.length;
    this.#texts.push(text);
    for (let at = 0; at < this.#noted; at += 3) {
      const position = pending[at]!;
      this.#block[position] = block;
      this.#start[position] = pending[at + 1]!;
      this.#segments[position]!.line = text.slice(pending[at + 1], pending[at + 2]);
    }
    this.#noted = 0;
  }

  /** Gives the pieces back; segments written to the current block keep no line (`segmentLine`). */
  #release(): void {
    if (this.#pieces === undefined) return;
    releasePieces(this.#pieces);
    this.#pieces = undefined;
  }

  /** The block the segment at `position` was written to; -1 when it was not written here. */
  blockOf(position: number): number {
    return this.#block[position] ?? -1;
  }

  /**
   * The transcript `joinPrompt` would join for `entries`, the segments at span positions `first`
   * onward, as slices of the blocks; undefined when an entry is not a segment written here (a cut
   * text, a remembered segment), or there is none.
   */
  transcript(
    entries: ReadonlyArray<string | TranscriptSegment>,
    first: number,
  ): string | undefined {
    if (entries.length === 0 || first + entries.length > this.#segments.length) return undefined;
    let transcript = '';
    let runBlock = -1;
    let runStart = 0;
    let runEnd = 0;
    for (let offset = 0; offset < entries.length; offset++) {
      const position = first + offset;
      const segment = this.#segments[position]!;
      const block = this.#block[position]!;
      if (entries[offset] !== segment || block < 0 || segment.line === undefined) return undefined;
      const start = this.#start[position]!;
      if (block === runBlock && start === runEnd) {
        runEnd = start + segment.line.length;
        continue;
      }
      if (runBlock >= 0) transcript += this.#texts[runBlock]!.slice(runStart, runEnd);
      runBlock = block;
      runStart = start;
      runEnd = start + segment.line.length;
    }
    return transcript + this.#texts[runBlock]!.slice(runStart, runEnd);
  }
}

/** `joinPrompt(segments, previous)` for a non-empty list whose transcript is `transcript`. */
export function framePrompt(transcript: string, previous: string | undefined): string {
  const { opening, closing } = promptFrame(previous);
  return opening + transcript + closing;
}
