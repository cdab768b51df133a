// Short texts (20–2,000 characters) of one language each, from the system's gettext catalogues, for
// the scripts the heuristic prices per script block (Indic, Thai, Lao, Khmer, Myanmar) and the
// languages writing the Arabic block's extended letters; and identifiers built from one language's
// words in each naming style. The fit draws them with its own seed, the tests with fresh ones.
import { languageStrings, seededRandom } from './synthetic-texts.ts';

/** Languages of the script-block classes, by how the heuristic routes their letters. */
export const scriptLanguages = [
  'hi',
  'mr',
  'ne',
  'bn',
  'pa',
  'gu',
  'ta',
  'te',
  'kn',
  'ml',
  'si',
  'th',
  'lo',
  'km',
  'my',
  'ur',
  'ps',
  'sd',
  'ckb',
  'ug',
] as const;

const usable = (language: string) => languageStrings(language).length >= 50;

/** `perLanguage` texts of each of `languages` that has a catalogue, from `seed`. */
export function scriptLanguageSamples(
  seed: number,
  perLanguage: number,
  languages: readonly string[] = scriptLanguages,
): { language: string; text: string }[] {
  const random = seededRandom(seed);
  const out: { language: string; text: string }[] = [];
  for (const language of languages.filter(usable)) {
    const strings = languageStrings(language);
    const pick = () => strings[Math.floor(random() * strings.length)]!;
    for (let i = 0; i < perLanguage; i++) {
      const length = Math.round(20 * 100 ** random());
      let text = pick();
      while (text.length < length)
        text += ['. ', ' ', '\n', ', '][Math.floor(random() * 4)]! + pick();
      out.push({ language, text: [...text].slice(0, 2000).join('') });
    }
  }
  return out;
}

export const identifierStyles = ['snake', 'camel', 'kebab', 'pascal', 'upper', 'joined'] as const;
export type IdentifierStyle = (typeof identifierStyles)[number];

const capitalise = (word: string) => word[0]!.toUpperCase() + word.slice(1);
const join: Record<IdentifierStyle, (words: string[]) => string> = {
  snake: (words) => words.join('_'),
  camel: (words) => words[0]! + words.slice(1).map(capitalise).join(''),
  kebab: (words) => words.join('-'),
  pascal: (words) => words.map(capitalise).join(''),
  upper: (words) => words.join('_').toUpperCase(),
  // Dictionary words run together (filenameuservalue): no case or punctuation marks the joins.
  joined: (words) => words.join(''),
};

/**
 * Texts of identifiers in `style` made of one to four words of `locales`' catalogues (drawn by
 * frequency, a-z only), separated as code separates names; empty when the catalogues are missing.
 */
export function identifierSamples(
  seed: number,
  count: number,
  style: IdentifierStyle,
  locales: readonly string[],
): string[] {
  const words: string[] = [];
  for (const locale of locales)
    for (const text of languageStrings(locale))
      for (const word of text.match(/(?<!\p{L})[A-Za-z]{2,14}(?!\p{L})/gu) ?? [])
        words.push(word.toLowerCase());
  if (words.length < 1000) return [];
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const identifier = () =>
    join[style](Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(words)));
  return Array.from({ length: count }, () => {
    const length = Math.round(20 * 100 ** random());
    let text = identifier();
    while (text.length < length) text += pick([' ', ', ', '\n', '.', '(', ' = ']) + identifier();
    return text;
  });
}
