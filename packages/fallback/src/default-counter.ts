import type { TokenCounter } from '@baton/tokens';
import * as tokens from '@baton/tokens';

let shared: Pick<TokenCounter, 'count'> | undefined;

/**
 * The counter used when none is given: `createTokenCounter({ encoding: 'o200k_base' })` from
 * `@baton/tokens`, created once per process. Looked up at run time so this package still works
 * with a `@baton/tokens` build that predates the factory (then a chars/4 estimate stands in).
 */
export function defaultCounter(): Pick<TokenCounter, 'count'> {
  if (shared) return shared;
  const factory = (tokens as Record<string, unknown>).createTokenCounter as
    | ((options: { encoding: string }) => TokenCounter)
    | undefined;
  const estimate = (tokens as Record<string, unknown>).estimateTokens as
    | ((text: string) => number)
    | undefined;
  if (typeof factory === 'function') shared = factory({ encoding: 'o200k_base' });
  else if (typeof estimate === 'function') shared = { count: (text: string) => estimate(text) };
  else shared = { count: (text: string) => Math.ceil(text.length / 4) };
  return shared;
}
