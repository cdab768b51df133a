import { createTokenCounter } from './create-token-counter.js';
import type { TokenCounter } from './types.js';

let shared: TokenCounter | undefined;

/**
 * The counter Baton uses when none is given: `createTokenCounter({ encoding: 'o200k_base' })`
 * (exact for current OpenAI models, a close reference for others), created on first use and shared
 * by the whole process, because building the WASM encoder is costly.
 */
export function defaultTokenCounter(): TokenCounter {
  shared ??= createTokenCounter({ encoding: 'o200k_base' });
  return shared;
}
