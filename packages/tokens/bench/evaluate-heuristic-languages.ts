// Leave-language-out evaluation of the heuristic on the system's Latin-script languages: for each
// language the fit may draw, the weights are refitted without it (bench/heuristic-fit.ts) and
// evaluated on it; the other half of the languages the shipped weights never saw, so they are
// evaluated with the shipped weights. Prints per-language MAPE and aggregate bias on texts of
// 20–2,000 characters drawn from seeds other than the fit's, and English UI text as a control.
// Run after `pnpm build`: node bench/evaluate-heuristic-languages.ts [seeds] [first seed]
import { createRequire } from 'node:module';
import { estimateTokens } from '../dist/index.js';
import {
  isFitLanguage,
  latinLanguageSamples,
  latinLanguageStrings,
  latinScriptLanguages,
} from '../src/test-utils/latin-script-languages.ts';
import { languageStrings, seededRandom } from '../src/test-utils/synthetic-texts.ts';
import { estimateWith, fitSamples, fitWeights } from './heuristic-fit.ts';

process.env.FIT_QUIET = '1';
const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const o200k = tiktoken.get_encoding('o200k_base');
const seeds = Number(process.argv[2] ?? 3);
const firstSeed = Number(process.argv[3] ?? 4000);
const perLanguage = Number(process.env.HEURISTIC_SAMPLES ?? 100);

interface Result {
  mape: number;
  bias: number;
}
function evaluate(texts: readonly string[], estimate: (text: string) => number): Result {
  let error = 0;
  let estimated = 0;
  let exact = 0;
  for (const text of texts) {
    const truth = o200k.encode_ordinary(text).length;
    const guess = estimate(text);
    error += Math.abs(guess - truth) / truth;
    estimated += guess;
    exact += truth;
  }
  return { mape: error / texts.length, bias: estimated / exact - 1 };
}

const seedList = Array.from({ length: seeds }, (_, s) => firstSeed + s * 7919);
const pct = (value: number, width: number) => (value * 100).toFixed(1).padStart(width);
const rows: Array<{ language: string; result: Result; refitted: boolean; strings: number }> = [];
for (const language of latinScriptLanguages()) {
  const refitted = isFitLanguage(language);
  const estimate = refitted
    ? estimateWith(fitWeights(fitSamples(new Set([language])), 'o200k'), 'o200k')
    : (text: string) => estimateTokens(text);
  const texts = seedList.flatMap((seed) =>
    latinLanguageSamples(seed, perLanguage, [language]).map(({ text }) => text),
  );
  rows.push({
    language,
    result: evaluate(texts, estimate),
    refitted,
    strings: latinLanguageStrings(language).length,
  });
}
console.log(
  `Latin-script languages, ${seeds} seeds from ${firstSeed}, ${perLanguage} texts each (20–2,000 chars); ` +
    'refit = fitted without the language, shipped = weights that never saw it',
);
for (const { language, result, refitted, strings } of rows.sort(
  (a, b) => a.result.bias - b.result.bias,
))
  console.log(
    `${language.padEnd(5)} ${refitted ? 'refit  ' : 'shipped'} ${String(strings).padStart(6)} strings  MAPE ${pct(result.mape, 5)} %  bias ${pct(result.bias, 6)} %${result.bias < -0.1 ? '  <-- undercount beyond 10 %' : ''}`,
  );
const mapes = rows.map(({ result }) => result.mape).sort((a, b) => a - b);
const biases = rows.map(({ result }) => result.bias).sort((a, b) => a - b);
console.log(
  `${rows.length} languages: median MAPE ${pct(mapes[mapes.length >> 1]!, 0)} %, worst bias ${pct(biases[0]!, 0)} %, ` +
    `${biases.filter((bias) => bias < -0.1).length} below -10 %, median bias ${pct(biases[biases.length >> 1]!, 0)} %`,
);
// English UI text (en_GB translations) as a control, shipped weights.
const english = languageStrings('en_GB');
if (english.length > 50) {
  const random = seededRandom(firstSeed);
  const texts = Array.from({ length: perLanguage * seeds }, () => {
    const length = Math.round(20 * 100 ** random());
    let text = english[Math.floor(random() * english.length)]!;
    while (text.length < Math.max(20, length))
      text += `. ${english[Math.floor(random() * english.length)]!}`;
    return text.slice(0, Math.min(2000, Math.max(20, length)));
  });
  const result = evaluate(texts, (text) => estimateTokens(text));
  console.log(
    `English (en_GB) control: MAPE ${pct(result.mape, 0)} %, bias ${pct(result.bias, 0)} %`,
  );
}
