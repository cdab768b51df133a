import fc from 'fast-check';
import { expect, it } from 'vitest';
import { pick, seededRandom } from '../credential-families.js';
import { clearRedactionMemo, redactSecrets } from '../index.js';

/** One of `items`, each drawn as often (no bias towards the first). */
export const oneOf = <T>(items: readonly T[]) =>
  fc.noBias(fc.integer({ min: 0, max: items.length - 1 })).map((at) => items[at]!);

/** One of the `characters`, each drawn as often. */
export const characterOf = (characters: string) =>
  fc.noBias(fc.integer({ min: 0, max: characters.length - 1 })).map((index) => characters[index]!);

/**
 * A pronounceable word nobody listed (`lomit`, `pinasrud`): two or three syllables of onset, vowel
 * and an optional coda, so names built of it read as words without coming from a dictionary.
 */
export const pronounceableWord = fc
  .noBias(
    fc.array(
      fc
        .tuple(
          characterOf('bdfglmnprst'),
          characterOf('aeiou'),
          fc.oneof(fc.constant(''), characterOf('nrst')),
        )
        .map((letters) => letters.join('')),
      { minLength: 2, maxLength: 3 },
    ),
  )
  .map((syllables) => syllables.join(''));

/**
 * A random value of `minLength`–`maxLength` characters of one of `alphabets`, as a generator of
 * secrets makes it (each character class of the alphabet present from 12 characters on).
 */
export const randomValue = (alphabets: readonly string[], minLength: number, maxLength: number) =>
  fc
    .tuple(
      fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 })),
      oneOf(alphabets),
      fc.noBias(fc.integer({ min: minLength, max: maxLength })),
    )
    .map(([seed, letters, length]) => pick(seededRandom(seed), letters, length));

/**
 * The least of three readings of the CPU milliseconds `redactSecrets` spends on `text`, each on an
 * empty memo, on this thread's clock: a collector pause or another process lands on one reading,
 * and the process-wide clock also counts the collector's own threads.
 */
export function redactionCpuMs(text: string): number {
  let least = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    clearRedactionMemo();
    const started = process.threadCpuUsage();
    redactSecrets(text);
    const spent = process.threadCpuUsage(started);
    least = Math.min(least, (spent.user + spent.system) / 1000);
  }
  return least;
}

/**
 * One test per shape: redacting the shape repeated 20,000 times costs at most 8 times as much CPU
 * as 5,000 times (linear is about 4 times; quadratic would be 16), or 600 ms.
 */
export function itStaysLinear(shapes: Record<string, (count: number) => string>): void {
  for (const [name, build] of Object.entries(shapes)) {
    it(`${name} (5,000 vs 20,000)`, () => {
      redactionCpuMs(build(1000));
      const small = redactionCpuMs(build(5000));
      const large = redactionCpuMs(build(20_000));
      expect(large, `${small} ms at 5,000, ${large} ms at 20,000`).toBeLessThan(
        Math.max(600, small * 8),
      );
    }, 60_000);
  }
}
