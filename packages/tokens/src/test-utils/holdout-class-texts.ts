// Classes of text a reviewer might hold out to judge the heuristic (pseudo-words, identifiers,
// numbers, URLs, paths, logs, CSV, SQL, YAML, stack traces, markdown tables, short snippets of many
// scripts, emoji sequences, mixed-language prose), generated at run time from a seed. The fit never
// draws them; tests draw a fresh seed per run. Natural-language pieces come from the system's gettext
// catalogues (`/usr/share/locale`) and classes without them are left out.
import { languageStrings, seededRandom } from './synthetic-texts.ts';

export type HoldoutClass =
  | 'pseudo-words'
  | 'pseudo-words-mixed'
  | 'pseudo-words-accented'
  | 'pseudo-words-cyrillic'
  | 'identifiers'
  | 'numbers'
  | 'urls'
  | 'file-paths'
  | 'log-lines'
  | 'csv'
  | 'sql'
  | 'yaml'
  | 'stack-traces'
  | 'markdown-table'
  | 'mixed-language'
  | 'short-cjk'
  | 'short-korean'
  | 'short-thai'
  | 'short-indic'
  | 'short-hebrew'
  | 'short-greek'
  | 'short-cyrillic'
  | 'short-georgian'
  | 'short-latin'
  | 'emoji-sequences';

