/**
 * Names of the single-pass text features the heuristic weighs, in vector order. The fitting script
 * (`bench/fit-heuristic.ts`) and `estimateTokens` share this list.
 */
export const featureNames = [
  'latinWords',
  'latinLetters',
  'wordExcessOver6',
  'wordExcessOver12',
  'camelHumps',
  'upperPairs',
  'digits',
  'digitGroupsOf3',
  'letterDigitSwitches',
  'punctuation',
  'punctuationRuns',
  'singleSpaces',
  'spaceRuns',
  'spaceRunExcess',
  'newlines',
  'newlineRuns',
  'tabs',
  'cjk',
  'cjkRuns',
  'kana',
  'hangul',
  'cyrillic',
  'greek',
  'arabic',
  'indic',
  'thai',
  'latinExtended',
  'otherLetters',
  'symbols',
  'astral',
  'newlineRunsAfterWord',
  'mixedRunCharacters',
  'cyrillicWords',
  'greekWords',
  'arabicWords',
  'hangulWords',
  'emojiJoiners',
  'mixedRunDigits',
  'hexRunCharacters',
  'hebrew',
  'hebrewWords',
  'cyrillicWordExcessOver6',
] as const;

export const featureCount = featureNames.length;

/**
 * Slots after the fitted features: whitespace runs longer than the longest whitespace token.
 * Such runs are rare in real text, so the fit cannot weigh them, but a run of n spaces costs at
 * least n / 128 tokens in both encodings (their longest space token; in practice BPE leaves one more
 * past 80 spaces) and a run of newlines n / 16 (o200k) or n / 32 (cl100k), n / 8 with carriage
 * returns. These slots hold the tokens beyond the fitted one per run, added unweighted so long runs
 * are never undercounted.
 */
export const spaceRunOverflow = featureCount;
export const newlineRunOverflowO200k = featureCount + 1;
export const newlineRunOverflowCl100k = featureCount + 2;
export const extendedFeatureCount = featureCount + 3;

const runScratch = new Float64Array(9);

// Character classes of the scanner.
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const SPACE = 4;
const NEWLINE = 5;
const TAB = 6;
const PUNCT = 7;
const OTHER = 8;

const asciiClass = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  asciiClass[c] =
    c >= 97 && c <= 122
      ? LOWER
      : c >= 65 && c <= 90
        ? UPPER
        : c >= 48 && c <= 57
          ? DIGIT
          : c === 32
            ? SPACE
            : c === 10 || c === 13
              ? NEWLINE
              : c === 9
                ? TAB
                : c < 32 || c === 127
                  ? OTHER
                  : PUNCT;
}

/**
 * Adds the features of `text` into `into` (length `featureCount`) in one pass over its UTF-16
 * code units, and returns `into`.
 */
