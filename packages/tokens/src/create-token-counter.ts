import { createHash } from 'node:crypto';
import { chatFormat, countMessageTokens, countToolTokens } from './count-message-tokens.js';
import { createPieceCounter, type PieceCounter } from './create-piece-counter.js';
import { estimateTokens } from './estimate-tokens.js';
import { GenerationalCache } from './generational-cache.js';
import { InvalidInputError } from './invalid-input-error.js';
import {
  type Encoder,
  type EncoderLoader,
  loadTiktokenEncoder,
  sharedEncoder,
} from './load-encoder.js';
import { resolveModel } from './resolve-model.js';
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
   * Builds the exact encoder, synchronously. Default: `@dqbd/tiktoken`'s WASM encoder, built once per
   * process per encoding on first use. If it throws, the counter counts with the heuristic
   * (`exact: false`) and warns once.
   */
  loadEncoder?: EncoderLoader;
  /** Messages remembered by content for cheap re-counting (bounded LRU). Default 4096. */
  messageCacheSize?: number;
  /** Where the one fallback warning goes. Default `console.warn`. */
  warn?: (message: string) => void;
}

const tiktokenEncodings = new Set<string>(['o200k_base', 'cl100k_base', 'p50k_base', 'r50k_base']);
const encodings = new Set<string>([...tiktokenEncodings, 'heuristic']);

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

// JSON.stringify hands a replacer the result of `toJSON` (a Buffer becomes an array of numbers),
// so binary values are read from the holder. They are keyed by a digest of all their bytes: a text
// file's count depends on every byte, not only on an image header.
function binaryKey(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key];
  if (ArrayBuffer.isView(original) || original instanceof ArrayBuffer) {
    const bytes =
      original instanceof ArrayBuffer
        ? new Uint8Array(original)
        : new Uint8Array(original.buffer, original.byteOffset, original.byteLength);
    return `\u0000bytes:${bytes.byteLength}:${createHash('sha256').update(bytes).digest('base64')}`;
  }
  return value;
}

// Keys longer than this are replaced by their digest, so the memo's memory stays bounded by its
// entry count rather than by message sizes.
const longestPlainKey = 256;

function contentKey(message: object): string | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(message, binaryKey);
  } catch {
    // Circular or BigInt content: no content key; counting reports what is wrong with it.
    return undefined;
  }
  if (json === undefined) return undefined;
  return json.length <= longestPlainKey ? json : createHash('sha256').update(json).digest('base64');
}

/**
 * A token counter for one model or encoding. Exact (`@dqbd/tiktoken`, loaded lazily and shared per
 * process) for OpenAI encodings; the fitted heuristic for other models or when WASM cannot load.
 * Everything is synchronous.
 */
export function createTokenCounter(options: CreateTokenCounterOptions = {}): TokenCounter {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError({ path: 'options', message: 'expected an options object' });
  }
  const {
    model,
    loadEncoder = loadTiktokenEncoder,
    warn = (message: string) => console.warn(message),
  } = options;
  if (options.encoding !== undefined && !encodings.has(options.encoding)) {
    throw new InvalidInputError({
      path: 'options.encoding',
      message: `unknown encoding ${JSON.stringify(options.encoding)}`,
    });
  }
  if (model !== undefined && typeof model !== 'string') {
    throw new InvalidInputError({ path: 'options.model', message: 'expected a model id string' });
  }
  const messageCacheSize = options.messageCacheSize ?? 4096;
  if (!Number.isInteger(messageCacheSize) || messageCacheSize < 0) {
    throw new InvalidInputError({
      path: 'options.messageCacheSize',
      message: 'expected a non-negative integer',
    });
  }
  const requested: Encoding =
    options.encoding ?? (model === undefined ? 'o200k_base' : resolveModel(model).encoding);

  let resolved = false;
  let exactCounter: PieceCounter | undefined;
  const resolve = (): PieceCounter | undefined => {
    if (!resolved) {
      resolved = true;
      if (requested !== 'heuristic') {
        const encoder = tryLoad(requested, loadEncoder, warn);
        if (encoder) exactCounter = pieceCounterFor(encoder, requested);
      }
    }
    return exactCounter;
  };

  const countText = (text: string): number => {
    const exact = resolve();
    return exact ? exact.count(text) : estimateTokens(text, { encoding: requested });
  };

  // Identity first (free), then content (one JSON serialisation, far cheaper than tokenising): a
  // middleware often sees fresh copies of the same messages on every step.
  let byIdentity = new WeakMap<object, number>();
  const byContent = new GenerationalCache<string, number>(Math.max(1, messageCacheSize / 2));

  const countOne = (message: unknown, path: string): number => {
    const isObject = typeof message === 'object' && message !== null;
    if (isObject) {
      const hit = byIdentity.get(message);
      if (hit !== undefined) return hit;
    }
    let key: string | undefined;
    if (isObject && messageCacheSize > 0) {
      key = contentKey(message);
      const hit = key === undefined ? undefined : byContent.get(key);
      if (hit !== undefined) {
        byIdentity.set(message, hit);
        return hit;
      }
    }
    const tokens = countMessageTokens(message, path, countText);
    if (isObject) byIdentity.set(message, tokens);
    if (key !== undefined) byContent.set(key, tokens);
    return tokens;
  };

  return {
    get encoding() {
      return resolve() ? requested : 'heuristic';
    },
    get exact() {
      return resolve() !== undefined;
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
      countOptions: CountMessagesOptions = {},
    ): number {
      if (!Array.isArray(messages)) {
        throw new InvalidInputError({ path: 'messages', message: 'expected an array of messages' });
      }
      let total = 0;
      for (let i = 0; i < messages.length; i++) total += countOne(messages[i], `messages[${i}]`);
      return total + chatFormat.replyPriming + countToolTokens(countOptions?.tools, countText);
    },
    dispose(): void {
      byIdentity = new WeakMap();
      byContent.clear();
    },
  };
}
