// Texts of shapes neither the fit nor the earlier hostile classes drew (session 21): dictionary words
// of many languages run together, URL slugs, identifiers with digits, escaped and encoded text in
// several notations, multi-token words repeated behind separators, log lines, stack traces, SQL,
// hex dumps, JWTs, markdown tables, diffs, shell lines, CSS. Words come from the system's gettext
// catalogues at test time (classes that need them fall back to generated pseudo-words when the
// system has none), so no text is fixed in the repository and every seed draws new ones.
import { cut } from './holdout-class-texts.ts';
import { languageStrings, seededRandom } from './synthetic-texts.ts';

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;
const integer = (random: Random, min: number, max: number) =>
  min + Math.floor(random() * (max - min + 1));

const hexDigits = [...'0123456789abcdef'];
const base64Url = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'];

/** Catalogue languages whose words the word classes draw, Latin script first. */
const latinLocales = [
  'de',
  'fr',
  'es',
  'it',
  'pt_BR',
  'pl',
  'nl',
  'sv',
  'fi',
  'tr',
  'cs',
  'hu',
  'vi',
  'id',
];
const otherLocales = ['ru', 'uk', 'el', 'ar', 'hi', 'ja', 'zh_CN', 'ko'];

const wordCache = new Map<string, string[]>();

/** Distinct words (letters and marks only, 2-20 long) of one locale's catalogues. */
function localeWords(locale: string): string[] {
  const cached = wordCache.get(locale);
  if (cached) return cached;
  const words = new Set<string>();
  for (const text of languageStrings(locale))
    for (const word of text.match(/[\p{L}\p{M}]{2,20}/gu) ?? []) words.add(word);
  const out = [...words].sort();
  wordCache.set(locale, out);
  return out;
}

/** A word of a language drawn at random (English-like pseudo-words when no catalogue exists). */
function word(random: Random, locales: readonly string[]): string {
  const candidates = locales.filter((locale) => localeWords(locale).length >= 200);
  if (candidates.length === 0) {
    let text = '';
    const syllables = [
      'ta',
      'ren',
      'mo',
      'sil',
      'ka',
      'dor',
      've',
      'lin',
      'stra',
      'no',
      'pe',
      'qua',
    ];
    for (let i = integer(random, 1, 4); i > 0; i--) text += pick(random, syllables);
    return text;
  }
  return pick(random, localeWords(pick(random, candidates)));
}

const anyWord = (random: Random) => word(random, random() < 0.75 ? latinLocales : otherLocales);
const latinWord = (random: Random) => word(random, latinLocales).toLowerCase();

const drawn = (random: Random, alphabet: readonly string[], length: number) => {
  let text = '';
  for (let i = 0; i < length; i++) text += pick(random, alphabet);
  return text;
};

/** Groups of 2-8 words, mostly of one language, joined by `joiner`. */
function wordGroups(random: Random, length: number, joiner: string): string {
  let text = '';
  while (text.length < length) {
    const locales = random() < 0.7 ? latinLocales : otherLocales;
    const language = [pick(random, locales)];
    const words: string[] = [];
    for (let i = integer(random, 2, 8); i > 0; i--)
      words.push(random() < 0.8 ? word(random, language).toLowerCase() : anyWord(random));
    text += words.join(joiner) + pick(random, [' ', '\n', ', ', '. ']);
  }
  return text;
}

const hex = (random: Random, length: number) => drawn(random, hexDigits, length);
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const timestamp = (random: Random) =>
  `2026-${String(integer(random, 1, 12)).padStart(2, '0')}-${String(integer(random, 1, 28)).padStart(2, '0')}T${String(integer(random, 0, 23)).padStart(2, '0')}:${String(integer(random, 0, 59)).padStart(2, '0')}:${String(integer(random, 0, 59)).padStart(2, '0')}.${String(integer(random, 0, 999)).padStart(3, '0')}Z`;

