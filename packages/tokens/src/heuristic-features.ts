import {
  englishTrigramSurprisal,
  fillEnglishTrigramSurprisal,
} from './english-trigram-surprisal.js';
import { simplifiedOnlyHan, traditionalOnlyHan } from './han-forms.js';
import { isBareVocabularyWord } from './is-bare-vocabulary-word.js';
import {
  isVocabularyLength,
  isVocabularyWord,
  vocabularyMinimumLetters,
} from './is-vocabulary-word.js';
import { rareCyrillicPairs, rareLetterPairs, uncommonLetterPairs } from './rare-letter-pairs.js';
import { tokenFloor } from './token-floor.js';
import {
  isMergedInRuns,
  repeatCodeOf,
  repeatFreeUnits,
  tokensOfRepeatRun,
} from './tokens-of-repeat-run.js';

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
  'longScriptWords',
  'capitalScriptWords',
  'innerCapitalScriptLetters',
  'scriptLettersAfterThird',
  'russianLetters',
  'russianWords',
  'traditionalHan',
  'generatedLetters',
  'generatedCapitals',
  'traditionalHanRuns',
  'spacesBeforeDigits',
  'punctuationPieces',
  'rareLetterPairs',
  'indicWords',
  'sparseScriptLetters',
  'cyrillicRarePairs',
  'uncommonLetterPairs',
  'sparseIndic',
  'vietnameseLetters',
  'wordSurprisalOver12',
  'wordSurprisalOver24',
  'latinExtendedA',
  'familiarWordLatinExtended',
  'familiarWordLatinExtendedA',
  'randomWordLatinAccents',
  'wordSurprisalOver3PerLetter',
  'wordSurprisalOver4PerLetter',
  'bengali',
  'gujarati',
  'tamil',
  'telugu',
  'kannada',
  'malayalam',
  'sinhala',
  'myanmar',
  'khmer',
  'lao',
  'indicLettersAfterSixth',
  'joiningPunctuation',
  'arabicExtended',
  'joiningPunctuationBeforeUnfamiliar',
  'shortWordAccents',
  'vocabularyWords',
  'vocabularyPrefixRemainders',
  'vocabularyPrefixRemainderLettersOver6',
  'accentsInUncoveredText',
] as const;

export const featureCount = featureNames.length;

/**
 * Slots after the fitted features: whitespace runs longer than the longest whitespace token (tab
 * runs past 16 count in the space-run slot).
 * Such runs are rare in real text, so the fit cannot weigh them, but a run of n spaces costs at
 * least n / 128 tokens in both encodings (their longest space token; in practice BPE leaves one more
 * past 80 spaces) and a run of newlines n / 16 (o200k) or n / 32 (cl100k), n / 8 with carriage
 * returns. These slots hold the tokens beyond the fitted one per run, added unweighted so long runs
 * are never undercounted.
 */
export const spaceRunOverflow = featureCount;
export const newlineRunOverflowO200k = featureCount + 1;
export const newlineRunOverflowCl100k = featureCount + 2;
/** A floor under the o200k count, not a feature (token-floor.ts): estimateTokens never goes under it. */
export const tokenPairFloor = featureCount + 3;
/**
 * Tokens of runs of one character past their first `repeatFreeUnits` units (tokens-of-repeat-run.ts),
 * added unweighted; those units are left out of every other slot. Priced as words or punctuation,
 * `a` 10,000 times was estimated at 7,186 tokens against 1,250, a rule of 1,000 box lines at 840
 * against 63. Applied to cl100k's estimate too (its runs merge alike, from the same kind of text).
 */
export const repeatRunTokens = featureCount + 4;
/**
 * The part of `repeatRunTokens` from characters that o200k merges in runs (doublings): the floor
 * sees such a run as one piece, so these tokens are added to it; runs of other characters it cuts
 * at every unit itself.
 */
export const mergedRepeatRunTokens = featureCount + 5;
export const extendedFeatureCount = featureCount + 6;

const runScratch = new Float64Array(22);
// Letters of a word of an alphabetic script (Hangul: syllables) past which a run without spaces is
// priced as several words (see the script-run split in extractFeatures).
const scriptWordLetters = 12;
const hangulWordLetters = 6;
// Letters from which a word piece of a run with digits is priced as a word (see endAlnum): the
// letter stretches of hex keys and versions are mostly shorter.
const digitRunWordLetters = 4;
// Bits of English surprisal a word piece may carry before it is priced as more than one token (see
// the word-surprisal features): English words up to about 12 bits are nearly always one o200k token.
const surprisalKnee = 12;
const fnvOffset = 0x811c9dc5;
const fnvPrime = 0x01000193;
const surprisalSecondKnee = 24;
// Bits per letter transition (word boundaries included) above which a word piece's surprisal is
// priced again: frequent English words, however long, average under 3 bits (one o200k token up to
// ~9 letters, 1.2 at 10-13), while German, Italian, Polish, Basque or Finnish words of 8+ letters
// average 3.5-4.5 and cost one more token per 10-15 bits. The fixed knees alone price a long English
// word like a foreign one: identifiers of English words were overcounted by 10 %, and a fit that
// lowered the knees' weights undercounted other languages' words.
const surprisalPerLetter = 3;
const surprisalPerLetterHigh = 4;
const trigramBoundary = 26;
// Bits of English surprisal per letter from which a word reads as random letters (uniformly random
// letters average about 7; words of other languages 3-4).
const randomLetterBits = 6;
// Cyrillic counts of one text (letters, words, letters past 6 in a word, words past 3 letters,
// letters past the third, capitalised words, further capitals), kept apart until the end of the
// text decides whether they are charged as Russian or as other Cyrillic.
const cyrillicScratch = new Float64Array(7);
// Frequent characters whose Simplified and Traditional forms differ (pairs in the same order).
const simplifiedForms =
  '们这个来说为时会国对过与开关无从点变体机将现发经进种问题实学当档设选择输显错误资讯网页认请让给应该样长门见头员车东书义乐买亲产动电话语写读号码线络数据储务执级';
const traditionalForms =
  '們這個來說為時會國對過與開關無從點變體機將現發經進種問題實學當檔設選擇輸顯錯誤資訊網頁認請讓給應該樣長門見頭員車東書義樂買親產動電話語寫讀號碼線絡數據儲務執級';
