// Hostile texts for the heuristic: shapes real text seldom has but a transcript can (random letters
// of every script block the estimator knows, one word or one character repeated without spaces, a
// vocabulary word followed by random letters, mixed-script identifiers, punctuation runs, numbers
// with separators, URL-encoded and \u-escaped strings, rule lines of = or -), generated at run time
// from a seed at short (20-2,000 characters) or long (10,000-100,000) lengths. The fit never draws
// them; the tests and bench/evaluate-heuristic-hostile.ts draw a fresh seed per run.
import { cut } from './holdout-class-texts.ts';
import { seededRandom } from './synthetic-texts.ts';

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;
const integer = (random: Random, min: number, max: number) =>
  min + Math.floor(random() * (max - min + 1));

/** The letters (and combining marks) of a code point range, as strings. */
function block(from: number, to: number): string[] {
  const out: string[] = [];
  for (let code = from; code <= to; code++) {
    const character = String.fromCodePoint(code);
    if (/[\p{L}\p{M}]/u.test(character)) out.push(character);
  }
  return out;
}

/** The letter blocks the estimator prices, each by its own features. */
export const scriptBlocks = {
  greek: block(0x0391, 0x03c9),
  cyrillic: block(0x0410, 0x044f),
  armenian: block(0x0531, 0x0586),
  georgian: block(0x10d0, 0x10fa),
  hebrew: block(0x05d0, 0x05ea),
  arabic: block(0x0621, 0x064a),
  devanagari: block(0x0905, 0x0939),
  thai: block(0x0e01, 0x0e2e),
  hangul: block(0xac00, 0xd7a3),
  kana: block(0x3041, 0x30fa),
  han: block(0x4e00, 0x9fa5),
  'latin-diacritics': block(0x00c0, 0x017f),
} as const;
export type ScriptBlock = keyof typeof scriptBlocks;

// Words o200k holds whole after a space or at a text start: what a real word repeated, or a word
// followed by a random rest, is made of.
const words =
  'the and that have with this from they will would there their what about which when make like time just know take people into year your good some could them other than then look only come over think also back after work first well even want because these give most information international development understanding government environment management performance organization relationship application experience community important available different following including character president something'.split(
    ' ',
  );
const accented = block(0x00c0, 0x024f);
const lower = [...'abcdefghijklmnopqrstuvwxyz'];
const punctuation = [...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];
const ruleCharacters = [...'=-_*#~+.'];

/** `length` units drawn from `alphabet`. */
const drawn = (random: Random, alphabet: readonly string[], length: number) => {
  let text = '';
  for (let i = 0; i < length; i++) text += pick(random, alphabet);
  return text;
};

/** Random letters of one block: one run without spaces, or words of 1-12 letters. */
const randomLetters = (alphabet: readonly string[]) => (random: Random, length: number) => {
  if (random() < 0.5) return drawn(random, alphabet, length);
  let text = '';
  while (text.length < length) text += `${drawn(random, alphabet, integer(random, 1, 12))} `;
  return text;
};