const generators = {
  /** Words of one language run together without spaces or case marks. */
  'concatenated-words': (random: Random, length: number) => wordGroups(random, length, ''),
  /** The control: the same kind of word groups with spaces between the words. */
  'spaced-words': (random: Random, length: number) => wordGroups(random, length, ' '),
  /** URL paths whose segments are slugs of words, joined by hyphens or by nothing. */
  'url-slugs': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      const joiner = pick(random, ['', '-', '', '_', '+']);
      const segments: string[] = [];
      for (let s = integer(random, 1, 4); s > 0; s--) {
        const words: string[] = [];
        for (let w = integer(random, 1, 7); w > 0; w--) words.push(latinWord(random));
        segments.push(words.join(joiner));
      }
      const query =
        random() < 0.4 ? `?id=${integer(random, 1, 99999)}&ref=${latinWord(random)}` : '';
      text += `https://${latinWord(random)}.${pick(random, ['com', 'org', 'io', 'de'])}/${segments.join('/')}${query}${pick(random, ['\n', ' ', ' | '])}`;
    }
    return text;
  },
  /** Identifiers of words mixed with digits and version numbers in several code styles. */
  'identifiers-with-digits': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      const parts: string[] = [];
      for (let p = integer(random, 1, 4); p > 0; p--) {
        let part = latinWord(random).replace(/[^a-z]/g, '') || 'x';
        if (random() < 0.4) part += integer(random, 0, random() < 0.5 ? 9 : 9999);
        parts.push(part);
      }
      const style = integer(random, 0, 4);
      const name =
        style === 0
          ? parts.join('_')
          : style === 1
            ? parts[0]! + parts.slice(1).map(capitalise).join('')
            : style === 2
              ? parts.join('_').toUpperCase()
              : style === 3
                ? parts.map(capitalise).join('')
                : `${parts.join('-')}@${integer(random, 0, 20)}.${integer(random, 0, 40)}.${integer(random, 0, 9)}`;
      text += name + pick(random, [' ', '\n', ', ', '(', ');\n', ' = ', '.']);
    }
    return text;
  },
  /** One word (any language, usually several tokens) repeated behind a separator or none. */
  'word-repeated-separated': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      let unit = anyWord(random);
      if (random() < 0.5) unit = unit.toLowerCase();
      const separator = pick(random, ['', '', ',', '-', '_', '/', '.', ';', '|', ' ', ', ']);
      const copies = integer(random, 3, Math.max(3, Math.floor(length / (unit.length + 1))));
      text += Array.from({ length: copies }, () => unit).join(separator);
      text += pick(random, ['\n', ' ', '']);
    }
    return text;
  },
  /** Text percent-encoded as URLs and forms carry it, including `+` for spaces. */
  'percent-encoded': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      const words: string[] = [];
      for (let w = integer(random, 1, 8); w > 0; w--) words.push(anyWord(random));
      let encoded = encodeURIComponent(words.join(' '));
      if (random() < 0.3) encoded = encoded.replace(/%20/g, '+');
      if (random() < 0.3) encoded = encoded.toLowerCase();
      text += `${pick(random, ['q=', 'search?query=', '/wiki/', 'redirect_uri=', ''])}${encoded}${pick(random, ['&', '\n', ' '])}`;
    }
    return text;
  },
  /** Strings escaped as source code writes them: \u{...}, \x.., octal bytes, HTML entities. */
  'escaped-text': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      const value = [
        ...Array.from({ length: integer(random, 1, 5) }, () => anyWord(random)).join(' '),
      ];
      const style = integer(random, 0, 4);
      const bytes = (character: string) => [...Buffer.from(character, 'utf8')];
      const escaped = value
        .map((character) => {
          const code = character.codePointAt(0)!;
          if (code < 128 && random() < 0.7) return character;
          if (style === 0) return `\\u{${code.toString(16)}}`;
          if (style === 1)
            return bytes(character)
              .map((b) => `\\x${b.toString(16)}`)
              .join('');
          if (style === 2)
            return bytes(character)
              .map((b) => `\\${b.toString(8)}`)
              .join('');
          if (style === 3) return `&#x${code.toString(16).toUpperCase()};`;
          return `&#${code};`;
        })
        .join('');
      text += `${pick(random, ['"', "b'", "'", '<p>'])}${escaped}${pick(random, ['",\n', "'\n", '</p>\n', '" '])}`;
    }
    return text;
  },
  /** Application log lines: timestamps, levels, modules, key=value pairs, ids, durations. */
  'log-lines-structured': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      const level = pick(random, ['INFO', 'WARN', 'ERROR', 'DEBUG', 'info', 'error', 'W', 'E']);
      text += `${timestamp(random)} ${level} [${latinWord(random)}.${latinWord(random)}] ${capitalise(latinWord(random))} ${latinWord(random)} request_id=${hex(random, 8)}-${hex(random, 4)} user=${integer(random, 1, 999999)} ip=${integer(random, 1, 255)}.${integer(random, 0, 255)}.${integer(random, 0, 255)}.${integer(random, 0, 255)} took=${(random() * 2000).toFixed(integer(random, 0, 3))}ms status=${pick(random, [200, 201, 204, 301, 400, 404, 500, 503])}\n`;
    }
    return text;
  },
  /** Stack traces of Java, Python and JavaScript with deep package paths and line numbers. */
  'stack-traces-mixed': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      const kind = integer(random, 0, 2);
      const path = () =>
        Array.from(
          { length: integer(random, 2, 6) },
          () => latinWord(random).replace(/[^a-z]/g, '') || 'pkg',
        ).join(kind === 0 ? '.' : '/');
      if (kind === 0)
        text += `\tat ${path()}.${capitalise(latinWord(random))}${pick(random, ['', '$1', '$Builder'])}.${latinWord(random)}(${capitalise(latinWord(random))}.java:${integer(random, 1, 3000)})\n`;
      else if (kind === 1)
        text += `  File "/usr/lib/python3/${path()}.py", line ${integer(random, 1, 3000)}, in ${latinWord(random)}_${latinWord(random)}\n    ${latinWord(random)} = self.${latinWord(random)}(${latinWord(random)}, **kwargs)\n`;
      else
        text += `    at ${latinWord(random)}${capitalise(latinWord(random))} (file:///home/${latinWord(random)}/${path()}.js:${integer(random, 1, 999)}:${integer(random, 1, 99)})\n`;
    }
    return text;
  },
  /** SQL statements with mixed-case keywords, quoted identifiers, literals and parameters. */
  'sql-statements': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      const table = `${latinWord(random)}_${latinWord(random)}`;
      const columns = Array.from({ length: integer(random, 1, 6) }, () => `"${latinWord(random)}"`);
      const keyword = (k: string) => (random() < 0.3 ? k.toLowerCase() : k);
      text +=
        random() < 0.5
          ? `${keyword('SELECT')} ${columns.join(', ')} ${keyword('FROM')} ${table} ${keyword('WHERE')} ${latinWord(random)}_id = $${integer(random, 1, 9)} ${keyword('AND')} created_at > '${timestamp(random)}' ${keyword('ORDER BY')} 1 ${keyword('LIMIT')} ${integer(random, 1, 1000)};\n`
          : `${keyword('INSERT INTO')} ${table} (${columns.join(', ')}) ${keyword('VALUES')} (${columns.map(() => (random() < 0.5 ? `'${anyWord(random)}'` : String(integer(random, 0, 99999)))).join(', ')});\n`;
    }
    return text;
  },
  /** Hex dumps in xxd and od layouts: offsets, spaced byte groups, a printable column. */
  'hex-dumps': (random: Random, length: number) => {
    let text = '';
    let offset = integer(random, 0, 4096) * 16;
    const layout = integer(random, 0, 2);
    while (text.length < length) {
      const bytes = Array.from({ length: 16 }, () => integer(random, 0, 255));
      const printable = bytes
        .map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.'))
        .join('');
      const pairs = bytes.map((b) => b.toString(16).padStart(2, '0'));
      if (layout === 0) {
        const groups: string[] = [];
        for (let g = 0; g < 16; g += 2) groups.push(pairs[g]! + pairs[g + 1]!);
        text += `${offset.toString(16).padStart(8, '0')}: ${groups.join(' ')}  ${printable}\n`;
      } else if (layout === 1)
        text += `${offset.toString(16).padStart(8, '0')}  ${pairs.slice(0, 8).join(' ')}  ${pairs.slice(8).join(' ')}  |${printable}|\n`;
      else text += `${offset.toString(8).padStart(7, '0')} ${pairs.join(' ').toUpperCase()}\n`;
      offset += 16;
    }
    return text;
  },
  /** JSON Web Tokens and bearer headers: base64url segments joined by dots. */
  jwts: (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      const header = Buffer.from(
        JSON.stringify({ alg: pick(random, ['HS256', 'RS256', 'ES384']), typ: 'JWT' }),
      ).toString('base64url');
      const payload = Buffer.from(
        JSON.stringify({
          sub: hex(random, 12),
          name: anyWord(random),
          iat: integer(random, 1.6e9, 1.8e9),
          scope: latinWord(random),
        }),
      ).toString('base64url');
      text += `${pick(random, ['Authorization: Bearer ', 'token=', '"jwt": "', ''])}${header}.${payload}.${drawn(random, base64Url, pick(random, [43, 86, 342]))}\n`;
    }
    return text;
  },
  /** Markdown tables of words of any language, numbers, percentages and code spans. */
  'markdown-tables-mixed': (random: Random, length: number) => {
    const columns = integer(random, 2, 7);
    let text = `| ${Array.from({ length: columns }, () => capitalise(anyWord(random))).join(' | ')} |\n|${Array.from({ length: columns }, () => pick(random, ['---', ':---:', '---:'])).join('|')}|\n`;
    while (text.length < length) {
      const cells = Array.from({ length: columns }, () => {
        const kind = integer(random, 0, 4);
        return kind === 0
          ? anyWord(random)
          : kind === 1
            ? (random() * 1000).toFixed(integer(random, 0, 2))
            : kind === 2
              ? `${(random() * 100).toFixed(1)} %`
              : kind === 3
                ? `\`${latinWord(random)}_${latinWord(random)}()\``
                : `${anyWord(random)} ${anyWord(random)}`;
      });
      text += `| ${cells.join(' | ')} |\n`;
    }
    return text;
  },
  /** Unified diffs of code lines. */
  'diff-hunks': (random: Random, length: number) => {
    let text = `diff --git a/src/${latinWord(random)}.ts b/src/${latinWord(random)}.ts\nindex ${hex(random, 7)}..${hex(random, 7)} 100644\n`;
    while (text.length < length) {
      text += `@@ -${integer(random, 1, 900)},${integer(random, 1, 30)} +${integer(random, 1, 900)},${integer(random, 1, 30)} @@ ${latinWord(random)}\n`;
      for (let l = integer(random, 2, 8); l > 0; l--)
        text += `${pick(random, ['+', '-', ' '])}${'  '.repeat(integer(random, 0, 3))}const ${latinWord(random)}${capitalise(latinWord(random))} = ${latinWord(random)}(${integer(random, 0, 99)});\n`;
    }
    return text;
  },
  /** Shell command lines with flags, paths, pipes and environment variables. */
  'shell-lines': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      const path = `/${Array.from({ length: integer(random, 1, 5) }, () => latinWord(random)).join('/')}`;
      text += `$ ${pick(random, ['cd', 'ls -la', 'grep -rn', 'find', 'docker run --rm -e', 'kubectl get', 'git log --oneline'])} ${pick(random, ['', `${latinWord(random).toUpperCase()}_${latinWord(random).toUpperCase()}=${integer(random, 0, 9999)} `])}${path} ${pick(random, ['| head -n 20', '2>&1 | tee out.log', `--${latinWord(random)}-${latinWord(random)}=${integer(random, 1, 64)}`, '&& echo ok'])}\n`;
    }
    return text;
  },
  /** CSS rules: selectors of words, hex colours, units. */
  'css-rules': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      text += `.${latinWord(random)}-${latinWord(random)}${pick(random, ['', ':hover', ' > .item', '::before'])} {\n`;
      for (let p = integer(random, 1, 6); p > 0; p--)
        text += `  ${pick(random, ['color', 'margin', 'padding', 'background', 'border', 'font-size', 'grid-template-columns'])}: ${pick(random, [`#${hex(random, pick(random, [3, 6, 8]))}`, `${integer(random, 0, 64)}px ${integer(random, 0, 64)}px`, `${(random() * 4).toFixed(2)}rem`, `rgba(${integer(random, 0, 255)}, ${integer(random, 0, 255)}, ${integer(random, 0, 255)}, 0.${integer(random, 1, 9)})`, `repeat(${integer(random, 1, 12)}, 1fr)`])};\n`;
      text += '}\n';
    }
    return text;
  },
  /** Mixed-script prose with numbers, units and punctuation glued on (`123km/h`, `x2`, `(v3.1)`). */
  'words-digits-punctuation': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      const kind = integer(random, 0, 5);
      text +=
        kind === 0
          ? `${integer(random, 0, 9999)}${pick(random, ['km/h', 'kg', '%', 'ms', 'GB', '€', 'x'])}`
          : kind === 1
            ? `(${anyWord(random)}${pick(random, ['', ' v', '#'])}${integer(random, 0, 99)}.${integer(random, 0, 9)})`
            : kind === 2
              ? `${anyWord(random)}${pick(random, ['!', '?', '...', ':', ';', '—', '»', '”'])}`
              : kind === 3
                ? `${anyWord(random)}${integer(random, 0, 999)}`
                : anyWord(random);
      text += pick(random, [' ', ' ', ' ', '\n', ', ', '']);
    }
    return text;
  },
  /** Base32, Crockford and UUID-without-hyphen keys, lower or upper case, in config lines. */
  'keys-other-alphabets': (random: Random, length: number) => {
    let text = '';
    while (text.length < length) {
      const kind = integer(random, 0, 2);
      const key =
        kind === 0
          ? drawn(random, [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'], integer(random, 16, 64))
          : kind === 1
            ? drawn(random, [...'0123456789abcdefghjkmnpqrstvwxyz'], integer(random, 10, 40))
            : hex(random, 32);
      text += `${latinWord(random).toUpperCase()}_${pick(random, ['KEY', 'SECRET', 'ID', 'TOKEN'])}=${random() < 0.5 ? key.toLowerCase() : key}\n`;
    }
    return text;
  },
};

export type UnseenClass = keyof typeof generators;
export const unseenClasses = Object.keys(generators) as UnseenClass[];

export interface UnseenSample {
  text: string;
  class: UnseenClass;
}

/**
 * `perClass` texts of each class from `seed`, log-uniform over `minLength`-`maxLength` characters.
 * Each class draws from its own generator, so adding a class does not change the others' texts.
 */
export function unseenSamples(
  seed: number,
  perClass: number,
  minLength = 20,
  maxLength = 2000,
  classes: readonly UnseenClass[] = unseenClasses,
): UnseenSample[] {
  const out: UnseenSample[] = [];
  for (const [index, name] of unseenClasses.entries()) {
    if (!classes.includes(name)) continue;
    const random = seededRandom(Math.imul(seed ^ 0x1b873593, 31) + index * 0x9e3779b1);
    for (let i = 0; i < perClass; i++) {
      const length = Math.round(minLength * (maxLength / minLength) ** random());
      out.push({ text: cut(generators[name](random, length), length), class: name });
    }
  }
  return out;
}