// -1 = only Simplified, +1 = only Traditional, indexed from U+4E00 (a branch-free table: lookups
// with branches per Han character made estimates of Chinese text five times slower).
const hanFormBase = 0x4e00;
const hanForms = new Int8Array(0xa000 - hanFormBase);
// Feature slots of the Indic blocks (U+0900-U+0DFF, 128 code points each): Devanagari (indic),
// Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala. Gurmukhi and Oriya
// share the sparse-Indic slot: few merges in o200k (about 0.64 tokens per character).
const indicSlots = [24, 69, 59, 70, 59, 71, 72, 73, 74, 75];
const cyrillicSlots = [21, 32, 41, 42, 45, 43, 44];
const russianMarkerDensity = 0.015;
const russianSlots = [46, 47, 41, 42, 45, 43, 44];

// Character classes of the scanner.
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const SPACE = 4;
const NEWLINE = 5;
const TAB = 6;
const PUNCT = 7;
const OTHER = 8;

// A letters-only run of at least this many letters is read as generated (a key, an id, random
// letters) rather than as words when at least one in `generatedRarePairShare` of its letter pairs is
// rare in English (and at least two are): random letters make a rare pair 37 % of the time, words
// 0.7 %. BPE cuts such runs into pieces of 1-3 letters (o200k: 0.52 tokens per random lower-case
// letter, 0.62 with a capital every few letters), while the word features price them as one word:
// random lower-case runs of 40+ letters were undercounted by 94 %, letter keys with a camelCase-like
// rhythm by 45 %.
const generatedMinimumLetters = 6;
const generatedRarePairShare = 8;
// ... and when its letters are as surprising, per letter transition under the English trigram model,
// as random letters nearly are (random lower-case letters average about 7 bits, camelCase-rhythm
// keys more): words of languages that write pairs English seldom does (Polish rz, cz, szcz; Hungarian
// gy, sz, zs) make a rare pair often enough to pass the share above, but average 3.5-4.5 bits, and
// BPE holds them in pieces of 3-6 letters (Polish 10-letter words: 3.6 tokens, priced as random
// letters 5.0).
const generatedLetterBits = 5;
// Bulgarian writes ъ as a vowel (1.7 % of its letters; Russian 0.06 %): each one past the first
// cancels three Russian-only letters, so ы or э scattered into Bulgarian text (2 % of its letters:
// -19 % aggregate) do not price it as Russian. The first is spared: one Russian объект or объём in a
// short string would price it as other Cyrillic (Russian MAPE 9.2 % -> 9.5 %, five seeds).
const russianMarkersPerHardSign = 3;
// The rare pairs by character codes (first letter's code << 7 | second's), either case first and a
// lower-case second: one lookup per letter, no case folding in the scan.
// Pairs English writes seldom by the same codes: 2 in the same table (a pair is one or the other).
const rareCodePairs = new Uint8Array(128 * 128);

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

// The tables above are filled on the first estimate, not at import: filling them (and the trigram
// table) was about half of the package's import time, spent also by processes that only count
// exactly.
let tablesFilled = false;

function fillTables(): void {
  tablesFilled = true;
  fillEnglishTrigramSurprisal();
  for (const character of simplifiedForms) hanForms[character.charCodeAt(0) - hanFormBase] = -1;
  for (const character of traditionalForms) hanForms[character.charCodeAt(0) - hanFormBase] = 1;
  // The pairs above alone left 17 % of Traditional UI strings with 5+ Han characters (catalogues
  // the list below was not derived from) without a Traditional-only character, priced as
  // Simplified: -15 % on such strings. The derived lists hold the ~500 most frequent characters of
  // each form.
  for (const character of simplifiedOnlyHan) hanForms[character.charCodeAt(0) - hanFormBase] = -1;
  for (const character of traditionalOnlyHan) hanForms[character.charCodeAt(0) - hanFormBase] = 1;
  for (let first = 0; first < 26; first++)
    for (let second = 0; second < 26; second++) {
      const rare = rareLetterPairs[first * 26 + second] === 1 ? 1 : 0;
      const uncommon = uncommonLetterPairs[first * 26 + second] === 1 ? 2 : 0;
      // Either case first and a lower-case second; uncommon wins where a pair is both (as before).
      if (uncommon || rare) {
        rareCodePairs[((97 + first) << 7) | (97 + second)] = uncommon || rare;
        rareCodePairs[((65 + first) << 7) | (97 + second)] = uncommon || rare;
      }
    }
}

/**
 * Adds the features of `text` into `into` (length `featureCount`) in one pass over its UTF-16
 * code units, and returns `into`.
 */
