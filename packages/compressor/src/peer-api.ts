/**
 * The parts of `@baton/tokens` and `@baton/fallback` this package calls, in one place.
 * `createTokenCounter` is looked up at run time: `@baton/tokens` is written in parallel, and until its
 * build exports the factory a chars/4 estimate stands in (the same stop-gap `@baton/fallback` uses).
 */

import type { CountableMessage, TokenCounter } from '@baton/tokens';
import * as tokens from '@baton/tokens';

export {
  createReceipt,
  parseHandoff,
  redactMessages,
  redactSecrets,
  renderHandoff,
} from '@baton/fallback';

interface TokensApi {
  createTokenCounter?: (options?: { model?: string; encoding?: string }) => TokenCounter;
}

export function createDefaultCounter(): TokenCounter {
  const api = tokens as unknown as TokensApi;
  if (typeof api.createTokenCounter === 'function') {
    return api.createTokenCounter({ encoding: 'o200k_base' });
  }
  return createStandInCounter();
}

function createStandInCounter(): TokenCounter {
  const count = (text: string) => Math.ceil(text.length / 4);
  const countMessage = (message: CountableMessage) =>
    4 + count(JSON.stringify(message.content ?? ''));
  return {
    encoding: 'heuristic',
    exact: false,
    count,
    countMessage,
    countMessages: (messages) =>
      3 + messages.reduce((sum, message) => sum + countMessage(message), 0),
    dispose() {},
  };
}
