/** The parts of `@baton/tokens` and `@baton/fallback` this package calls, in one place. */
import { createTokenCounter, type TokenCounter } from '@baton/tokens';

export {
  clipText,
  createReceipt,
  redactMessages,
  redactSecrets,
  renderHandoff,
} from '@baton/fallback';

/** The default counter: exact o200k (the encoding of current OpenAI models). */
export function createDefaultCounter(): TokenCounter {
  return createTokenCounter({ encoding: 'o200k_base' });
}
