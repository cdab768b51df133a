import type { CountableMessage, TokenCounter } from '@baton/tokens';

/**
 * A deterministic counter for unit and property tests: one token per four characters of the JSON of
 * a message's content, plus four per message and three of priming. Fast and predictable; the real
 * o200k counter is exercised by the corpus tests.
 */
export function createSimpleCounter(): TokenCounter {
  const count = (text: string) => Math.ceil(text.length / 4);
  const countMessage = (message: CountableMessage) =>
    4 +
    count(
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? ''),
    );
  return {
    encoding: 'heuristic',
    exact: false,
    count,
    countMessage,
    countMessages: (messages, options) => {
      const tools = options?.tools ? count(JSON.stringify(options.tools)) : 0;
      return 3 + tools + messages.reduce((sum, message) => sum + countMessage(message), 0);
    },
    dispose() {},
  };
}