export function extractFeatures(
  text: string,
  into: Float64Array = new Float64Array(extendedFeatureCount),
): Float64Array {
  if (!tablesFilled) fillTables();
  let previous = 0; // class of the previous ASCII char, 0 after a non-ASCII one
  // Length of the current punctuation run and whether a letter came right before it.
  let punctuationRun = 0;
  let letterBeforePunctuation = false;
  // Whether the current word piece opened after a joining punctuation character.
  let joinedWord = false;
  let tabRun = 0;
  let wordLength = 0;
  // Whether the word piece opened at a capital after a lower-case letter (a camelCase hump; see
  // endWord).
  let humpPiece = false;
  // Capitals in a row (see the upper-pairs feature).
  let upperRun = 0;
  let digitRun = 0;
  let spaceRun = 0;
  let newlineRun = 0;
  let newlineRunHasReturn = false;
  let cjkRun = false;
  // Whether the last non-ASCII character was a letter of another script (not a symbol or emoji):
  // a newline after it is a piece of its own, as after a Latin word, and the next line's first word
  // loses the space it would have merged with (привет мир 3 tokens, привет + newline + мир 5).
  let afterScriptLetter = false;
  let atLineStart = false;
  // Alphanumeric run (letters and digits together) and its shape: long runs mixing cases and
  // digits (base64, keys, hashes) cost far more tokens per character than words.
  let alnumLength = 0;
  let alnumSwitches = 0;
  let alnumDigits = 0;
  // Transitions that camelCase identifiers rarely make and random keys make often: upper-case
  // followed by upper-case, letters next to digits, one lower-case letter between capitals. Case
  // switches alone also fire on identifiers of short words (`neSourceMap`), which BPE splits into
  // whole words, not into pieces of 1-3 characters.
  let alnumIrregular = 0;
  let lowerRun = 0;
  // Whether the run holds only hexadecimal digits: hex costs fewer tokens per character than base64.
  let alnumHex = true;
  // Letters of the run, its capitals, and its pairs of letters whose second is lower-case (a capital
  // after a lower-case letter starts a word of a camelCase identifier: not a pair), how many of them
  // rare in English; `previousLetterCode` is the last letter's code, 0 after a digit.
  let alnumCapitals = 0;
  let alnumPairs = 0;
  let alnumRarePairs = 0;
  let alnumUncommonPairs = 0;
  let alnumUpperRarePairs = 0;
  let alnumUpperUncommonPairs = 0;
  // English surprisal of the run's word pieces and their letter transitions (see generatedLetterBits).
  let alnumSurprisal = 0;
  let alnumTransitions = 0;
  let previousLetterCode = 0;
  // The run's rare and uncommon pairs before the current word piece (its own are the difference).
  let pieceRarePairs = 0;
  let pieceUncommonPairs = 0;
  // The word piece's last two letters (0-25, 26 = word start) and its bits of surprisal under a
  // trigram model of English words. BPE vocabularies are built from the most frequent character
  // sequences, mostly English: a word piece English letters would make cheaply is one token however
  // long, one whose letters English seldom strings together (Italian -zioni, Finnish -ssä, Basque,
  // Indonesian) is cut into a piece at about every surprising letter. The rare-pair features see only
  // pairs English almost never writes; the trigram model also prices common pairs in uncommon
  // company and word starts and ends English does not use.
  let trigramFirst = trigramBoundary;
  let trigramSecond = trigramBoundary;
  let wordSurprisal = 0;
  // Accented letters of the word piece (Latin-1, Latin Extended), charged when it ends: in a word
  // whose other letters English strings together often (não, für, società) BPE has merged the accent
  // into the surrounding pieces; in an unfamiliar word (made-up words, włączyć) it is a piece, or two
  // bytes, of its own.
  let wordAccents = 0;
  let wordExtendedAccents = 0;
  let wordVietnamese = 0;
  // FNV-1a hash of the word piece's letters so far, looked up in o200k's whole-word tokens after
  // each letter from the fifth: the longest start of the piece that is a whole word (0 = none).
  let wordHash = fnvOffset;
  let vocabularyPrefix = 0;
  // Whether the word piece opened after a space: o200k's whole-word tokens are mostly space-led,
  // and a piece without one (a text's or a line's first word, a camelCase hump, a word after a
  // digit, punctuation or another script) is asked of its bare words. Asked of the space-led ones,
  // `buenos` was one token against three, and URL slugs of words (`/buenos-dias`) were
  // undercounted by 8 %.
  let pieceSpaceLed = false;
  const isPieceVocabularyWord = (hash: number, letters: number) =>
    pieceSpaceLed ? isVocabularyWord(hash) : isBareVocabularyWord(hash, letters);
  // Capitals of the word piece charged past the third in a row (see the upper-case surcharge).
  let wordCapitalSurcharge = 0;
  // Words of 5+ letters, how many of them open with a word o200k holds whole, and the accents charged
  // to longer words: how well the vocabulary covers the text's language (see the end of the scan).
  let coverableWords = 0;
  let coveredWords = 0;
  let chargedAccents = 0;
  // The script of the current non-Latin letter run (21 Cyrillic, 22 Greek, 23 Arabic, 24 Hebrew,
  // 25 Indic, 20 hangul) and its length: long Cyrillic words split into more tokens than short ones.
  let scriptRun = 0;
  let scriptRunLength = 0;
  // Rare Cyrillic pairs of the current run: random letters, priced by them, are not words run
  // together.
  let scriptRunRarePairs = 0;
  // The previous letter of a Cyrillic run as an index into the rare-pair table (а-я, case-folded),
  // -1 after any other character.
  let previousCyrillic = -1;
  // o200k holds far more whole Russian words than Ukrainian, Serbian or Bulgarian ones (per UI string
  // of 20+ characters, one weight set overcounted Russian by 14 % and undercounted Serbian by 8 %):
  // Cyrillic letters and words are charged as Russian when the text has letters only Russian uses
  // and none only the others use.
  const cyrillic = cyrillicScratch.fill(0);
  // Traditional Chinese costs o200k about 30 % more tokens per Han character than Simplified (runs
  // of Han characters of zh_TW and zh_CN UI strings: 0.97 against 0.74): Han characters, and their
  // runs, are charged as Traditional when the text holds more characters only Traditional writing
  // uses than ones only Simplified uses. Runs apart: with one run weight for both forms short
  // Traditional strings were undercounted by 11 % even when routed right.
  let hanCharacters = 0;
  let cjkRuns = 0; // runs of Han and kana, charged at the end by the form of the text's Han
  let traditionalBalance = 0;
  // Japanese kanji share forms with both; text with kana is Japanese whatever forms it uses.
  let kanaCharacters = 0;
  let russianMarkers = 0;
  let otherCyrillicMarkers = 0;
  let hardSigns = 0;
  // Words of one to three letters in alphabetic scripts are nearly always one token, and a capital
  // letter costs about half a token more than its lower-case form (measured per word length on
  // Cyrillic and Greek with o200k): a per-letter weight alone overcounts short words and undercounts
  // capitalised and upper-case ones.
  const endScriptRun = () => {
    if (scriptRun === 21) {
      if (scriptRunLength > 6) cyrillic[2]! += scriptRunLength - 6;
      if (scriptRunLength > 3) cyrillic[3]! += 1;
    } else if (scriptRun >= 22 && scriptRun <= 24 && scriptRunLength > 3) into[42]! += 1;
    scriptRun = 0;
    scriptRunLength = 0;
    scriptRunRarePairs = 0;
    previousCyrillic = -1;
  };
  // The run of one code unit (-1 for whitespace and digits, never a repeat run) and its length.
  let repeatCode = -1;
  let repeatLength = 0;
  const length = text.length;
  // Word and digit features (slots 0-8) of the current alphanumeric run, kept apart until the run
  // ends: a run that switches between cases and digits at least once per three characters (base64,
  // hex, keys, hashes; not camelCase identifiers) is charged by its own features instead, since
  // BPE cuts such runs into pieces of 1–3 characters whatever their word shape.
  const run = runScratch.fill(0);
  const endAlnum = () => {
    if (alnumLength >= 8 && alnumSwitches * 3 >= alnumLength && alnumIrregular * 6 >= alnumLength) {
      into[alnumHex ? 38 : 31]! += alnumLength;
      into[37]! += alnumDigits;
    } else if (
      alnumDigits === 0 &&
      alnumLength >= generatedMinimumLetters &&
      alnumRarePairs >= 2 &&
      alnumRarePairs * generatedRarePairShare >= alnumPairs &&
      alnumSurprisal >= generatedLetterBits * alnumTransitions
    ) {
      into[49]! += alnumLength;
      into[50]! += alnumCapitals;
    } else {
      for (let k = 0; k < 9; k++) into[k]! += run[k]!;
      // A letter pair that English almost never writes is almost never inside one token either:
      // BPE cuts a word there (made-up words, names, other languages written in a-z).
      // Runs with digits (hex, ids, versions) are cut at every letter/digit switch already, which
      // the digit features price; their letters are not words.
      if (alnumDigits === 0) {
        into[54]! += alnumRarePairs + alnumUpperRarePairs;
        into[58]! += alnumUncommonPairs + alnumUpperUncommonPairs;
        into[61]! += run[9]!;
        into[62]! += run[10]!;
        into[67]! += run[11]!;
        into[68]! += run[12]!;
      } else {
        // Except its word pieces: the split patterns cut letters from digits before any merge, so
        // a word glued to a number (`Bildverbesserung99`, `6Toegangsrechten`, `user_name2`) costs
        // what it costs alone; priced as an English word, identifiers of such words with digits
        // were undercounted by 17 % in aggregate.
        into[54]! += run[20]!;
        into[58]! += run[21]!;
        into[61]! += run[16]!;
        into[62]! += run[17]!;
        into[67]! += run[18]!;
        into[68]! += run[19]!;
      }
      into[84]! += run[13]!;
      into[85]! += run[14]!;
      into[86]! += run[15]!;
    }
    run.fill(0);
    alnumLength = 0;
    alnumSwitches = 0;
    alnumDigits = 0;
    alnumIrregular = 0;
    lowerRun = 0;
    alnumHex = true;
    alnumCapitals = 0;
    alnumPairs = 0;
    alnumRarePairs = 0;
    alnumUncommonPairs = 0;
    alnumUpperRarePairs = 0;
    alnumUpperUncommonPairs = 0;
    alnumSurprisal = 0;
    alnumTransitions = 0;
    previousLetterCode = 0;
    pieceRarePairs = 0;
    pieceUncommonPairs = 0;
  };
  const endWord = () => {
    // A hump that is a word (Name, Error, Buffer) costs what the same word costs after a space (1.04-
    // 1.13 tokens for English words of 3-8 letters against 1.02-1.07), so it is priced as a word; one
    // of one or two letters (the humps of keys and of getX, toID) keeps the hump weight. With one
    // weight for all humps, which the fit set from both, humps of words were overcounted by 0.2
    // tokens each (camelCase identifiers +10 %).
    if (humpPiece) {
      run[wordLength >= 3 ? 0 : 4]! += 1;
      humpPiece = false;
    }
    // Transitions the trigram model priced: non-ASCII letters (Vietnamese ones too) are not, and
    // neither is the word's end right after one (the model's context restarts there).
    const endsAtAccent = trigramSecond === trigramBoundary;
    const transitions = Math.max(
      1,
      wordLength + (endsAtAccent ? 0 : 1) - wordAccents - wordExtendedAccents - wordVietnamese,
    );
    const wholeSurprisal = endsAtAccent
      ? wordSurprisal
      : wordSurprisal +
        englishTrigramSurprisal[(trigramFirst * 27 + trigramSecond) * 27 + trigramBoundary]!;
    alnumSurprisal += wholeSurprisal;
    alnumTransitions += transitions;
    // A word o200k holds whole (5+ letters, see vocabulary-words.ts) is one token however long or
    // un-English its letters, and one that opens with such a word (Polish przygotowa|nia) costs that
    // token and about one more for a short rest: priced by length, English surprisal and accents,
    // words of languages with much web text that the vocabulary holds (German, Dutch, Polish: +75-90 %
    // on such words) were overcounted, and a fit balancing them against languages with little web
    // text (Sardinian, Tatar, Maltese) undercounted those by 10-15 %. A whole word as surprising as
    // random letters is left to the other features (a false hit of the table is likelier than a
    // token), and so is a word after joining punctuation that English would not spell: '_name' is a
    // token, '-parola' is '-' and pieces (identifiers of Polish or Dutch words were undercounted).
    if (wordLength >= vocabularyMinimumLetters) {
      coverableWords++;
      if (vocabularyPrefix > 0) coveredWords++;
    }
    if (
      vocabularyPrefix > 0 &&
      (vocabularyPrefix < wordLength || wordSurprisal < randomLetterBits * transitions) &&
      (!joinedWord || wordSurprisal <= surprisalKnee)
    ) {
      // An upper-case word o200k holds whole after a space (UPDATE, PRIMARY, DEFAULT: SQL keywords,
      // log levels) is one token like any other; after joining punctuation (the parts of
      // UPPER_SNAKE names) the vocabulary's space-led form says little, and the surcharge stays.
      if (wordCapitalSurcharge > 0 && vocabularyPrefix === wordLength && !joinedWord) {
        run[5]! -= wordCapitalSurcharge;
      }
      if (vocabularyPrefix < wordLength) {
        // The rest is a piece of its own: a short ending about a token, a long rest (compounds,
        // identifiers of joined words) more per letter past the sixth.
        const rest = wordLength - vocabularyPrefix;
        run[14]! += 1;
        if (rest > 6) run[15]! += rest - 6;
      }
      run[1]! -= wordLength;
      run[13]! += 1;
      joinedWord = false;
      wordAccents = 0;
      wordExtendedAccents = 0;
    } else {
      into[60]! += wordVietnamese;
      if (wordLength > 6) run[2]! += wordLength - 6;
      if (wordLength > 12) run[3]! += wordLength - 12;
      wordSurprisal = wholeSurprisal;
      const overKnee = Math.max(0, wordSurprisal - surprisalKnee);
      const overSecondKnee = Math.max(0, wordSurprisal - surprisalSecondKnee);
      const overPerLetter = Math.max(0, wordSurprisal - surprisalPerLetter * transitions);
      const overPerLetterHigh = Math.max(0, wordSurprisal - surprisalPerLetterHigh * transitions);
      run[9]! += overKnee;
      run[10]! += overSecondKnee;
      run[11]! += overPerLetter;
      run[12]! += overPerLetterHigh;
      // A piece of a run with digits is kept apart: it is priced only when long enough to be a
      // word rather than the letters of a hex key or a version (endAlnum).
      if (wordLength >= digitRunWordLetters) {
        run[16]! += overKnee;
        run[17]! += overSecondKnee;
        run[18]! += overPerLetter;
        run[19]! += overPerLetterHigh;
        run[20]! += alnumRarePairs + alnumUpperRarePairs - pieceRarePairs;
        run[21]! += alnumUncommonPairs + alnumUpperUncommonPairs - pieceUncommonPairs;
      }
      // '_name' is one token, '_nome' or '_parola' not: before a word English would not spell, the
      // joining punctuation is a piece of its own again (identifiers of Italian or German words were
      // undercounted by 10-13 % with every joining character priced as before English words).
      if (joinedWord) {
        if (wordSurprisal > surprisalKnee) {
          into[80]! -= 1;
          into[82]! += 1;
        }
        joinedWord = false;
      }
      if (wordAccents + wordExtendedAccents > 0) {
        // Words of one to three letters are nearly always one token whatever their accents (à, è, są,
        // más, où: 1.0-1.1 tokens in the catalogues of French, Italian, Polish, Spanish), as in the
        // other alphabetic scripts; the familiar-word weights, fitted on longer words, priced each
        // accent of these at about a token more (French 1-3 letter accented words +104 %).
        if (wordLength > 3) chargedAccents += wordAccents + wordExtendedAccents;
        if (wordLength <= 3) into[83]! += wordAccents + wordExtendedAccents;
        else if (wordSurprisal <= surprisalKnee) {
          into[64]! += wordAccents;
          into[65]! += wordExtendedAccents;
        } else if (wordSurprisal >= randomLetterBits * transitions)
          // Letters as surprising as random ones: no merges around the accent either.
          into[66]! += wordAccents + wordExtendedAccents;
        else {
          into[26]! += wordAccents;
          into[63]! += wordExtendedAccents;
        }
        wordAccents = 0;
        wordExtendedAccents = 0;
      }
    }
    pieceRarePairs = alnumRarePairs + alnumUpperRarePairs;
    pieceUncommonPairs = alnumUncommonPairs + alnumUpperUncommonPairs;
    wordVietnamese = 0;
    wordHash = fnvOffset;
    vocabularyPrefix = 0;
    wordCapitalSurcharge = 0;
    wordLength = 0;
    trigramFirst = trigramBoundary;
    trigramSecond = trigramBoundary;
    wordSurprisal = 0;
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
    if (code === repeatCode) {
      if (++repeatLength > repeatFreeUnits) continue;
    } else {
      if (repeatLength > repeatFreeUnits) endRepeat(repeatCode, repeatLength, into);
      repeatCode = repeatCodeOf(code);
      repeatLength = 1;
    }
    if (code < 128) {
      const kind = asciiClass[code]!;
      // Both split patterns give a digit no leading space (a word or punctuation takes one): the
      // space before a number is a token of its own.
      if (kind === DIGIT && previous === SPACE) into[52]! += 1;
      // A punctuation run takes the next letter's word as one piece ('.get', '(foo', '_id'); before
      // a digit, whitespace or the end it is a piece, so at least one token, of its own.
      if (previous === PUNCT && kind !== PUNCT && kind !== LOWER && kind !== UPPER) into[53]! += 1;
      if (kind !== SPACE && spaceRun > 0) endSpaces();
      if (kind !== NEWLINE && newlineRun > 0) endNewlines();
      if (kind !== DIGIT && digitRun > 0) endDigits();
      if (kind !== LOWER && kind !== UPPER && wordLength > 0) endWord();
      if (kind === LOWER || kind === UPPER || kind === DIGIT) {
        if (alnumLength > 0 && kind !== previous) {
          alnumSwitches++;
          if (kind === DIGIT || previous === DIGIT) alnumIrregular++;
          else if (kind === UPPER && lowerRun === 1 && alnumLength > 1) alnumIrregular++;
        } else if (alnumLength > 0 && kind === UPPER) alnumIrregular++;
        lowerRun = kind === LOWER ? lowerRun + 1 : 0;
        alnumLength++;
        if (kind === DIGIT) {
          alnumDigits++;
          previousLetterCode = 0;
        } else {
          // The x of a 0x prefix keeps a hex literal hex.
          if (
            (code | 32) > 102 &&
            !(code === 120 && alnumLength === 2 && text.charCodeAt(i - 1) === 48)
          )
            alnumHex = false;
          if (kind === UPPER) {
            alnumCapitals++;
            // Pairs inside upper-case words, case-folded: SQL keywords and constants are whole
            // tokens, made-up upper-case words split at their rare pairs as lower-case ones do.
            if (previous === UPPER) {
              const pair = rareCodePairs[(previousLetterCode << 7) | (code | 32)]!;
              alnumUpperRarePairs += pair & 1;
              alnumUpperUncommonPairs += pair >> 1;
            }
          } else if (previousLetterCode !== 0) {
            alnumPairs++;
            const pair = rareCodePairs[(previousLetterCode << 7) | code]!;
            alnumRarePairs += pair & 1;
            alnumUncommonPairs += pair >> 1;
          }
          previousLetterCode = code;
        }
      } else if (alnumLength > 0) endAlnum();
      cjkRun = false;
      if (scriptRun !== 0) endScriptRun();
      switch (kind) {
        case LOWER:
        case UPPER:
          // One punctuation character between two letter runs (snake_case, kebab-case, a.b) opens
          // the next word's piece, and BPE holds '_name', '-based', '.get' as one token far more
          // often than punctuation elsewhere: priced as other punctuation, identifiers of English
          // words were overcounted by 10 %.
          if (previous === PUNCT && punctuationRun === 1 && letterBeforePunctuation) {
            into[9]! -= 1;
            into[10]! -= 1;
            into[80]! += 1;
            joinedWord = true;
          }
          if (wordLength === 0) {
            run[0]! += 1;
            pieceSpaceLed = previous === SPACE;
          }
          // o200k's pattern ends a word piece where a capital follows a lower-case letter
          // (parse|Primary|Expression): the length excess is the piece's, not the identifier's.
          else if (kind === UPPER && previous === LOWER) {
            endWord();
            pieceSpaceLed = false;
          }
          wordLength++;
          wordHash = Math.imul(wordHash ^ code, fnvPrime);
          run[1]! += 1;
          {
            const letter = (code | 32) - 97;
            wordSurprisal +=
              englishTrigramSurprisal[(trigramFirst * 27 + trigramSecond) * 27 + letter]!;
            trigramFirst = trigramSecond;
            trigramSecond = letter;
          }
          if (isVocabularyLength(wordLength) && isPieceVocabularyWord(wordHash, wordLength))
            vocabularyPrefix = wordLength;
          if (kind === UPPER && previous === LOWER) humpPiece = true;
          // o200k holds upper-case words of up to three letters (acronyms: API, URL, SQL) whole about
          // as often as lower-case ones (1.0-1.06 tokens after a space); from the fourth capital in a
          // row each costs up to a fifth of a token more than its lower-case letter. Priced from the
          // second, upper-case words of three letters were overcounted by 13 %.
          upperRun = kind === UPPER ? (previous === UPPER ? upperRun + 1 : 1) : 0;
          if (upperRun > 3) {
            run[5]! += 1;
            wordCapitalSurcharge++;
          }
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
            previous === TAB ||
            (previous === 0 && afterScriptLetter)
          )
            into[30]! += 1;
          break;
        case TAB:
          into[16]! += 1;
          // Both encodings hold tab runs of up to 16 as one token and cut longer ones every 16:
          // real text has few such runs, and a fit that priced tabs by indentation alone estimated
          // 200 tabs at 1 token (cl100k) or 10 (o200k) against 13.
          tabRun = previous === TAB ? tabRun + 1 : 1;
          if (tabRun > 16 && tabRun % 16 === 1) into[spaceRunOverflow]! += 1;
          break;
        case PUNCT:
          into[9]! += 1;
          if (previous !== PUNCT) {
            into[10]! += 1;
            punctuationRun = 1;
            letterBeforePunctuation = previous === LOWER || previous === UPPER;
          } else punctuationRun++;
          break;
        default:
          into[28]! += 1;
      }
      atLineStart = kind === NEWLINE || (atLineStart && (kind === SPACE || kind === TAB));
      previous = kind;
      continue;
    }
    // An accented Latin letter is part of its word, as the split patterns' letter classes make it:
    // ended there, an accented word was priced as two or three words (Portuguese accented words
    // +70 %, German and Polish +25-30 %), and a fit that had to balance that against unaccented
    // words of other languages undercounted those (Italian, Romanian) by 10-20 %.
    if (isLatinLetter(code)) {
      // Letters only Vietnamese writes: o200k holds most Vietnamese syllables whole, so these cost
      // far less than the accented letters of European languages (priced alike, Vietnamese UI text
      // was overcounted by 45 %).
      // Latin-1's accented letters (French, Spanish, Portuguese, German, Nordic) are frequent enough
      // on the web for BPE to have merged them into many word pieces; the Latin Extended blocks'
      // (Polish ł ą ę, Czech ř ě, Romanian ș ț, Lithuanian ų ė, Esperanto ĉ ŝ) much less so.
      if (isVietnameseLetter(code)) wordVietnamese++;
      else if (code < 0x100) wordAccents++;
      else wordExtendedAccents++;
      if (previous !== LOWER && previous !== UPPER) {
        if (spaceRun > 0) endSpaces();
        if (newlineRun > 0) endNewlines();
        if (digitRun > 0) endDigits();
        if (alnumLength > 0) endAlnum();
        cjkRun = false;
        if (scriptRun !== 0) endScriptRun();
        run[0]! += 1;
        pieceSpaceLed = previous === SPACE;
      }
      // The letter itself is priced by its own weight, and the English trigram context restarts
      // after it as at a word start. Carried over the letter, it made pairs the word does not have
      // (Azerbaijani məlumat scored as mlumat, Polish włączyć as wczy): whole languages' familiar
      // words read as random letters, each accent priced as a piece of its own (Polish, Hungarian
      // and Azerbaijani UI text overcounted by 12-16 %).
      trigramFirst = trigramBoundary;
      trigramSecond = trigramBoundary;
      wordLength++;
      wordHash = Math.imul(wordHash ^ code, fnvPrime);
      if (isVocabularyLength(wordLength) && isPieceVocabularyWord(wordHash, wordLength))
        vocabularyPrefix = wordLength;
      run[1]! += 1;
      alnumLength++;
      alnumHex = false;
      previousLetterCode = 0;
      lowerRun = 0;
      atLineStart = false;
      previous = LOWER;
      continue;
    }
    // One space before a non-ASCII character is always part of its piece (a word of another script,
    // a symbol or emoji run): no token of its own, unlike one before a digit or a line end.
    if (spaceRun === 1 && !atLineStart) spaceRun = 0;
    else if (spaceRun > 0) endSpaces();
    if (newlineRun > 0) endNewlines();
    if (digitRun > 0) endDigits();
    if (wordLength > 0) endWord();
    if (alnumLength > 0) endAlnum();
    atLineStart = false;
    previous = 0;
    let isCjk = false;
    let script = 0;
    let indicSlot = 24;
    afterScriptLetter = true;
    if (code >= 0xd800 && code <= 0xdbff) {
      into[29]! += 1;
      afterScriptLetter = false;
      i++;
    } else if (
      (code >= 0x4e00 && code <= 0x9fff) ||
      (code >= 0x3400 && code <= 0x4dbf) ||
      (code >= 0xf900 && code <= 0xfaff)
    ) {
      hanCharacters++;
      if (code >= hanFormBase && code < 0xa000) traditionalBalance += hanForms[code - hanFormBase]!;
      isCjk = true;
    } else if (code >= 0x3040 && code <= 0x30ff) {
      into[19]! += 1;
      kanaCharacters++;
      isCjk = true;
    } else if (
      (code >= 0xac00 && code <= 0xd7af) ||
      (code >= 0x1100 && code <= 0x11ff) ||
      (code >= 0x3130 && code <= 0x318f)
    ) {
      into[20]! += 1;
      script = 20;
    } else if (code >= 0x0400 && code <= 0x052f) {
      cyrillic[0]! += 1;
      if (isRussianMarker(code)) russianMarkers++;
      else if (code === 0x044a || code === 0x042a) hardSigns++;
      else if (isOtherCyrillicMarker(code)) otherCyrillicMarkers++;
      script = 21;
    } else if (code >= 0x0370 && code <= 0x03ff) {
      into[22]! += 1;
      script = 22;
    } else if (code >= 0x0600 && code <= 0x06ff) {
      // Letters of the Arabic block past Arabic's own (U+0671-U+06EF) but Persian's پ چ ژ ک گ ی:
      // Urdu, Pashto, Sindhi, Kurdish and Uyghur, with far fewer merges in o200k, were undercounted
      // by 12-31 % at Arabic's rate.
      into[code >= 0x0671 && code <= 0x06ef && !isPersianLetter(code) ? 81 : 23]! += 1;
      script = 23;
    } else if (code >= 0x0590 && code <= 0x05ff) {
      // Hebrew apart from Arabic: o200k spends fewer tokens per Arabic letter.
      into[39]! += 1;
      script = 24;
    } else if (code >= 0x0900 && code <= 0x0dff) {
      // One weight per script block: o200k's merges per character differ by script (Hindi UI text
      // 0.36 tokens per character, Kannada 0.50, Gurmukhi 0.64), and one Indic weight overcounted
      // Hindi and Malayalam by 18 % while undercounting Kannada and Tamil by 6-8 %.
      indicSlot = indicSlots[(code - 0x0900) >> 7]!;
      into[indicSlot]! += 1;
      script = 25;
    } else if (
      (code >= 0x0e00 && code <= 0x0eff) ||
      (code >= 0x1000 && code <= 0x109f) ||
      (code >= 0x1780 && code <= 0x17ff)
    ) {
      // Thai, Lao, Myanmar and Khmer: written without spaces between words, each with a weight of
      // its own (Thai 0.46 tokens per character, Myanmar 0.53, Khmer 0.56, Lao 1.3: priced alike,
      // Thai was overcounted by 8 % and Lao, priced with the sparse scripts, by 10 %).
      into[code < 0x0e80 ? 25 : code < 0x0f00 ? 78 : code < 0x1100 ? 76 : 77]! += 1;
    } else if (
      (code >= 0x0f00 && code <= 0x0fff) ||
      (code >= 0x1200 && code <= 0x139f) ||
      (code >= 0x13a0 && code <= 0x13ff) ||
      (code >= 0x1800 && code <= 0x18af) ||
      (code >= 0xa000 && code <= 0xa4cf)
    ) {
      // Tibetan, Ethiopic, Cherokee, Mongolian, Yi: scripts with little web text have few
      // merges in the vocabulary, so their three UTF-8 bytes stay two or three tokens.
      into[56]! += 1;
    } else if (
      (code >= 0x02b0 && code <= 0x036f) ||
      (code >= 0x0530 && code <= 0x058f) ||
      (code >= 0x10a0 && code <= 0x10ff) ||
      (code >= 0x0700 && code <= 0x08ff)
    ) {
      into[27]! += 1;
    } else if (code === 0x200d || code === 0xfe0f) {
      // Zero-width joiners and emoji presentation selectors inside emoji sequences.
      into[36]! += 1;
      afterScriptLetter = false;
    } else {
      // General punctuation, CJK punctuation, box drawing, arrows, NBSP and other symbols.
      into[28]! += 1;
      afterScriptLetter = false;
    }
    if (isCjk && !cjkRun) cjkRuns++;
    cjkRun = isCjk;
    // A run longer than a word of its script is words run together (`непечатнымнепечатным`,
    // identifiers and slugs of words without spaces): priced as one word, it lost the per-word
    // charges BPE still pays (Russian catalogue words joined eight at a time were estimated at 0.61
    // of the exact count, Arabic 0.75, Hindi 0.82, Korean 0.88). Each further stretch of a word's
    // length is charged as a word of its own.
    if (
      script !== scriptRun ||
      (script !== 0 &&
        scriptRunLength >= (script === 20 ? hangulWordLetters : scriptWordLetters) &&
        scriptRunRarePairs * 8 <= scriptRunLength)
    ) {
      if (scriptRun !== 0) endScriptRun();
      if (script === 21) cyrillic[1]! += 1;
      else if (script !== 0)
        into[
          script === 22 ? 33 : script === 23 ? 34 : script === 24 ? 40 : script === 25 ? 55 : 35
        ]! += 1;
    }
    scriptRun = script;
    scriptRunLength = script === 0 ? 0 : scriptRunLength + 1;
    // Per word, o200k spends about a token on the first three Cyrillic, Greek or Arabic letters and
    // a quarter of a token on each further one: the per-letter weight is split so short words are
    // not overcounted.
    if (script === 21) {
      // As in Latin words, a pair no Cyrillic language writes often is a token boundary: made-up
      // and transliterated words priced as Russian words were undercounted by half. Not before a
      // capital: the split pattern cuts there after a lower-case letter, and the capital's own
      // charge holds the cuts of upper-case runs (o200k merges few upper-case pairs, of real words
      // or random: random letters with capitals read 22 % high).
      const folded =
        code >= 0x0430 && code <= 0x044f
          ? code - 0x0430
          : code >= 0x0410 && code <= 0x042f
            ? code - 0x0410
            : -1;
      if (previousCyrillic >= 0 && folded >= 0 && code >= 0x0430) {
        const rare = rareCyrillicPairs[previousCyrillic * 32 + folded]!;
        into[57]! += rare;
        scriptRunRarePairs += rare;
      }
      previousCyrillic = folded;
      if (scriptRunLength > 3) cyrillic[4]! += 1;
      if (isCapital(code)) cyrillic[scriptRunLength === 1 ? 5 : 6]! += 1;
    } else if (script === 25 && scriptRunLength > 6) {
      // Past its sixth character an Indic word costs less per character in every block (Malayalam
      // words of 16 characters 5.4 tokens, of 8 characters 3.5): long agglutinated words, priced
      // at their block's rate, were overcounted by a quarter.
      into[indicSlot]! -= 1;
      into[79]! += 1;
    } else if (script === 22 || script === 23) {
      if (scriptRunLength > 3) into[45]! += 1;
      if (script === 22 && isCapital(code)) into[scriptRunLength === 1 ? 43 : 44]! += 1;
    }
  }
  if (repeatLength > repeatFreeUnits) endRepeat(repeatCode, repeatLength, into);
  if (previous === PUNCT) into[53]! += 1;
  into[tokenPairFloor]! += tokenFloor(text);
  if (spaceRun > 0) endSpaces();
  if (newlineRun > 0) endNewlines();
  if (digitRun > 0) endDigits();
  if (wordLength > 0) endWord();
  if (alnumLength > 0) endAlnum();
  if (scriptRun !== 0) endScriptRun();
  // The accents of a Latin-script language whose words o200k seldom holds (Latvian, Lithuanian,
  // Crimean Tatar, Kurdish: 15-23 % of their 5+ letter words open with a whole-word token, against
  // 31-36 % for Polish, Hungarian, Czech and 80-95 % for French, Spanish, English) are seldom merged
  // into word pieces either, and cost more: English letter statistics cannot tell these languages
  // apart, and with the trigram context restarting after an accent (Polish, Hungarian, Azerbaijani
  // -3 to -8 points) the former went 1-4 points further under. The uncovered share starts from even
  // odds, so one or two words do not decide it.
  if (chargedAccents > 0)
    into[87]! += (chargedAccents * (coverableWords - coveredWords + 1)) / (coverableWords + 2);
  if (hanCharacters > 0) {
    const traditional = kanaCharacters === 0 && traditionalBalance > 0;
    into[traditional ? 48 : 17]! += hanCharacters;
    into[traditional ? 51 : 18]! += cjkRuns;
  } else into[18]! += cjkRuns;
  if (cyrillic[0]! > 0) {
    // The share charged as Russian grows with the density of its marker letters (about 2 per 100
    // letters of Russian prose; one ы in a word is enough for a short text), so one ы dropped into
    // a long Bulgarian text does not price all of it as Russian (it undercounted such text by 18 %).
    const russian =
      otherCyrillicMarkers > 0
        ? 0
        : Math.min(
            1,
            Math.max(0, russianMarkers - Math.max(0, hardSigns - 1) * russianMarkersPerHardSign) /
              Math.max(1, cyrillic[0]! * russianMarkerDensity),
          );
    for (let k = 0; k < russianSlots.length; k++) {
      into[russianSlots[k]!]! += cyrillic[k]! * russian;
      into[cyrillicSlots[k]!]! += cyrillic[k]! * (1 - russian);
    }
  }
  return into;
}