export interface HoldoutSample {
  text: string;
  class: HoldoutClass;
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;
const integer = (random: Random, min: number, max: number) =>
  min + Math.floor(random() * (max - min + 1));
/** Log-uniform over 20–2,000 characters, the short-text range of the targets. */
const targetLength = (random: Random) => Math.round(20 * 100 ** random());

function fill(length: number, unit: () => string, separator: () => string): string {
  let text = unit();
  while (text.length < length) text += separator() + unit();
  return text;
}

const lower = 'abcdefghijklmnopqrstuvwxyz';
const letters = (random: Random, alphabet: string, length: number) => {
  const chars = [...alphabet];
  return Array.from({ length }, () => pick(random, chars)).join('');
};

let english: string[] | undefined;
/**
 * English words of the system's en_GB/en_AU/en_CA catalogues, one entry per occurrence, so draws
 * follow word frequency as identifiers and prose do (uniform draws over the distinct words made
 * rare words as common as `file` or `name`), or a small built-in list.
 */
function englishWords(): string[] {
  if (english) return english;
  const words: string[] = [];
  for (const language of ['en_GB', 'en_AU', 'en_CA'])
    for (const text of languageStrings(language))
      for (const word of text.match(/[A-Za-z]{2,14}/g) ?? []) words.push(word.toLowerCase());
  english =
    words.length >= 5000
      ? words
      : 'file name user error value count time request response buffer index cache server client token message stream parse build config'.split(
          ' ',
        );
  return english;
}

const capitalise = (word: string) => word[0]!.toUpperCase() + word.slice(1);

function identifier(random: Random): string {
  const words = Array.from({ length: integer(random, 1, 4) }, () => pick(random, englishWords()));
  switch (integer(random, 0, 4)) {
    case 0:
      return words.join('_');
    case 1:
      return words[0]! + words.slice(1).map(capitalise).join('');
    case 2:
      return words.join('-');
    case 3:
      return words.map(capitalise).join('');
    default:
      return words.join('_').toUpperCase();
  }
}

const hexDigits = (random: Random, length: number) => letters(random, '0123456789abcdef', length);

function number(random: Random): string {
  const n = Math.floor(10 ** (random() * 9));
  switch (integer(random, 0, 7)) {
    case 0:
      return n.toLocaleString('en-US');
    case 1:
      return n.toLocaleString('de-DE');
    case 2:
      return `${(random() * 1000).toFixed(integer(random, 1, 4))}`;
    case 3:
      return `${(random() * 100).toFixed(1)}%`;
    case 4:
      return `${integer(random, 1990, 2030)}-${String(integer(random, 1, 12)).padStart(2, '0')}-${String(integer(random, 1, 28)).padStart(2, '0')}`;
    case 5:
      return `+${integer(random, 1, 99)} ${integer(random, 100, 999)} ${integer(random, 100, 999)} ${integer(random, 1000, 9999)}`;
    case 6:
      return `$${n.toLocaleString('en-US')}.${String(integer(random, 0, 99)).padStart(2, '0')}`;
    default:
      return `${integer(random, 0, 255)}.${integer(random, 0, 255)}.${integer(random, 0, 255)}.${integer(random, 0, 255)}`;
  }
}

const pathPart = (random: Random) =>
  random() < 0.3 ? hexDigits(random, integer(random, 6, 12)) : identifier(random);
const extensions = ['ts', 'js', 'py', 'json', 'md', 'rs', 'go', 'tsx', 'yaml', 'log', 'txt'];

function filePath(random: Random): string {
  const parts = Array.from({ length: integer(random, 1, 6) }, () => pathPart(random));
  const file = `${parts.pop() ?? 'index'}.${pick(random, extensions)}`;
  switch (integer(random, 0, 3)) {
    case 0:
      return `/${[pick(random, ['home', 'usr', 'var', 'opt', 'tmp']), ...parts, file].join('/')}`;
    case 1:
      return `C:\\Users\\${capitalise(pick(random, englishWords()))}\\${[...parts, file].join('\\')}`;
    case 2:
      return `./${[...parts, file].join('/')}:${integer(random, 1, 2000)}:${integer(random, 1, 80)}`;
    default:
      return [...parts, file].join('/');
  }
}

function url(random: Random): string {
  const host = `${pick(random, ['www.', 'api.', 'docs.', ''])}${pick(random, englishWords())}${pick(random, ['', '-', ''])}${random() < 0.5 ? pick(random, englishWords()) : ''}.${pick(random, ['com', 'io', 'dev', 'org', 'co.uk', 'de'])}`;
  const path = Array.from({ length: integer(random, 0, 4) }, () =>
    random() < 0.2 ? String(integer(random, 1, 99999)) : pathPart(random),
  ).join('/');
  const query =
    random() < 0.5
      ? `?${Array.from({ length: integer(random, 1, 3) }, () => `${identifier(random)}=${random() < 0.5 ? integer(random, 0, 9999) : pick(random, englishWords())}`).join('&')}`
      : '';
  return `https://${host}/${path}${query}`;
}

function englishSentence(random: Random): string {
  const strings = languageStrings('en_GB');
  if (strings.length > 50) return pick(random, strings).replace(/\s+/g, ' ').trim();
  return Array.from({ length: integer(random, 3, 12) }, () => pick(random, englishWords())).join(
    ' ',
  );
}

const levels = ['INFO', 'WARN', 'ERROR', 'DEBUG', 'info', 'warn', 'error', 'debug'];
function logLine(random: Random): string {
  const time = `2026-${String(integer(random, 1, 12)).padStart(2, '0')}-${String(integer(random, 1, 28)).padStart(2, '0')}T${String(integer(random, 0, 23)).padStart(2, '0')}:${String(integer(random, 0, 59)).padStart(2, '0')}:${String(integer(random, 0, 59)).padStart(2, '0')}.${integer(random, 100, 999)}Z`;
  const fields = Array.from(
    { length: integer(random, 0, 4) },
    () =>
      `${identifier(random)}=${pick(random, [String(integer(random, 0, 99999)), hexDigits(random, 8), pick(random, englishWords()), `${integer(random, 1, 999)}ms`])}`,
  ).join(' ');
  return `${time} ${pick(random, levels)} [${identifier(random)}] ${englishSentence(random)} ${fields}`.trim();
}

function csv(random: Random, length: number): string {
  const columns = integer(random, 2, 7);
  const kinds = Array.from({ length: columns }, () => integer(random, 0, 4));
  const header = Array.from({ length: columns }, () => identifier(random)).join(',');
  const row = () =>
    kinds
      .map((kind) =>
        kind === 0
          ? String(integer(random, 0, 100000))
          : kind === 1
            ? (random() * 1000).toFixed(2)
            : kind === 2
              ? capitalise(pick(random, englishWords()))
              : kind === 3
                ? number(random)
                : `"${englishSentence(random).replace(/"/g, '""').slice(0, 40)}"`,
      )
      .join(',');
  return `${header}\n${fill(length, row, () => '\n')}`;
}

function sql(random: Random): string {
  const table = identifier(random).toLowerCase().replace(/-/g, '_');
  const column = () => pick(random, englishWords());
  switch (integer(random, 0, 3)) {
    case 0:
      return `SELECT ${Array.from({ length: integer(random, 1, 5) }, column).join(', ')} FROM ${table} WHERE ${column()} = ${integer(random, 0, 9999)} AND ${column()} LIKE '%${pick(random, englishWords())}%' ORDER BY ${column()} DESC LIMIT ${integer(random, 1, 100)};`;
    case 1:
      return `INSERT INTO ${table} (${column()}, ${column()}, ${column()}) VALUES (${integer(random, 0, 9999)}, '${pick(random, englishWords())}', ${(random() * 100).toFixed(2)});`;
    case 2:
      return `UPDATE ${table} SET ${column()} = '${englishSentence(random).replace(/'/g, "''").slice(0, 30)}' WHERE id = ${integer(random, 1, 99999)};`;
    default:
      return `CREATE TABLE ${table} (\n  id BIGSERIAL PRIMARY KEY,\n  ${column()} TEXT NOT NULL,\n  ${column()} INTEGER DEFAULT ${integer(random, 0, 9)},\n  created_at TIMESTAMPTZ DEFAULT now()\n);`;
  }
}

function yaml(random: Random, length: number): string {
  let depth = 0;
  return fill(
    length,
    () => {
      const key = identifier(random);
      const line = `${'  '.repeat(depth)}${random() < 0.2 ? '- ' : ''}${key}:`;
      if (random() < 0.25 && depth < 4) {
        depth++;
        return line;
      }
      if (random() < 0.2 && depth > 0) depth--;
      return `${line} ${pick(random, [String(integer(random, 0, 9999)), 'true', 'false', `"${englishSentence(random).slice(0, 40)}"`, pick(random, englishWords()), url(random)])}`;
    },
    () => '\n',
  );
}

function stackTrace(random: Random, length: number): string {
  if (random() < 0.5) {
    const head = `${pick(random, ['TypeError', 'Error', 'RangeError', 'ReferenceError'])}: ${englishSentence(random)}`;
    return `${head}\n${fill(
      length - head.length,
      () =>
        `    at ${identifier(random)}${random() < 0.5 ? `.${identifier(random)}` : ''} (${filePath(random).replace(/:\d+:\d+$/, '')}:${integer(random, 1, 3000)}:${integer(random, 1, 120)})`,
      () => '\n',
    )}`;
  }
  const frames = fill(
    length,
    () =>
      `  File "${filePath(random).replace(/:\d+:\d+$/, '')}", line ${integer(random, 1, 3000)}, in ${identifier(random).replace(/-/g, '_')}\n    ${identifier(random).replace(/-/g, '_')} = ${identifier(random).replace(/-/g, '_')}(${pick(random, englishWords())})`,
    () => '\n',
  );
  return `Traceback (most recent call last):\n${frames}\n${pick(random, ['ValueError', 'KeyError', 'RuntimeError'])}: ${englishSentence(random)}`;
}

function markdownTable(random: Random, length: number): string {
  const columns = integer(random, 2, 6);
  const header = `| ${Array.from({ length: columns }, () => capitalise(pick(random, englishWords()))).join(' | ')} |`;
  const rule = `| ${Array.from({ length: columns }, () => pick(random, ['---', ':---', '---:', ':---:'])).join(' | ')} |`;
  const row = () =>
    `| ${Array.from({ length: columns }, () => pick(random, [number(random), pick(random, englishWords()), `\`${identifier(random)}\``, englishSentence(random).slice(0, 30)])).join(' | ')} |`;
  return `${header}\n${rule}\n${fill(length, row, () => '\n')}`;
}

const shortLanguages: Partial<Record<HoldoutClass, readonly string[]>> = {
  'short-cjk': ['zh_CN', 'zh_TW', 'zh_HK', 'ja'],
  'short-korean': ['ko'],
  'short-thai': ['th', 'lo', 'km', 'my'],
  'short-indic': ['hi', 'bn', 'ta', 'te', 'mr', 'gu', 'kn', 'ml', 'pa', 'si', 'ne'],
  'short-hebrew': ['he', 'yi'],
  'short-greek': ['el'],
  'short-cyrillic': ['ru', 'uk', 'bg', 'sr', 'mk', 'be', 'kk'],
  'short-georgian': ['ka', 'hy', 'am'],
  'short-latin': ['de', 'fr', 'es', 'pl', 'tr', 'vi', 'cs', 'hu', 'fi', 'pt_BR', 'nl', 'it'],
};
const usable = (language: string) => languageStrings(language).length >= 50;

/** Which locales a generator may draw (the fit leaves some languages out to evaluate on them). */
type LanguageFilter = (locale: string) => boolean;
const anyLanguage: LanguageFilter = () => true;

function shortText(
  random: Random,
  name: HoldoutClass,
  length: number,
  allow: LanguageFilter,
): string | undefined {
  const languages = (shortLanguages[name] ?? []).filter(usable).filter(allow);
  if (languages.length === 0) return undefined;
  const strings = languageStrings(pick(random, languages));
  return fill(
    length,
    () => pick(random, strings),
    () => pick(random, [' ', '\n', '. ', ', ']),
  );
}

function pseudoWords(
  random: Random,
  length: number,
  alphabet: string,
  lengths: [number, number],
  capitals: number,
) {
  return fill(
    length,
    () => {
      const word = letters(random, alphabet, integer(random, ...lengths));
      return random() < capitals ? capitalise(word) : word;
    },
    () => pick(random, [' ', ' ', ' ', ', ', '. ', '\n']),
  );
}

const emojiBases = ['👍', '👋', '🧑', '👩', '👨', '🙌', '💪', '🤝', '👏', '🏃', '🧘', '🙏'];
const skinTones = ['🏻', '🏼', '🏽', '🏾', '🏿'];
const zwjSequences = [
  '👨‍👩‍👧‍👦',
  '👩‍💻',
  '🧑‍🚀',
  '🏳️‍🌈',
  '👨‍❤️‍👨',
  '🐕‍🦺',
  '❤️‍🔥',
  '🧑🏽‍💻',
  '👩🏿‍🔬',
];
const plainEmoji = [
  '🎉',
  '🚀',
  '✨',
  '🔥',
  '✅',
  '❌',
  '⚠️',
  '💯',
  '🤔',
  '😂',
  '🥲',
  '🫠',
  '🦀',
  '☕',
  '🇩🇪',
  '🇧🇷',
  '#️⃣',
  '1️⃣',
];

function emojiSequence(random: Random): string {
  const kind = integer(random, 0, 3);
  if (kind === 0) return pick(random, emojiBases) + pick(random, skinTones);
  if (kind === 1) return pick(random, zwjSequences);
  if (kind === 2) return pick(random, plainEmoji);
  return pick(random, englishWords());
}

const generators: Record<
  HoldoutClass,
  (random: Random, length: number, allow: LanguageFilter) => string | undefined
> = {
  'pseudo-words': (random, length) => pseudoWords(random, length, lower, [5, 7], 0),
  'pseudo-words-mixed': (random, length) =>
    pseudoWords(
      random,
      length,
      lower,
      [integer(random, 1, 4), integer(random, 5, 14)],
      random() * 0.5,
    ),
  'pseudo-words-accented': (random, length) =>
    pseudoWords(random, length, `${lower}éèàùçñöäüßøåœłżśćęąšžčř`, [3, 9], 0.2),
  'pseudo-words-cyrillic': (random, length) =>
    pseudoWords(random, length, 'абвгдеёжзийклмнопрстуфхцчшщъыьэюя', [3, 9], 0.2),
  identifiers: (random, length) =>
    fill(
      length,
      () => identifier(random),
      () => pick(random, [' ', ', ', '\n', '.', '(', ' = ']),
    ),
  numbers: (random, length) =>
    fill(
      length,
      () => number(random),
      () => pick(random, [' ', ', ', '\n', ' | ', '; ']),
    ),
  urls: (random, length) =>
    fill(
      length,
      () => url(random),
      () => pick(random, ['\n', ' ', '\n- ']),
    ),
  'file-paths': (random, length) =>
    fill(
      length,
      () => filePath(random),
      () => pick(random, ['\n', ' ', '\n  ']),
    ),
  'log-lines': (random, length) =>
    fill(
      length,
      () => logLine(random),
      () => '\n',
    ),
  csv: (random, length) => csv(random, length),
  sql: (random, length) =>
    fill(
      length,
      () => sql(random),
      () => '\n',
    ),
  yaml: (random, length) => yaml(random, length),
  'stack-traces': (random, length) => stackTrace(random, length),
  'markdown-table': (random, length) => markdownTable(random, length),
  'mixed-language': (random, length, allow) => {
    const others = [
      'de',
      'fr',
      'es',
      'ru',
      'zh_CN',
      'ja',
      'ko',
      'ar',
      'he',
      'el',
      'hi',
      'th',
      'pl',
      'tr',
      'vi',
      'uk',
    ]
      .filter(usable)
      .filter(allow);
    if (others.length === 0 || !usable('en_GB')) return undefined;
    const other = pick(random, others);
    return fill(
      length,
      () => pick(random, languageStrings(random() < 0.5 ? 'en_GB' : other)),
      () => pick(random, [' ', '\n', '. ', ' — ']),
    );
  },
  'short-cjk': (random, length, allow) => shortText(random, 'short-cjk', length, allow),
  'short-korean': (random, length, allow) => shortText(random, 'short-korean', length, allow),
  'short-thai': (random, length, allow) => shortText(random, 'short-thai', length, allow),
  'short-indic': (random, length, allow) => shortText(random, 'short-indic', length, allow),
  'short-hebrew': (random, length, allow) => shortText(random, 'short-hebrew', length, allow),
  'short-greek': (random, length, allow) => shortText(random, 'short-greek', length, allow),
  'short-cyrillic': (random, length, allow) => shortText(random, 'short-cyrillic', length, allow),
  'short-georgian': (random, length, allow) => shortText(random, 'short-georgian', length, allow),
  'short-latin': (random, length, allow) => shortText(random, 'short-latin', length, allow),
  'emoji-sequences': (random, length) =>
    fill(
      length,
      () =>
        Array.from({ length: integer(random, 1, 3) }, () => emojiSequence(random)).join(
          pick(random, ['', ' ']),
        ),
      () => pick(random, [' ', '', '\n']),
    ),
};

export const holdoutClasses = Object.keys(generators) as HoldoutClass[];

/** Cuts at `length` UTF-16 units without splitting a surrogate pair. */
export function cut(text: string, length: number): string {
  if (text.length <= length) return text;
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/**
 * `perClass` texts of every class this system can generate, 20–2,000 characters, from `seed`.
 * Each class draws from its own generator seeded from `seed` and the class, so adding a class does
 * not change the others' texts. Natural-language classes draw only locales `allowLanguage` accepts.
 */
export function holdoutSamples(
  seed: number,
  perClass: number,
  classes = holdoutClasses,
  allowLanguage: LanguageFilter = anyLanguage,
): HoldoutSample[] {
  const out: HoldoutSample[] = [];
  for (const [index, name] of holdoutClasses.entries()) {
    if (!classes.includes(name)) continue;
    const random = seededRandom(Math.imul(seed ^ 0x5bd1e995, 31) + index * 0x9e3779b1);
    for (let i = 0; i < perClass; i++) {
      const length = targetLength(random);
      const text = generators[name](random, length, allowLanguage);
      if (text === undefined) break;
      const trimmed = cut(text, Math.min(2000, Math.max(length, 20)));
      if (trimmed.length >= 20) out.push({ text: trimmed, class: name });
    }
  }
  return out;
}
