/**
 * Value-level tests shared by the redaction rules: what a placeholder, a template, a code reference or
 * a low-entropy string looks like. Kept apart from the rules so every rule rejects the same things.
 */

/** Shannon entropy in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const character of value) counts.set(character, (counts.get(character) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const probability = count / value.length;
    entropy -= probability * Math.log2(probability);
  }
  return entropy;
}

/**
 * True when `pattern` (global, case-insensitive) matches `value` with a match written in one case
 * (`dummy`, `DUMMY`, `Dummy`): a generated mixed-case body spells `duMMY` or `SaMPle` by chance.
 */
export function matchesInOneCase(pattern: RegExp, value: string): boolean {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(value); match; match = pattern.exec(value)) {
    const text = match[0];
    const letters = text.replace(/[^A-Za-z]/g, '');
    // Markers without letters (`****`, `...`) and slots in angle brackets (`<YourKey>`) are
    // placeholders in any case; a word marker (`your_`, `insert-`) in one case only: mixed
    // (`YOUr_`) is a random body's chance, about once in 3,000 Dropbox tokens.
    if (
      letters === '' ||
      text.startsWith('<') ||
      letters === letters.toLowerCase() ||
      letters === letters.toUpperCase() ||
      letters === letters[0]!.toUpperCase() + letters.slice(1).toLowerCase()
    ) {
      return true;
    }
    if (text.length === 0) pattern.lastIndex++;
  }
  return false;
}

// `xxxx` and `your` mark a placeholder where they stand apart (`sk-xxxx`, `YOUR_KEY`, `yourkeyhere`);
// inside a generated body they are chance (`…d6ZZO2BiYourd…`, one value in ~100,000). A blank
// `____` to fill in stands apart too (`sk-____`, `____-key`); between characters of a body it is
// base64url of 0xff bytes (`…SYHg_____w4…`), which binary tokens hold. The same for
// `null`, `tbd`, ... between a password's symbols (`S%Tbd&sx`): a marker word stands between
// separators.
const placeholderWords =
  /(?:(?<![A-Za-z0-9])x{4}x*|x{4}x*(?![A-Za-z0-9])|x{6}x*|\*{3,}|\.{3,}|#{4}#*|(?<![A-Za-z0-9_-])_{4}_*|_{4}_*(?![A-Za-z0-9_-])|_{12}_*|(?<![A-Za-z0-9])your[_-]?|your[_-]|example|placeholder|changeme|change_me|redacted|dummy|insert|replace[_-]?me|sample|<[^>]*>|(?<=^|[\s_\-./:'"])(?:null|none|undefined|todo|tbd)(?=$|[\s_\-./:'"]))/gi;

const templatePatterns = [
  /^\$\{[^}]*\}?$/, // ${VAR}, ${VAR:-default}
  /^\$\{\{.*\}\}$/, // ${{ github.token }}
  /^#\{[^}]*\}$/, // Ruby/CoffeeScript interpolation #{value}
  /^\{\{.*\}\}$/, // {{ .Values.password }}
  /^\{[^{}]*\}$/, // {placeholder}
  /^\$\(.*\)?$/, // $(command)
  /^\$[A-Za-z_][\w]*$/, // $VAR
  /^\$\d$/, // $1
  /^%[A-Za-z_][\w]*%$/, // %VAR%
  /^%[sdr]$/, // printf slot
  /^%\([\w]+\)[sdr]$/,
  /^<[^>]*>?$/, // <your-key>
  /^\[[A-Za-z][A-Za-z _-]*\]$/, // [password], [YOUR API KEY]: a slot named in words
  /^\[REDACTED(?::[\w-]+)?\]$/, // already redacted by us
];

/** True for values that are templates or environment references rather than a literal secret. */
export function isTemplate(value: string): boolean {
  // `{ZqL5kVrX1n8tA2}`, `{dolFAOZgLjjsdd}`: braces around a random literal (both cases, and digits
  // or capitals that start no word) are decoration; `{userName}` is a template slot.
  if (
    /^\{[A-Za-z0-9]{8}[A-Za-z0-9]*\}$/.test(value) &&
    /[a-z]/.test(value) &&
    /[A-Z]/.test(value) &&
    (/\d/.test(value) || !/^\{(?:[a-z]+|[A-Z][a-z]+)(?:[A-Z][a-z]+)*\}$/.test(value))
  ) {
    return false;
  }
  return templatePatterns.some((pattern) => pattern.test(value));
}