/** Charges a run of one character past its free units (see repeatRunTokens). */
function endRepeat(code: number, length: number, into: Float64Array): void {
  const tokens = tokensOfRepeatRun(code, length);
  into[repeatRunTokens]! += tokens;
  if (isMergedInRuns(code)) into[mergedRepeatRunTokens]! += tokens;
}

/** The letters Persian adds to the Arabic alphabet (ک and ی as Persian writes them). */
function isPersianLetter(code: number): boolean {
  return (
    code === 0x067e ||
    code === 0x0686 ||
    code === 0x0698 ||
    code === 0x06a9 ||
    code === 0x06af ||
    code === 0x06cc
  );
}

/**
 * Latin-1 and Latin Extended letters (not × or ÷), the IPA Extensions block, and the Latin Extended
 * Additional block. The IPA block holds letters several languages write in ordinary words
 * (Azerbaijani ə, 7 % of its letters; the ɛ and ɔ of West African orthographies): the split
 * patterns read them as letters of the word, and ended there they cut one word into two or three
 * (Azerbaijani UI text was overcounted by 16 %).
 */
function isLatinLetter(code: number): boolean {
  return (
    (code >= 0x00c0 && code <= 0x02af && code !== 0xd7 && code !== 0xf7) ||
    (code >= 0x1e00 && code <= 0x1eff)
  );
}

