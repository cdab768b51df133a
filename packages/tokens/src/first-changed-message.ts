import { sameCountedMessage } from './same-counted-message.js';

/**
 * The index of the first message of `messages`, from `from` up to `end`, that cannot reuse the
 * count of the message at its index in `previous` (`end` when all of them can); the message read
 * there is left in `read.message`, so the caller reads each element once (an element may be a
 * getter or sit behind a proxy). A slot holding `undefined` (an incomparable message) never
 * matches: a hole or an `undefined` would equal it. A field that throws when the comparison reads
 * it makes its message a mismatch: only the count's own reads may decide between a number and an
 * error. A loop of its own, small enough for the comparison to be inlined into it.
 */
export function firstChangedMessage(
  previous: readonly unknown[],
  messages: readonly unknown[],
  from: number,
  end: number,
  read: { message: unknown },
): number {
  for (let i = from; i < end; i++) {
    const message = messages[i];
    const before = previous[i];
    let same = false;
    if (before !== undefined) {
      try {
        same = sameCountedMessage(before, message);
      } catch {
        // Counted afresh.
      }
    }
    if (!same) {
      read.message = message;
      return i;
    }
  }
  return end;
}