const hostileGenerators = {
  ...(Object.fromEntries(
    (Object.keys(scriptBlocks) as ScriptBlock[]).map((name) => [
      `random-${name}`,
      randomLetters(scriptBlocks[name]),
    ]),
  ) as Record<`random-${ScriptBlock}`, (random: Random, length: number) => string>),
  'word-repeated': (random: Random, length: number) => {
    const word = pick(random, words);
    const capital = random() < 0.3;
    const unit = capital ? word[0]!.toUpperCase() + word.slice(1) : word;
    return unit.repeat(Math.ceil(length / unit.length));
  },
  'character-repeated': (random: Random, length: number) => {
    const names: Array<ScriptBlock | 'ascii'> = [...(Object.keys(scriptBlocks) as ScriptBlock[])];
    names.push('ascii', 'ascii');
    const name = pick(random, names);
    const alphabet: readonly string[] =
      name === 'ascii' ? [...lower, ...punctuation, ...'0123456789'] : scriptBlocks[name];
    return pick(random, alphabet).repeat(length);
  },
  'word-random-rest': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      const rest = integer(random, 4, Math.max(4, Math.min(length, 400)));
      text += `${pick(random, words)}${drawn(random, random() < 0.5 ? accented : lower, rest)} `;
    }
    return text;
  },
  'mixed-script-identifiers': (random: Random, length: number) => {
    const scripts = Object.values(scriptBlocks);
    let text = '';
    while (text.length < length) {
      const parts = integer(random, 2, 5);
      let name = '';
      for (let p = 0; p < parts; p++) {
        const alphabet = random() < 0.5 ? lower : pick(random, scripts);
        const part = drawn(random, alphabet, integer(random, 2, 8));
        name += p === 0 ? part : pick(random, ['_', '', '.', '$']) + part;
        if (random() < 0.3) name += integer(random, 0, 99);
      }
      text += name + pick(random, [' ', '\n', ', ', '(', ' = ']);
    }
    return text;
  },
  'punctuation-runs': (random: Random, length: number) => {
    let text = '';
    while (text.length < length)
      text += drawn(random, punctuation, integer(random, 1, 60)) + pick(random, [' ', '\n', '']);
    return text;
  },
  'numbers-with-separators': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      const groups = integer(random, 1, 6);
      const separator = pick(random, [',', '.', ' ', '_', "'", '\u202f', '\u00a0']);
      let number = String(integer(random, 1, 999));
      for (let g = 1; g < groups; g++)
        number += separator + String(integer(random, 0, 999)).padStart(3, '0');
      if (random() < 0.4)
        number += (separator === '.' ? ',' : '.') + String(integer(random, 0, 99));
      text += number + pick(random, [' ', '\n', ', ', '; ', '\t']);
    }
    return text;
  },
  'url-encoded': (random: Random, length: number) => {
    const scripts = Object.values(scriptBlocks);
    let text = '';
    while (text.length < length) {
      const raw =
        random() < 0.5
          ? drawn(random, pick(random, scripts), integer(random, 2, 30))
          : drawn(
              random,
              [...lower, ' ', '/', '?', '&', '=', '#', ...accented],
              integer(random, 5, 60),
            );
      const encoded = encodeURIComponent(raw);
      text +=
        random() < 0.5
          ? `https://example.org/${pick(random, words)}?q=${encoded}&p=${integer(random, 1, 99)}`
          : encoded;
      text += pick(random, [' ', '\n', '']);
    }
    return text;
  },
  'escaped-unicode-json': (random: Random, length: number) => {
    const scripts = Object.values(scriptBlocks);
    let text = '{';
    while (text.length < length) {
      const value = drawn(random, pick(random, [...scripts, accented]), integer(random, 2, 40));
      const escaped = [...value]
        .map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .join('');
      text += `"${pick(random, words)}":"${escaped}",${pick(random, ['', ' ', '\n'])}`;
    }
    return `${text}}`;
  },
  'rule-lines': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      const line =
        random() < 0.7
          ? pick(random, ruleCharacters).repeat(integer(random, 3, Math.max(3, length)))
          : drawn(
              random,
              [pick(random, ruleCharacters), pick(random, ruleCharacters)],
              integer(random, 3, 300),
            );
      text += `${line}${pick(random, ['\n', '\n', ' ', '\n\n'])}`;
      if (random() < 0.3) text += `${pick(random, words)} ${pick(random, words)}\n`;
    }
    return text;
  },
  'unit-repeated': (random: Random, length: number) => {
    // A unit of 2-16 code units of any kind repeated 3 or more times without whitespace, the last
    // copy possibly cut, alone or inside a longer piece (`abcabcabc123`).
    const kinds: Array<() => string> = [
      () => pick(random, words).slice(0, 16),
      () => drawn(random, lower, integer(random, 2, 16)),
      () => drawn(random, scriptBlocks.cyrillic, integer(random, 2, 12)),
      () => drawn(random, scriptBlocks.han, integer(random, 2, 8)),
      () => drawn(random, pick(random, Object.values(scriptBlocks)), integer(random, 2, 8)),
      () => drawn(random, punctuation, integer(random, 2, 6)),
      () => drawn(random, [...lower, ...punctuation, ...'0123456789'], integer(random, 2, 12)),
    ];
    let text = '';
    while (text.length < length) {
      const unit = pick(random, kinds)();
      const copies = integer(random, 3, Math.max(3, Math.floor(length / unit.length)));
      const run = unit.repeat(copies) + unit.slice(0, integer(random, 0, unit.length - 1));
      const before = random() < 0.3 ? drawn(random, lower, integer(random, 1, 6)) : '';
      const after = random() < 0.3 ? String(integer(random, 0, 999)) : '';
      text += `${before}${run}${after}${pick(random, [' ', '\n', ''])}`;
    }
    return text;
  },
};

export type HostileClass = keyof typeof hostileGenerators;
export const hostileClasses = Object.keys(hostileGenerators) as HostileClass[];

export interface HostileSample {
  text: string;
  class: HostileClass;
}

/**
 * `perClass` texts of each of `classes` from `seed`, log-uniform over `minLength`-`maxLength`
 * characters (short: 20-2,000; long: 10,000-100,000). Each class draws from its own generator, so
 * adding a class does not change the others' texts.
 */
export function hostileSamples(
  seed: number,
  perClass: number,
  minLength = 20,
  maxLength = 2000,
  classes: readonly HostileClass[] = hostileClasses,
): HostileSample[] {
  const out: HostileSample[] = [];
  for (const [index, name] of hostileClasses.entries()) {
    if (!classes.includes(name)) continue;
    const random = seededRandom(Math.imul(seed ^ 0x2f6b1c3d, 31) + index * 0x9e3779b1);
    for (let i = 0; i < perClass; i++) {
      const length = Math.round(minLength * (maxLength / minLength) ** random());
      out.push({ text: cut(hostileGenerators[name](random, length), length), class: name });
    }
  }
  return out;
}