/**
 * Letters only Vietnamese writes: ơ, ư and the tone-marked vowels of U+1EA0–U+1EF9. Not ă (Romanian
 * writes it too: priced as Vietnamese, Romanian text was undercounted by 10 %) nor đ (Croatian).
 */
function isVietnameseLetter(code: number): boolean {
  return (
    (code >= 0x1ea0 && code <= 0x1ef9) ||
    code === 0x01a0 ||
    code === 0x01a1 ||
    code === 0x01af ||
    code === 0x01b0
  );
}

/** ы, э, ё (either case): letters of Russian (and Belarusian) that Ukrainian, Serbian and Bulgarian lack. */
function isRussianMarker(code: number): boolean {
  return (
    code === 0x044b ||
    code === 0x042b ||
    code === 0x044d ||
    code === 0x042d ||
    code === 0x0451 ||
    code === 0x0401
  );
}

/**
 * Any Cyrillic letter outside the Russian alphabet (а–я, ё): Ukrainian і ї є ґ, Serbian and Macedonian
 * ђ ј љ њ ћ џ ѓ ќ ѕ, Bulgarian ѝ, Belarusian ў, and the letters of Kazakh, Kyrgyz, Mongolian, Tatar and
 * other languages that write ы and э as Russian does (ө ү ң ә җ һ ӑ ӗ ҫ): not Russian.
 */
function isOtherCyrillicMarker(code: number): boolean {
  return (code < 0x0410 && code !== 0x0401) || (code > 0x044f && code !== 0x0451);
}

/** Upper-case Cyrillic (basic and extended blocks) or Greek letters. */
function isCapital(code: number): boolean {
  if (code >= 0x0400 && code <= 0x042f) return true;
  // Extended Cyrillic alternates capital (even) and small (odd) letters.
  if (code >= 0x0460 && code <= 0x052f) return (code & 1) === 0;
  return (
    (code >= 0x0391 && code <= 0x03ab) || code === 0x0386 || (code >= 0x0388 && code <= 0x038f)
  );
}