export function extractFeatures(
  text: string,
  into: Float64Array = new Float64Array(extendedFeatureCount),
): Float64Array {
  let previous = 0; // class of the previous ASCII char, 0 after a non-ASCII one
  let wordLength = 0;
  let digitRun = 0;
  let spaceRun = 0;
  let newlineRun = 0;
  let newlineRunHasReturn = false;
  let cjkRun = false;
  let atLineStart = false;
  // Alphanumeric run (letters and digits together) and its shape: long runs mixing cases and
  // digits (base64, keys, hashes) cost far more tokens per character than words.
  let alnumLength = 0;
  let alnumSwitches = 0;
  let alnumDigits = 0;
  // Whether the run holds only hexadecimal digits: hex costs fewer tokens per character than base64.
  let alnumHex = true;
  // The script of the current non-Latin letter run (21 Cyrillic, 22 Greek, 23 Arabic, 24 Hebrew,
  // 20 hangul) and its length: long Cyrillic words split into more tokens than short ones.
  let scriptRun = 0;
  let scriptRunLength = 0;
  const endScriptRun = () => {
    if (scriptRun === 21 && scriptRunLength > 6) into[41]! += scriptRunLength - 6;
    scriptRun = 0;
    scriptRunLength = 0;
  };
  const length = text.length;
  // Word and digit features (slots 0-8) of the current alphanumeric run, kept apart until the run
  // ends: a run that switches between cases and digits at least once per three characters (base64,
  // hex, keys, hashes; not camelCase identifiers) is charged by its own features instead, since
  // BPE cuts such runs into pieces of 1–3 characters whatever their word shape.
  const run = runScratch.fill(0);
  const endAlnum = () => {
    if (alnumLength >= 8 && alnumSwitches * 3 >= alnumLength) {
      into[alnumHex ? 38 : 31]! += alnumLength;
      into[37]! += alnumDigits;
    } else {
      for (let k = 0; k < 9; k++) into[k]! += run[k]!;
    }
    run.fill(0);
    alnumLength = 0;
    alnumSwitches = 0;
    alnumDigits = 0;
    alnumHex = true;
  };
  const endWord = () => {
    if (wordLength > 6) run[2]! += wordLength - 6;
    if (wordLength > 12) run[3]! += wordLength - 12;
    wordLength = 0;
  };
  const endDigits = () => {
    run[7]! += Math.ceil(digitRun / 3);
    digitRun = 0;
  };
  const endSpaces = () => {
    if (spaceRun === 1 && !atLineStart) into[11]! += 1;
    else if (spaceRun > 0) {
      into[12]! += 1;
      into[13]! += spaceRun - 1;
      // Past 80 spaces BPE leaves more than one token per run: about one per 128 spaces, plus one.
      if (spaceRun > 80) into[spaceRunOverflow]! += Math.ceil(spaceRun / 128);
    }
    spaceRun = 0;
  };
  const endNewlines = () => {
    const o200k = newlineRunHasReturn ? 8 : 16;
    const cl100k = newlineRunHasReturn ? 8 : 32;
    if (newlineRun > o200k) into[newlineRunOverflowO200k]! += Math.ceil(newlineRun / o200k) - 1;
    if (newlineRun > cl100k) into[newlineRunOverflowCl100k]! += Math.ceil(newlineRun / cl100k) - 1;
    newlineRun = 0;
    newlineRunHasReturn = false;
  };
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128) {
      const kind = asciiClass[code]!;
      if (kind !== SPACE && spaceRun > 0) endSpaces();
      if (kind !== NEWLINE && newlineRun > 0) endNewlines();
      if (kind !== DIGIT && digitRun > 0) endDigits();
      if (kind !== LOWER && kind !== UPPER && wordLength > 0) endWord();
      if (kind === LOWER || kind === UPPER || kind === DIGIT) {
        if (alnumLength > 0 && kind !== previous) alnumSwitches++;
        alnumLength++;
        if (kind === DIGIT) alnumDigits++;
        else if ((code | 32) > 102) alnumHex = false;
      } else if (alnumLength > 0) endAlnum();
      cjkRun = false;
      if (scriptRun !== 0) endScriptRun();
      switch (kind) {
        case LOWER:
        case UPPER:
          if (wordLength === 0) run[0]! += 1;
          wordLength++;
          run[1]! += 1;
          if (kind === UPPER && previous === LOWER) run[4]! += 1;
          if (kind === UPPER && previous === UPPER) run[5]! += 1;
          if (previous === DIGIT) run[8]! += 1;
          break;
        case DIGIT:
          digitRun++;
          run[6]! += 1;
          if (previous === LOWER || previous === UPPER) run[8]! += 1;
          break;
        case SPACE:
          spaceRun++;
          break;
        case NEWLINE:
          newlineRun++;
          if (code === 13) newlineRunHasReturn = true;
          if (code === 10) {
            into[14]! += 1;
            if (previous !== NEWLINE) into[15]! += 1;
          }
          // After punctuation both patterns glue newlines to the punctuation piece; after a word,
          // a number or spaces they form a piece (a token) of their own.
          if (
            previous === LOWER ||
            previous === UPPER ||
            previous === DIGIT ||
            previous === SPACE ||
            previous === TAB
          )
            into[30]! += 1;
          break;
        case TAB:
          into[16]! += 1;
          break;
        case PUNCT:
          into[9]! += 1;
          if (previous !== PUNCT) into[10]! += 1;
          break;
        default:
          into[28]! += 1;
      }
      atLineStart = kind === NEWLINE || (atLineStart && (kind === SPACE || kind === TAB));
      previous = kind;
      continue;
    }
    if (spaceRun > 0) endSpaces();
    if (newlineRun > 0) endNewlines();
    if (digitRun > 0) endDigits();
    if (wordLength > 0) endWord();
    if (alnumLength > 0) endAlnum();
    atLineStart = false;
    previous = 0;
    let isCjk = false;
    let script = 0;
    if (code >= 0xd800 && code <= 0xdbff) {
      into[29]! += 1;
      i++;
    } else if (
      (code >= 0x4e00 && code <= 0x9fff) ||
      (code >= 0x3400 && code <= 0x4dbf) ||
      (code >= 0xf900 && code <= 0xfaff)
    ) {
      into[17]! += 1;
      isCjk = true;
    } else if (code >= 0x3040 && code <= 0x30ff) {
      into[19]! += 1;
      isCjk = true;
    } else if (
      (code >= 0xac00 && code <= 0xd7af) ||
      (code >= 0x1100 && code <= 0x11ff) ||
      (code >= 0x3130 && code <= 0x318f)
    ) {
      into[20]! += 1;
      script = 20;
    } else if (code >= 0x0400 && code <= 0x052f) {
      into[21]! += 1;
      script = 21;
    } else if (code >= 0x0370 && code <= 0x03ff) {
      into[22]! += 1;
      script = 22;
    } else if (code >= 0x0600 && code <= 0x06ff) {
      into[23]! += 1;
      script = 23;
    } else if (code >= 0x0590 && code <= 0x05ff) {
      // Hebrew apart from Arabic: o200k spends fewer tokens per Arabic letter.
      into[39]! += 1;
      script = 24;
    } else if (code >= 0x0900 && code <= 0x0dff) {
      into[24]! += 1;
    } else if (code >= 0x0e00 && code <= 0x0e7f) {
      into[25]! += 1;
    } else if (
      (code >= 0x00c0 && code <= 0x024f && code !== 0xd7 && code !== 0xf7) ||
      (code >= 0x1e00 && code <= 0x1eff)
    ) {
      into[26]! += 1;
    } else if (
      (code >= 0x0250 && code <= 0x036f) ||
      (code >= 0x0530 && code <= 0x058f) ||
      (code >= 0x10a0 && code <= 0x10ff) ||
      (code >= 0x0700 && code <= 0x08ff)
    ) {
      into[27]! += 1;
    } else if (code === 0x200d || code === 0xfe0f) {
      // Zero-width joiners and emoji presentation selectors inside emoji sequences.
      into[36]! += 1;
    } else {
      // General punctuation, CJK punctuation, box drawing, arrows, NBSP and other symbols.
      into[28]! += 1;
    }
    if (isCjk && !cjkRun) into[18]! += 1;
    cjkRun = isCjk;
    if (script !== scriptRun) {
      if (scriptRun !== 0) endScriptRun();
      if (script !== 0)
        into[
          script === 21 ? 32 : script === 22 ? 33 : script === 23 ? 34 : script === 24 ? 40 : 35
        ]! += 1;
    }
    scriptRun = script;
    scriptRunLength = script === 0 ? 0 : scriptRunLength + 1;
  }
  if (spaceRun > 0) endSpaces();
  if (newlineRun > 0) endNewlines();
  if (digitRun > 0) endDigits();
  if (wordLength > 0) endWord();
  if (alnumLength > 0) endAlnum();
  if (scriptRun !== 0) endScriptRun();
  return into;
}