const sequences = [
  '0123456789',
  'abcdefghijklmnopqrstuvwxyz',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  '1234567890',
  'qwertyuiop',
];

/** True when one character makes up most of the value (`aaaa1111`, `AIzaaaaaaa`). */
export function isRepetitive(value: string): boolean {
  const core = value.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
  if (core.length === 0) return true;
  const counts = new Map<string, number>();
  for (const character of core) counts.set(character, (counts.get(character) ?? 0) + 1);
  const most = Math.max(...counts.values());
  return (core.length >= 8 && most / core.length > 0.5) || (counts.size <= 2 && core.length >= 4);
}

/** True for strings made of one repeated character or an alphabet/digit run. */
export function isLowVariety(value: string): boolean {
  const core = value.replace(/[^A-Za-z0-9]/g, '');
  if (core.length === 0) return true;
  const counts = new Map<string, number>();
  for (const character of core.toLowerCase())
    counts.set(character, (counts.get(character) ?? 0) + 1);
  const most = Math.max(...counts.values());
  if (core.length >= 8 && most / core.length > 0.5) return true;
  if (counts.size <= 2 && core.length >= 4) return true;
  const lowered = core.toLowerCase();
  // A run of 8+ consecutive characters (abcdefgh, 12345678) is typed, not generated.
  let run = 1;
  for (let index = 1; index < lowered.length; index++) {
    run = lowered.charCodeAt(index) === lowered.charCodeAt(index - 1) + 1 ? run + 1 : 1;
    if (run >= 8 && run * 2 >= lowered.length) return true;
  }
  for (const sequence of sequences) {
    const loweredSequence = sequence.toLowerCase();
    if (lowered.length >= 8 && loweredSequence.includes(lowered.slice(0, 8))) {
      if (lowered.length <= loweredSequence.length + 2) return true;
    }
  }
  return false;
}

// An ellipsis as a sentence or a display writes it: three dots or more, or `…`, in any run.
// `\.{3}\.*`, not `\.{3,}`: V8 keeps a backtrack entry per dot of an open-ended count, and a
// line of millions of dots overflowed its stack (RangeError); a plain `\.*` keeps none.
const ellipsis = String.raw`(?:\u2026+|\.{3}\.*)+`;
/** One ellipsis run anywhere in a value (to split a value into the pieces it shows). */
export const ellipsisRun = new RegExp(ellipsis);
/** An ellipsis run that ends a value. */
export const trailingEllipsis = new RegExp(`${ellipsis}$`);

/**
 * True for a name of words and its `=` or `:` (`password=`, `DB_PASSWORD:` between ellipses): the
 * next pair's key, no value. A drawn value ending in `=` (`aaqbo10=`, base64 padding) is no name.
 */
export function isPairKey(piece: string): boolean {
  return /^[A-Za-z_][\w.-]*[=:]$/.test(piece) && partsAreNames(piece.slice(0, -1));
}

/** True when the value reads as a placeholder someone is meant to replace. */
export function isPlaceholder(value: string): boolean {
  if (isTemplate(value)) return true;
  // An ellipsis at either end is where a sentence or a display cut the value, not a blank to fill in:
  // `password=<random>...` shows the secret's characters all the same, so the rest is judged alone.
  // A value showing nothing but ellipses, the next pair's key or a frame (`password=...`,
  // `...password=...`) is a placeholder, and so is a template cut short (`${DB_PASSWORD}…`).
  const cut = value.replace(endEllipses, '');
  if (cut !== value && (shownPieces(value).length === 0 || isTemplate(cut))) return true;
  if (matchesInOneCase(placeholderWords, cut)) return true;
  return isLowVariety(cut);
}

const endEllipses = new RegExp(`^${ellipsis}|${ellipsis}$`, 'g');

/**
 * The pieces an ellipsis leaves in view that may be a value's characters: not the frame around an
 * elided body (a piece with a space or an escaped line break: `-----BEGIN PRIVATE KEY-----\n...`),
 * nor the next pair's key (`...password=...`).
 */
