import { createTokenCounter, type TokenCounter } from '@baton/tokens';

let shared: TokenCounter | undefined;

/**
 * The counter used when none is given: `createTokenCounter({ encoding: 'o200k_base' })`, created
 * on first use and shared by every receipt of the process (the WASM encoder is costly to build).
 */
export function defaultCounter(): Pick<TokenCounter, 'count'> {
  shared ??= createTokenCounter({ encoding: 'o200k_base' });
  return shared;
}
