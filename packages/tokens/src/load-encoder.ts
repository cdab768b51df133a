import { createRequire } from 'node:module';
import type { TiktokenEncoding } from './types.js';

/** The part of a tiktoken encoder Baton uses. `@dqbd/tiktoken`'s `Tiktoken` satisfies it. */
export interface Encoder {
  /** Token ids of `text`, treating special-token text such as `<|endoftext|>` as ordinary text. */
  encode_ordinary(text: string): Uint32Array;
  /**
   * Optional: the number of tokens of one pre-tokenisation piece, without building the ids. When
   * present the counter calls it instead of `encode_ordinary`.
   */
  countOrdinary?(piece: string): number;
}

/**
 * Loads the exact encoder for one encoding, synchronously. Throwing makes the counter fall back to
 * the heuristic (one warning, `exact: false`).
 */
export type EncoderLoader = (encoding: TiktokenEncoding) => Encoder;

const require = createRequire(import.meta.url);

/** Loads `@dqbd/tiktoken` (its Node entry instantiates the WASM synchronously) on first use. */
export const loadTiktokenEncoder: EncoderLoader = (encoding) => {
  const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
  return tiktoken.get_encoding(encoding);
};

// o200k takes hundreds of milliseconds and ~90 MB to build: one encoder per loader per encoding.
const encoders = new WeakMap<EncoderLoader, Map<TiktokenEncoding, Encoder>>();

/** The process-wide encoder of `encoding` built by `loader`, built on first call. */
export function sharedEncoder(encoding: TiktokenEncoding, loader: EncoderLoader): Encoder {
  let byEncoding = encoders.get(loader);
  if (!byEncoding) {
    byEncoding = new Map();
    encoders.set(loader, byEncoding);
  }
  let encoder = byEncoding.get(encoding);
  if (!encoder) {
    encoder = loader(encoding);
    byEncoding.set(encoding, encoder);
  }
  return encoder;
}