export function shownPieces(value: string): string[] {
  const pieces = value.split(ellipsisRun);
  // Without an ellipsis the value is shown whole, whatever it looks like.
  if (pieces.length === 1) return value === '' ? [] : pieces;
  return pieces.filter((piece) => piece !== '' && !/\s|\\[nrt]/.test(piece) && !isPairKey(piece));
}

/**
 * True for unquoted values that are code, not data: `var.db_password`, `request.headers["x"]`,
 * `os.environ.get(...)`, `getToken()`.
 */
export function isCodeReference(value: string): boolean {
  // Optional chaining and non-null assertions (`req.headers?.x`, `form!.password`) are member access too.
  if (/^[A-Za-z_$][\w$]*(?:[?!]?\.[A-Za-z_$][\w$]*)+(?:\(|\[|$)/.test(value)) return true;
  // A template expression in JSX, Svelte, Phoenix or Razor (`{String.slice(@id, 0..7)}`, `{form.x}`),
  // Ruby/ERB (`#{x}`, `<%= x %>`): braces holding an expression, not a literal.
  if (/^(?:#|\$|%)?\{[^}]*[\s.(@:,]/.test(value) || /^<%/.test(value)) return true;
  if (/^[A-Za-z_$][\w$.]*[!?]?\(/.test(value)) return true;
  // A path expression (`std::env::var(…)`, `Key::from_slice(&b)`, `String::new()`, `Foo::BAR;`):
  // Rust, C++, PHP and Ruby name items with `::`.
  if (/^(?:::)?[A-Za-z_$][\w$]*(?:::[A-Za-z_$][\w$]*)+(?:[!?]?[({<;?]|$)/.test(value)) return true;
  // An expression led by a keyword: `await vault.read(…)`, `yield`, `typeof x`, `lambda: …`.
  if (/^(?:await|yield|typeof|async|lambda|function|return|require|import|new)$/.test(value)) {
    return true;
  }
  if (/^[A-Za-z_$][\w$.]*\[/.test(value)) return true;
  return false;
}

/** Letters, digits: how many character classes a value mixes (lower, upper, digit, symbol). */
export function characterClasses(value: string): number {
  let classes = 0;
  if (/[a-z]/.test(value)) classes++;
  if (/[A-Z]/.test(value)) classes++;
  if (/[0-9]/.test(value)) classes++;
  if (/[^A-Za-z0-9]/.test(value)) classes++;
  return classes;
}

/**
 * A random-looking token: long enough, mixes classes, high entropy, and is not a placeholder. Pure
 * hex of hash length (git SHAs, digests) and UUIDs are left alone unless a caller opts in.
 */
export function looksRandom(
  value: string,
  { minLength = 16, minEntropy = 3, allowHex = false } = {},
): boolean {
  if (value.length < minLength) return false;
  if (isPlaceholder(value)) return false;
  if (!allowHex && /^[0-9a-f]+$/i.test(value) && [32, 40, 56, 64, 96, 128].includes(value.length)) {
    return false;
  }
  if (!allowHex && isUuid(value)) return false;
  if (!/[0-9]/.test(value) && !/[A-Z]/.test(value.slice(1))) {
    // all-lowercase letters (with separators) are words or identifiers, not keys
    if (/^[a-z_.-]+$/.test(value)) return false;
  }
  if (/^[A-Za-z]+(?:[_.-][A-Za-z]+)+$/.test(value) && partsAreNames(value)) return false; // snake/dotted words
  if (/^[A-Z][a-z]+(?:[A-Z][a-z]+)+$/.test(value)) return false; // PascalCase words
  return shannonEntropy(value) >= minEntropy;
}

// A part of a name: words in any common case (`value`, `Value`, `VALUE`, `getValue`, `XMLParser`):
// lower-case runs of two or more letters between capitals, at most four capitals in a row. A part
// of random case (`hZEmnoOEYISjra…` after `hf_`) is generated.
const namePart = /^(?:[A-Z]{0,4}[a-z]{2,}(?:[A-Z]{1,4}[a-z]{2,})*[A-Z]{0,4}|[A-Z]+|[a-z]|\d{1,4})$/;

/**
 * True when a camel-humped part's humps read as words: a random-case body can fall into the hump
 * rhythm (`VongjNcebdadPzoxzrKqecwq`), but then most of its longer humps are unpronounceable
 * (`Pzoxzr`, `Kqecwq`) or it holds several acronym-like capital runs, while a name holds at most
 * the odd abbreviation (`parseHttpRequest`).
 */
export function humpsReadAsWords(part: string): boolean {
  // Three acronyms in one name (`XMLHttpURLForAWS`) are rare; a random-case body holds them often.
  if (part.length >= 16 && (part.match(/[A-Z]{2,}/g)?.length ?? 0) >= 3) return false;
  // Short names (`getHttpUrl`) may be mostly abbreviations; generated bodies are long.
  if (part.length < 16) return true;
  const humps = part.match(/[A-Z]?[a-z]+/g);
  if (!humps || humps.length < 3) return true;
  let long = 0;
  let unpronounceable = 0;
  for (const hump of humps) {
    if (hump.length < 4) continue;
    long++;
    if (!isPronounceable(hump) && !abbreviations.has(hump.toLowerCase())) unpronounceable++;
  }
  return unpronounceable * 3 <= long;
}

// Protocol and format names written as humps (`HttpJsonClient`, `SmtpMailer`): unpronounceable,
// yet in names everywhere. A random body spells one of these exact humps about once in 26^4.
const abbreviations = new Set(
  'http https html json jsonl smtp sftp mqtt grpc ldap ssml xhtml yaml toml pgsql mssql wsgi csrf xsrf hmac ntlm kerberos webrtc'.split(
    ' ',
  ),
);

/** True for a protocol or format name written as a word (`https`, `json`, `grpc`). */
export function isAbbreviation(word: string): boolean {
  return abbreviations.has(word.toLowerCase());
}

/** True when every `_`, `.` or `-` separated part of `value` reads as a name part. */
export function partsAreNames(value: string): boolean {
  return value.split(/[_.-]/).every((part) => namePart.test(part) && humpsReadAsWords(part));
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

// Words people type into sample tokens. Generated keys almost never contain two of them.
const sampleWords = new Set(
  (
    'hello world test testin testing pretty long token tokens prefix suffix need exactly chars else ' +
    'fail failing example sample dummy fake secret password value your here insert replace seems ' +
    'short shorty check checking length valid invalid wrong start right some other this that with ' +
    'must should only string random lorem ipsum mock placeholder changeme default'
  ).split(' '),
);

const sampleWordList = [...sampleWords].filter((word) => word.length >= 4);

/** True when the value is mostly typed words (`PREfix_helloworld380_testin`), not generated. */
export function looksLikeWords(value: string): boolean {
  const runs = value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((run) => run.length >= 4);
  let words = 0;
  for (const run of runs) {
    if (sampleWords.has(run)) words++;
    // Glued words: `helloworld`.
    else if (
      sampleWordList.some((word) => run.startsWith(word) && sampleWords.has(run.slice(word.length)))
    )
      words += 2;
  }
  return words >= 2;
}

// A run of letters reads as a word when it carries vowels (`y` counts: `sync`, `crypto`) and no
// long consonant cluster; a generated run (`fgrcjp`, `Ipw`) rarely does both.
function isPronounceable(letters: string): boolean {
  if (letters.length <= 2) return true;
  const lower = letters.toLowerCase();
  if (!/[aeiouy]/.test(lower)) return false;
  // Letter pairs English words almost never hold (`qo`, `vj`, `xx`, `jg`, `zk`) and clusters of four
  // consonants other than `ngth`/`ngst` (`length`, `strongest`).
  if (
    /q[^u]|j[^aeiouy]|v[^aeiouyr]|x[^aeiouyptch]|z[^aeiouyz]|([hjkqvwxy])\1|[fgjkqvz][bcdjkqvxz]/.test(
      lower,
    )
  ) {
    return false;
  }
  return !/[^aeiouy]{4}/.test(lower.replace(/ng(?:th|st)/g, 'ng'));
}

const shortWords = new Set([
  'id',
  'to',
  'by',
  'of',
  'on',
  'in',
  'is',
  'at',
  'or',
  'as',
  'up',
  'if',
  'db',
  'ok',
  'io',
  'no',
]);

// The consonants English words start with: a generated piece starts `Fcd`, `Vc`, `Bb`.
const onsets = new Set(
  'bl br ch cl cr dr dw fl fr gh gl gn gr kl kn kr ph pl pn pr ps qu rh sc sch scr sh shr sk sl sm sn sp spl spr squ st str sv sw th thr tr ts tw wh wr'.split(
    ' ',
  ),
);

function startsLikeWord(word: string): boolean {
  const cluster = /^[^aeiouy]*/i.exec(word)![0].toLowerCase();
  return cluster.length <= 1 || onsets.has(cluster) || onsets.has(cluster.slice(0, 3));
}

/** True when a run of three or more letters could be an English word: pronounceable, a word's onset. */
export function isWordShaped(letters: string): boolean {
  return letters.length >= 3 && isPronounceable(letters) && startsLikeWord(letters);
}

/**
 * True when a value with no spaces is built of words the way names are (`getUserName`,
 * `base64-encoded`, `AWS_SECRET_ACCESS_KEY`, `2024-01-01T00:00:00Z`, `application/vnd.api+json`).
 * Judged by shape, not entropy, so a generated value with few distinct characters
 * (`fgrcjpIoIIIaIpw3IgII`) still reads as generated. A part mixing both cases must be plain
 * camel case (`dbPassword`, `UserName`): capitals glued together or digits among mixed-case letters
 * are what a generated body looks like, whatever its entropy.
 */
export function readsAsWords(value: string): boolean {
  const parts = value.split(/[-_.:/+=~@,]+/).filter((part) => part !== '');
  if (parts.length === 0) return false;
  for (const part of parts) {
    if (/[^A-Za-z0-9]/.test(part)) return false;
    if (/^\d+$/.test(part)) continue;
    if (part === part.toLowerCase() || part === part.toUpperCase()) {
      // One case of letters: a word or a constant's name (`SECRET`, `tenant`, `AWS`, `npm`) with a
      // few numbers around it (`v1beta2`, `utf8`, `01T00`).
      const letterGroups = part.match(/[A-Za-z]+/g) ?? [];
      const digitGroups = part.match(/\d+/g) ?? [];
      const abbreviation = (group: string) => group.length <= 4 || isPronounceable(group);
      if (!letterGroups.every(abbreviation)) return false;
      // Numbers end or join words (`utf8`, `v1beta2`, a date's `01T00`); letters and digits that
      // keep switching (`2O71B16S`) are generated.
      const switches = part.match(/[A-Za-z](?=\d)|\d(?=[A-Za-z])/g)?.length ?? 0;
      const digits = digitGroups.join('').length;
      const hasWord = letterGroups.some((group) => group.length >= 3 && isPronounceable(group));
      if (switches > 3 || (switches > 1 && !hasWord && digits * 2 < part.length)) return false;
      // Three switches take a real word among them (`v1beta2`), not a pronounceable chance (`h18ikmk1`).
      const vowelShare = (group: string) =>
        group.replace(/[^aeiouAEIOU]/g, '').length / group.length;
      if (switches > 2 && !letterGroups.some((g) => g.length >= 4 && vowelShare(g) >= 0.4)) {
        return false;
      }
      continue;
    }
    if (!/^[A-Za-z]+$/.test(part)) return false;
    const words = part.match(/[A-Z]?[a-z]+|[A-Z]/g) ?? [];
    let counted = 0;
    let wordLetters = 0;
    let vowels = 0;
    for (let index = 0; index < words.length; index++) {
      const word = words[index]!;
      // The first word may be a two- or three-letter abbreviation (`dbPassword`, `jwtToken`), and
      // short function words join names (`userId`, `pathToFile`).
      if (index === 0 && word.length <= 3 && /^[a-z]{2}/.test(word)) continue;
      if (shortWords.has(word.toLowerCase())) continue;
      if (word.length < 3 || !isPronounceable(word) || !startsLikeWord(word)) return false;
      counted++;
      wordLetters += word.length;
      vowels += word.replace(/[^aeiouyAEIOUY]/g, '').length;
    }
    // A generated mixed-case value that happens to break at capitals does so into short pieces
    // with a fifth of their letters vowels; words are longer and carry more.
    if (wordLetters < 3.5 * counted || vowels < 0.2 * wordLetters) return false;
  }
  return true;
}
