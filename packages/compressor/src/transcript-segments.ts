import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { TokenCounter } from '@baton/tokens';
import type { SummaryDetail } from './context-compressor-options.js';
import { delimitedPrompt, serializeMessage } from './summary-prompt.js';

/** One message as transcript data, with its exact tokens once asked for (per counter). */
export interface TranscriptSegment {
  text: string;
  /** `text` and the newline after it, when known (a slice of one string, see `serializeMessage`). */
  line?: string;
  /** Whether anything was cut (the message's own count then no longer bounds it). */
  clipped: boolean;
  /** Exact tokens of `text` followed by the newline that joins segments, by `countedBy`. */
  tokens?: number;
  countedBy?: TokenCounter;
}

interface Variant extends TranscriptSegment {
  index: number;
  detail: SummaryDetail;
  latestRequest: boolean;
}

// A redacted message is memoised by identity (see redact-for-summary.ts), so a span summarised
// again (a retry with a smaller budget, a background job redone, a second compressor on the same
// history) reuses its segments and their counts instead of serialising and tokenising again.
// One variant is stored as it is (most messages are serialised once); a list from the second on.
const serialized = new WeakMap<ModelMessage, Variant | Variant[]>();

function matches(
  variant: Variant,
  index: number,
  detail: SummaryDetail,
  latestRequest: boolean,
): boolean {
  return (
    variant.index === index && variant.detail === detail && variant.latestRequest === latestRequest
  );
}

/** `serializeMessage`, memoised by message identity, index and options. */
export function transcriptSegment(
  message: ModelMessage,
  index: number,
  detail: SummaryDetail,
  latestRequest: boolean,
): TranscriptSegment {
  const known = serialized.get(message);
  if (known !== undefined && !Array.isArray(known)) {
    if (matches(known, index, detail, latestRequest)) return known;
  } else if (known !== undefined) {
    const found = known.find((variant) => matches(variant, index, detail, latestRequest));
    if (found) return found;
  }
  const { text, line, clipped } = serializeMessage(message, index, detail, { latestRequest });
  // Every field a segment ever gets, set here: `tokens` added later would move the object to a
  // new shape with an out-of-object property store, per segment of the span.
  const variant: Variant = {
    text,
    line,
    clipped,
    tokens: undefined,
    countedBy: undefined,
    index,
    detail,
    latestRequest,
  };
  if (known === undefined) {
    serialized.set(message, variant);
    return variant;
  }
  if (!Array.isArray(known)) {
    serialized.set(message, [known, variant]);
    return variant;
  }
  // A message is summarised at a handful of indexes over a session; keep the latest few.
  if (known.length >= 4) known.shift();
  known.push(variant);
  return variant;
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
export function createRequestCounter(counter: TokenCounter) {
  const additive = splitsAtLineStarts(counter);
  // countMessages = sum of countMessage + reply priming; a user message with string content costs
  // its header plus the count of its text.
  const priming = counter.countMessages([]);
  const userHeader = counter.countMessage({ role: 'user', content: '' });
  const byText = segmentCounts(counter);
  const segmentTokens = (segment: string | TranscriptSegment): number => {
    if (typeof segment === 'string') return counter.count(`${segment}\n`);
    if (segment.countedBy !== counter || segment.tokens === undefined) {
      segment.tokens = byText.count(segment.text, segment.line, counter);
      segment.countedBy = counter;
    }
    return segment.tokens;
  };
  return (
    instructions: string,
    segments: ReadonlyArray<string | TranscriptSegment>,
    previous: string | undefined,
  ): number => {
    const system =
      instructions === '' ? 0 : counter.countMessage({ role: 'system', content: instructions });
    const startsWithTag = (segment: string | TranscriptSegment) =>
      (typeof segment === 'string' ? segment : segment.text).startsWith('<');
    if (!additive || segments.length === 0 || !segments.every(startsWithTag)) {
      const texts = segments.map((segment) =>
        typeof segment === 'string' ? segment : segment.text,
      );
      const prompt = delimitedPrompt(texts.join('\n'), previous);
      return system + counter.countMessages([{ role: 'user', content: prompt }]);
    }
    // The prompt is `<opening>` + each segment followed by `\n` + `<closing>`; every segment starts
    // with `<message` right after a newline, and the closing with `</transcript>`.
    const { opening, closing } = promptFrame(previous);
    let tokens = counter.count(opening) + counter.count(closing);
    for (let at = 0; at < segments.length; at++) tokens += segmentTokens(segments[at]!);
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

  /** Tokens of `text` and a newline (`line`, when the caller has that string already). */
  count(text: string, line: string | undefined, counter: TokenCounter): number {
    let tokens = this.#current.get(text);
    if (tokens !== undefined) return tokens;
    tokens = this.#older.get(text) ?? counter.count(line ?? `${text}\n`);
    if (this.#characters + text.length > maxSegmentCharacters) {
      this.#older = this.#current;
      this.#current = new Map();
      this.#characters = 0;
    }
    this.#current.set(text, tokens);
    this.#characters += text.length;
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
 * `delimitedPrompt(texts.join('\n'), previous)` built in one join, so a large request is copied
 * once rather than once per nesting level.
 */
export function joinPrompt(
  segments: ReadonlyArray<string | TranscriptSegment>,
  previous: string | undefined,
): string {
  if (segments.length === 0) return delimitedPrompt('', previous);
  const { opening, closing } = promptFrame(previous);
  const parts = new Array<string>(2 * segments.length + 1);
  parts[0] = opening;
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    if (typeof segment !== 'string' && segment.line !== undefined) {
      parts[2 * index + 1] = segment.line;
      parts[2 * index + 2] = '';
    } else {
      parts[2 * index + 1] = typeof segment === 'string' ? segment : segment.text;
      parts[2 * index + 2] = '\n';
    }
  }
  parts.push(closing);
  return parts.join('');
}

const frameMarker = '\u0000';

/** The text `delimitedPrompt` puts before the first segment and after the last one's newline. */
function promptFrame(previous: string | undefined): { opening: string; closing: string } {
  const frame = delimitedPrompt(frameMarker, previous);
  const at = frame.lastIndexOf(frameMarker);
  return { opening: frame.slice(0, at), closing: frame.slice(at + 1 + 1) };
}
