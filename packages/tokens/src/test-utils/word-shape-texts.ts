// Generators of text in word shapes the heuristic prices apart (a line break instead of a space
// between words of other scripts, short accented words), drawn at test time: letters of script
// alphabets, and words of the system's Latin-script gettext catalogues (/usr/share/locale), for
// words a tokenizer's vocabulary may hold.
import fc from 'fast-check';
import { latinLanguageStrings, latinScriptLanguages } from './latin-script-languages.ts';

/** Lower-case letters of alphabetic scripts other than Latin (Devanagari consonants, Georgian Mkhedruli). */
export const scriptAlphabets = {
  cyrillic: 'абвгдежзийклмнопрстуфхцчшщъыьэюя',
  greek: 'αβγδεζηθικλμνξοπρστυφχψω',
  arabic: 'ابتثجحخدذرزسشصضطظعغفقكلمنهوي',
  hebrew: 'אבגדהוזחטיכלמנסעפצקרשת',
  devanagari: 'कखगघचछजझटठडढणतथदधनपफबभमयरलवशषसह',
  georgian: 'აბგდევზთიკლმნოპჟრსტუფქღყშჩცძწჭხჯჰ',
} as const;

/** Two to twelve words of 2-8 letters of one script alphabet. */
export const scriptWords = () =>
  fc.noBias(
    fc.constantFrom(...Object.values(scriptAlphabets)).chain((alphabet) =>
      fc.array(
        fc
          .array(fc.constantFrom(...alphabet), { minLength: 2, maxLength: 8 })
          .map((letters) => letters.join('')),
        { minLength: 2, maxLength: 12 },
      ),
    ),
  );

const shortAccentedPattern =
  /(?<![\p{L}\p{N}_'’-])(?=[a-z\u00df-\u00f6\u00f8-\u00ff\u0100-\u017f]{1,3}(?![\p{L}\p{N}_'’-]))[a-z]*[\u00df-\u00f6\u00f8-\u00ff\u0100-\u017f][a-z\u00df-\u00f6\u00f8-\u00ff\u0100-\u017f]*/gu;

const wordCache = new Map<string, string[]>();
/** Words of `language`'s catalogues matching `pattern`, one entry per occurrence (frequent words stay frequent). */
function catalogueWords(language: string, name: string, pattern: RegExp): string[] {
  const key = `${name}\0${language}`;
  let words = wordCache.get(key);
  if (!words) {
    words = latinLanguageStrings(language).flatMap((text) => text.match(pattern) ?? []);
    wordCache.set(key, words);
  }
  return words;
}

/** Latin-script languages whose catalogues hold at least `minimum` words of the pattern. */
function languagesWith(name: string, pattern: RegExp, minimum: number): string[] {
  return latinScriptLanguages(2000).filter(
    (language) => catalogueWords(language, name, pattern).length >= minimum,
  );
}

/**
 * Words of one to three letters with at least one accented letter (à, są, más), forty occurrences
 * of one Latin-script language's catalogues, or `undefined` when the system has none.
 */
export function catalogueShortAccentedWords(): fc.Arbitrary<string[]> | undefined {
  const languages = languagesWith('short', shortAccentedPattern, 200);
  if (languages.length === 0) return undefined;
  return fc.noBias(
    fc.constantFrom(...languages).chain((language) => {
      const words = catalogueWords(language, 'short', shortAccentedPattern);
      return fc.array(
        fc.nat({ max: words.length - 1 }).map((index) => words[index]!),
        { minLength: 40, maxLength: 40 },
      );
    }),
  );
}
