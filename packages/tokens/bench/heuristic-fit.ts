// The heuristic's fit, shared by bench/fit-heuristic.ts (which writes the shipped weights) and
// bench/evaluate-heuristic-languages.ts (which refits without one language at a time): training
// samples with exact counts and non-negative least squares of relative error (iteratively reweighted
// towards absolute relative error), on the non-held-out real samples plus generated texts of the hard
// classes (base64, hex, UUIDs, minified code, other scripts, emoji, generated letter keys and random
// letters, short texts of half the system's Latin-script languages; fixed seed, so the fit is
// reproducible; the tests draw fresh seeds), each category weighted equally.
import { createRequire } from 'node:module';
import {
  extractFeatures,
  featureCount,
  featureNames,
  mergedRepeatRunTokens,
  newlineRunOverflowCl100k,
  newlineRunOverflowO200k,
  repeatRunTokens,
  spaceRunOverflow,
  tokenPairFloor,
} from '../dist/heuristic-features.js';
import { type CountedSample, countedSamples } from '../src/test-utils/heuristic-evaluation.ts';
import { holdoutSamples } from '../src/test-utils/holdout-class-texts.ts';
import {
  isFitLanguage,
  latinLanguageSamples,
  latinScriptLanguages,
} from '../src/test-utils/latin-script-languages.ts';
import { scriptLanguageSamples } from '../src/test-utils/script-language-texts.ts';
import { languageSamples, syntheticSamples } from '../src/test-utils/synthetic-texts.ts';

/** The seed of the generated training texts; the tests use other seeds. */
export const fitSeed = 20_261_123;
const syntheticPerClass = 150;
// Each generated class weighs this much against one real-text category: the real categories
// (prose, code, JSON, logs, CJK, other scripts) are what most messages hold.
// For o200k, 0.25: at 0.1 fresh Japanese, Arabic and Korean text was off by 9–11 % per text (worst
// of three seeds), at 0.25 by 6–7.5 %; real held-out text 6.5 % -> 6.9 % (0.3 crossed the 7 % target).
// cl100k, which the generated-class targets do not cover, keeps 0.1.
const generatedWeights = {
  o200k: Number(process.env.GENERATED_WEIGHT ?? 0.25),
  cl100k: Number(process.env.GENERATED_WEIGHT_CL100K ?? 0.1),
};
// How much more an undercount weighs than an overcount of the same size on the generated classes.
// At 1 whole classes (Cyrillic UI text: -14 %, Korean: -10 %) were undercounted on fresh text; at
// 2 no class is below -5 % (at the price of real-text MAPE 5.9 % -> 6.5 %, overcounting hex more).
const underWeight = Number(process.env.UNDER_WEIGHT ?? 2);
const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const o200kEncoder = tiktoken.get_encoding('o200k_base');
const cl100kEncoder = tiktoken.get_encoding('cl100k_base');
// Cyrillic languages that write ы or э besides letters of their own (Mongolian, Kyrgyz, Tatar, Kazakh,
// Belarusian) as one more generated class: left out, a refit that added classes moved the Cyrillic
// weights from letters to words and Tatar to -10 % aggregate (the tests hold them to -10 %). At the
// full weight of a generated class Cyrillic UI text went from 7.1 % to 7.6 % MAPE (seed 2026); at 0.3,
// 7.4 %, and Tatar is at -7.3 % (eight seeds).
const otherCyrillicShare = Number(process.env.OTHER_CYRILLIC_SHARE ?? 0.3);
const otherCyrillic = languageSamples(fitSeed, syntheticPerClass / 5, [
  'cyrillic-with-russian-letters',
]).map(({ text }) => ({ text, class: 'cyrillic-with-russian-letters' }));
// Short texts of the Indic, Thai, Lao, Khmer and Myanmar languages, and of the languages writing
// the Arabic block's extended letters, as one more generated class: with one weight per script block
// (heuristic-features.ts), the held-out classes' fit-seed draws left about five texts per Indic
// language (Malayalam stayed at +27 % on fresh text), and none of Urdu, Pashto, Sindhi, Kurdish or
// Uyghur.
const scriptLanguagePerLanguage = 20;
// The classes of holdout-class-texts.ts (pseudo-words, identifiers, numbers, URLs, logs, tables,
// short snippets of many scripts, ...) on the fit's seed, at a fraction of a generated class's
// weight each (there are 25 of them): the tests and the class evaluation draw other seeds.
const holdoutShare = Number(process.env.HOLDOUT_SHARE ?? 0.4);
// Short texts of the Latin-script languages the fit may draw (half of the system's, by name; the
// tests hold the weights to the other half), one class together: without them the weights follow
// English and the holdout class's twelve languages, and Latin-script languages they never saw
// (Basque, Lithuanian, Catalan, Kinyarwanda) were undercounted by 13–35 % in aggregate.
const latinShare = Number(process.env.LATIN_SHARE ?? 2);
const latinPerLanguage = 40;
// Undercounting weighs this much more than overcounting on those texts: the vocabulary holds many
// whole words of the languages with much web text (Spanish, German) and few of the others (Sardinian,
// Walloon, Asturian), which the English-letter features cannot tell apart; the heavier undercount
// weight keeps the latter from being undercounted beyond 10 % at the price of overcounting the
// former.
const latinUnderWeight = Number(process.env.LATIN_UNDER_WEIGHT ?? 2.5);

