// Random Cyrillic letters with capitals inside their runs (upper-case runs, case changing at
// random, as in keys, ids and transliteration tables), and the control: the same letters lower
// case. Drawn from a seed at run time.
import { seededRandom } from './synthetic-texts.ts';

const lower = Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x0430 + i));
const upper = Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x0410 + i));

/** `count` texts of 20-2,000 code units: runs or space-separated words of 1-12 letters. */
export function cyrillicCapitalTexts(seed: number, count: number, control = false): string[] {
  const random = seededRandom(seed);
  const letter = (capitals: number) => {
    const at = Math.floor(random() * 32);
    return control || random() >= capitals ? lower[at]! : upper[at]!;
  };
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    const length = 20 + Math.floor(random() ** 2 * 1981);
    // All capitals, or a capital share between a tenth and nine tenths.
    const capitals = random() < 0.4 ? 1 : 0.1 + random() * 0.8;
    const words = random() < 0.5;
    let text = '';
    while (text.length < length) {
      const size = words ? 1 + Math.floor(random() * 12) : length;
      for (let i = 0; i < size && text.length < length; i++) text += letter(capitals);
      if (words) text += ' ';
    }
    out.push(text);
  }
  return out;
}
