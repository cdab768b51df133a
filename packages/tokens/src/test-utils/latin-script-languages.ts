// The Latin-script languages of the system's gettext catalogues (/usr/share/locale), for the
// heuristic's per-language evaluation: which languages there are, which half the fit may draw, and
// short texts of one language at a time.
import { readdirSync } from 'node:fs';
import { fnv1aHash } from './fnv1a-hash.ts';
import { languageStrings, seededRandom } from './synthetic-texts.ts';

const localeRoot = '/usr/share/locale';

/** Whether at least 90 % of the letters of a sample of `strings` are Latin (a-z, Latin-1 to Extended). */
function isLatinScript(strings: readonly string[]): boolean {
  let latin = 0;
  let other = 0;
  for (const text of strings.slice(0, 3000))
    for (const character of text) {
      if (
        /[A-Za-z\u00c0-\u024f\u1e00-\u1eff]/.test(character) &&
        character !== '×' &&
        character !== '÷'
      )
        latin++;
      else if (/\p{L}/u.test(character)) other++;
    }
  return latin >= 0.9 * (latin + other) && latin > 0;
}

let groups: Map<string, string[]> | undefined;

/**
 * Latin-script languages (not English) with at least `minimumStrings` catalogue strings, sorted:
 * locales of one language (pt, pt_BR, pt_PT; ca, ca@valencia) are one language, so leaving a language
 * out of a fit leaves all its variants out.
 */
export function latinScriptLanguages(minimumStrings = 1000): string[] {
  if (!groups) {
    groups = new Map();
    let locales: string[] = [];
    try {
      locales = readdirSync(localeRoot).sort();
    } catch {}
    for (const locale of locales) {
      const language = locale.split(/[_@.]/)[0]!;
      if (language === 'en' || language === 'locale') continue;
      const strings = languageStrings(locale);
      if (strings.length === 0 || !isLatinScript(strings)) continue;
      groups.set(language, [...(groups.get(language) ?? []), locale]);
    }
  }
  return [...groups]
    .filter(([language]) => latinLanguageStrings(language).length >= minimumStrings)
    .map(([language]) => language);
}

const stringCache = new Map<string, string[]>();

/** Catalogue strings of every Latin-script locale of `language`. */
export function latinLanguageStrings(language: string): string[] {
  const cached = stringCache.get(language);
  if (cached) return cached;
  if (!groups) latinScriptLanguages();
  const strings = (groups!.get(language) ?? []).flatMap(languageStrings);
  stringCache.set(language, strings);
  return strings;
}

/**
 * Whether the heuristic's fit may draw `language`: half the languages by a hash of the name (stable
 * when the system gains or loses catalogues); the tests hold the shipped weights to the other half,
 * languages the weights never saw.
 */
export function isFitLanguage(language: string): boolean {
  return fnv1aHash(language) % 2 === 0;
}

/**
 * `perLanguage` texts of 20–2,000 characters (log-uniform) of each of `languages`, catalogue strings
 * joined as messages would join them, from `seed`.
 */
export function latinLanguageSamples(
  seed: number,
  perLanguage: number,
  languages: readonly string[] = latinScriptLanguages(),
): { language: string; text: string }[] {
  const out: { language: string; text: string }[] = [];
  for (const language of languages) {
    const strings = latinLanguageStrings(language);
    if (strings.length === 0) continue;
    const random = seededRandom(Math.imul(seed ^ 0x2545f491, 31) + fnv1aHash(language));
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    for (let i = 0; i < perLanguage; i++) {
      const length = Math.round(20 * 100 ** random());
      let text = pick(strings);
      while (text.length < Math.max(length, 20))
        text += pick([' ', '\n', '. ', ', ']) + pick(strings);
      text = text.slice(0, Math.min(2000, Math.max(length, 20)));
      // No lone high surrogate at the cut.
      if (/[\ud800-\udbff]$/.test(text)) text = text.slice(0, -1);
      if (text.length >= 20) out.push({ language, text });
    }
  }
  return out;
}