const generatedCache = new Map<string, CountedSample>();
/** `text` as a generated training sample of `name`, counted once per process. */
function generatedSample(text: string, name: string): CountedSample {
  const key = `${name}\0${text}`;
  let sample = generatedCache.get(key);
  if (!sample) {
    sample = {
      text,
      category: name,
      source: `generated:${name}`,
      o200k: o200kEncoder.encode_ordinary(text).length,
      cl100k: cl100kEncoder.encode_ordinary(text).length,
      heldOut: false,
    } as unknown as CountedSample;
    generatedCache.set(key, sample);
  }
  return sample;
}

/**
 * The fit's samples: real text (`heldOut` marks the ~30 % never fitted) and generated text of the
 * hard classes, none of it in the Latin-script languages of `leftOut` (base codes such as `it`).
 */
export function fitSamples(leftOut: ReadonlySet<string> = new Set()): CountedSample[] {
  const latin = new Set(latinScriptLanguages(0));
  const allowLocale = (locale: string) => {
    const language = locale.split(/[_@.]/)[0]!;
    return !latin.has(language) || (isFitLanguage(language) && !leftOut.has(language));
  };
  const holdout = holdoutSamples(fitSeed, syntheticPerClass / 2, undefined, allowLocale).map(
    ({ text, class: name }) => generatedSample(text, `holdout:${name}`),
  );
  const latinTexts = latinLanguageSamples(
    fitSeed,
    latinPerLanguage,
    latinScriptLanguages().filter((language) => allowLocale(language)),
  ).map(({ text }) => generatedSample(text, 'latin-languages'));
  return [
    ...countedSamples(),
    ...syntheticSamples(fitSeed, syntheticPerClass).map(({ text, class: name }) =>
      generatedSample(text, name),
    ),
    ...otherCyrillic.map(({ text, class: name }) => generatedSample(text, name)),
    ...scriptLanguageSamples(fitSeed + 1, scriptLanguagePerLanguage).map(({ text }) =>
      generatedSample(text, 'script-languages'),
    ),
    ...holdout,
    ...latinTexts,
  ];
}

const featureCache = new Map<CountedSample, Float64Array>();
const features = {
  get(sample: CountedSample): Float64Array {
    let x = featureCache.get(sample);
    if (!x) {
      x = extractFeatures(sample.text);
      featureCache.set(sample, x);
    }
    return x;
  },
};

function overflow(x: Float64Array, target: 'o200k' | 'cl100k'): number {
  return (
    x[repeatRunTokens]! +
    x[spaceRunOverflow]! +
    x[target === 'o200k' ? newlineRunOverflowO200k : newlineRunOverflowCl100k]!
  );
}

/** Minimises sum_i d_i (x_i . w - y_i)^2 over w >= 0 by coordinate descent on the normal equations. */
function nnls(rows: Float64Array[], targets: number[], rowWeights: number[]): Float64Array {
  const n = featureCount;
  const a = new Float64Array(n * n);
  const b = new Float64Array(n);
  rows.forEach((x, r) => {
    const d = rowWeights[r]!;
    for (let i = 0; i < n; i++) {
      if (x[i] === 0) continue;
      b[i]! += d * x[i]! * targets[r]!;
      for (let j = 0; j < n; j++) a[i * n + j]! += d * x[i]! * x[j]!;
    }
  });
  const w = new Float64Array(n);
  for (let sweep = 0; sweep < 5000; sweep++) {
    let change = 0;
    for (let i = 0; i < n; i++) {
      const diagonal = a[i * n + i]!;
      if (diagonal === 0) continue;
      let gradient = -b[i]!;
      for (let j = 0; j < n; j++) gradient += a[i * n + j]! * w[j]!;
      const next = Math.max(0, w[i]! - gradient / diagonal);
      change = Math.max(change, Math.abs(next - w[i]!));
      w[i] = next;
    }
    if (change < 1e-9) break;
  }
  return w;
}

