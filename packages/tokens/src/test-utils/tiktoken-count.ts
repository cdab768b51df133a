import { createRequire } from 'node:module';
import type { TiktokenEncoding } from '../types.js';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const encoders: Partial<Record<TiktokenEncoding, ReturnType<typeof tiktoken.get_encoding>>> = {};

/** `@dqbd/tiktoken`'s (WASM) count of `text`, special-token text as ordinary text: the reference. */
export function tiktokenCount(encoding: TiktokenEncoding, text: string): number {
  encoders[encoding] ??= tiktoken.get_encoding(encoding);
  return encoders[encoding].encode_ordinary(text).length;
}
