// Units repeated without spaces whose copies meet in a punctuation run (`&#123;&`, `"k1",`,
// `[x];`): punctuation, letters or a number, punctuation. Drawn from a seed at run time; the
// control units open with their letters or number, so copies meet in a letter or number piece.
import { seededRandom } from './synthetic-texts.ts';

const punctuation = [...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];
const alphanumeric = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];

export interface RepeatedUnit {
  unit: string;
  copies: number;
}

/** `count` units of at most 16 code units that are no repeat of a shorter one, with 3-20 copies. */
export function repeatedUnits(seed: number, count: number, control = false): RepeatedUnit[] {
  const random = seededRandom(seed);
  const integer = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const drawn = (alphabet: readonly string[], length: number) => {
    let text = '';
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)]!;
    return text;
  };
  const out: RepeatedUnit[] = [];
  while (out.length < count) {
    const inner = random() < 0.5 ? drawn(alphanumeric, integer(1, 8)) : String(integer(0, 99_999));
    const unit = control
      ? inner + drawn(punctuation, integer(1, 3))
      : drawn(punctuation, integer(1, 3)) + inner + drawn(punctuation, integer(1, 3));
    if (unit.length > 16 || /^(.+)\1+$/su.test(unit)) continue;
    out.push({ unit, copies: integer(3, 20) });
  }
  return out;
}

/**
 * How `estimate` prices further copies against exact: for each unit, what `copies` more copies
 * add to a run of `copies` (so the run's ends cancel out), summed as an aggregate bias, and the
 * share of units whose further copies are priced more than a tenth low.
 */
export function furtherCopyErrors(
  units: readonly RepeatedUnit[],
  estimate: (text: string) => number,
  exact: (text: string) => number,
): { bias: number; lowRate: number } {
  let estimated = 0;
  let counted = 0;
  let low = 0;
  for (const { unit, copies } of units) {
    const guess = estimate(unit.repeat(2 * copies)) - estimate(unit.repeat(copies));
    const truth = exact(unit.repeat(2 * copies)) - exact(unit.repeat(copies));
    estimated += guess;
    counted += truth;
    if (guess < truth * 0.9) low++;
  }
  return { bias: estimated / counted - 1, lowRate: low / units.length };
}