// Features too rare in the training text to be fitted get a fixed prior instead (tokens per
// character, from how each tokenizer treats the script), so unseen scripts never count as free.
const minimumSupport = 300;
const priors: Record<'o200k' | 'cl100k', Partial<Record<(typeof featureNames)[number], number>>> = {
  o200k: {
    greek: 0.45,
    arabic: 0.35,
    hebrew: 0.35,
    latinExtended: 0.6,
    latinExtendedA: 0.8,
    otherLetters: 0.8,
    astral: 1.5,
    cyrillic: 0.3,
    indic: 0.4,
    thai: 0.4,
    sparseScriptLetters: 2,
    vietnameseLetters: 0,
    bengali: 0.45,
    gujarati: 0.45,
    tamil: 0.5,
    telugu: 0.5,
    kannada: 0.5,
    malayalam: 0.45,
    sinhala: 0.55,
    myanmar: 0.55,
    khmer: 0.55,
    lao: 1.3,
    indicLettersAfterSixth: 0.35,
    joiningPunctuation: 0.2,
    arabicExtended: 0.8,
    joiningPunctuationBeforeUnfamiliar: 0.5,
  },
  cl100k: {
    greek: 0.9,
    arabic: 0.8,
    hebrew: 0.8,
    latinExtended: 0.8,
    latinExtendedA: 1,
    otherLetters: 1.2,
    astral: 2,
    cyrillic: 0.6,
    indic: 1.2,
    thai: 1,
    sparseScriptLetters: 2.5,
    vietnameseLetters: 1,
    bengali: 1.4,
    gujarati: 1.4,
    tamil: 1.4,
    telugu: 1.4,
    kannada: 1.4,
    malayalam: 1.4,
    sinhala: 2,
    myanmar: 1.6,
    khmer: 1.6,
    lao: 2,
    indicLettersAfterSixth: 1,
    joiningPunctuation: 0.25,
    arabicExtended: 1.2,
    joiningPunctuationBeforeUnfamiliar: 0.5,
  },
};

/** Weights for `target` fitted on the non-held-out `samples`. */
export function fitWeights(
  samples: readonly CountedSample[],
  target: 'o200k' | 'cl100k',
): Float64Array {
  const train = samples.filter((s) => !s.heldOut);
  const support = new Float64Array(featureCount);
  for (const s of train) {
    const x = features.get(s)!;
    for (let i = 0; i < featureCount; i++) if (x[i]! > 0) support[i]! += x[i]!;
  }
  const fixed = new Float64Array(featureCount).fill(Number.NaN);
  featureNames.forEach((name, i) => {
    const prior = priors[target][name];
    if (support[i]! < minimumSupport) {
      fixed[i] = prior ?? 0;
      if (process.env.FIT_QUIET !== '1')
        console.log(`${target}: ${name} has support ${support[i]}; fixed at ${fixed[i]}`);
    }
  });
  const w = fitFree(train, target, fixed);
  for (let i = 0; i < featureCount; i++) if (!Number.isNaN(fixed[i]!)) w[i] = fixed[i]!;
  return w;
}

/** Fits the features not in `fixed` (NaN = free) to what the fixed ones leave of each target. */
function fitFree(
  train: readonly CountedSample[],
  target: 'o200k' | 'cl100k',
  fixed: Float64Array,
): Float64Array {
  const perCategory = new Map<string, number>();
  for (const s of train) perCategory.set(s.category, (perCategory.get(s.category) ?? 0) + 1);
  const rows = train.map((s) => {
    const x = Float64Array.from(features.get(s)!);
    for (let i = 0; i < featureCount; i++) if (!Number.isNaN(fixed[i]!)) x[i] = 0;
    return x;
  });
  const targets = train.map((s) => {
    const x = features.get(s)!;
    // The whitespace-overflow slots are added unweighted by estimateTokens: fit what they leave.
    let rest = s[target] - overflow(x, target);
    for (let i = 0; i < featureCount; i++) if (!Number.isNaN(fixed[i]!)) rest -= x[i]! * fixed[i]!;
    return rest;
  });
  // Relative error: scale each row by 1/y; balance categories; then reweight by 1/|relative error|
  // a few times so the fit approaches least absolute percentage error.
  const base = train.map(
    (s) =>
      (s.source.startsWith('generated:')
        ? generatedWeights[target] *
          (s.source === 'generated:cyrillic-with-russian-letters'
            ? otherCyrillicShare
            : s.source.startsWith('generated:holdout:')
              ? holdoutShare
              : s.source === 'generated:latin-languages'
                ? latinShare
                : 1)
        : 1) /
      (s[target] * s[target]) /
      perCategory.get(s.category)!,
  );
  let rowWeights = base;
  let w = nnls(rows, targets, rowWeights);
  for (let iteration = 0; iteration < 8; iteration++) {
    rowWeights = train.map((s, r) => {
      let estimate = 0;
      const x = rows[r]!;
      for (let i = 0; i < featureCount; i++) estimate += x[i]! * w[i]!;
      const relative = Math.abs(estimate - targets[r]!) / s[target];
      // Undercounting is the dangerous direction for compaction: weigh it more on the hard
      // classes, where a linear fit otherwise undercounts whole classes.
      const side =
        estimate < targets[r]! && s.source.startsWith('generated:')
          ? s.source === 'generated:latin-languages'
            ? latinUnderWeight
            : underWeight
          : 1;
      return (side * base[r]!) / Math.max(relative, 0.01);
    });
    w = nnls(rows, targets, rowWeights);
  }
  return w;
}

/** The estimate of `weights` for `target`, as estimateTokens computes it (the floor included). */
export const estimateWith =
  (w: Float64Array, target: 'o200k' | 'cl100k') =>
  (text: string): number => {
    const x = extractFeatures(text);
    let sum = overflow(x, target);
    for (let i = 0; i < featureCount; i++) sum += x[i]! * w[i]!;
    if (target === 'o200k') sum = Math.max(sum, x[tokenPairFloor]! + x[mergedRepeatRunTokens]!);
    return Math.max(1, Math.round(sum));
  };
