// Aggregate bias of this build's estimateTokens (and BENCH_BASE's beside it, when given) against the
// exact counts of catalogue strings of the script languages written as `JSON.stringify` with every
// non-ASCII code unit `\uXXXX`-escaped (as Python's `json.dumps` writes them), o200k and cl100k.
// Run after `pnpm build`: [BENCH_BASE=<dist>] node bench/evaluate-escaped-languages.ts [seed] [per language]
import { createTokenCounter, estimateTokens } from '../dist/index.js';
import { scriptLanguageSamples } from '../src/test-utils/script-language-texts.ts';
import { loadBaseBuild } from './bench-helpers.ts';

const base = (await loadBaseBuild())?.estimateTokens;
const seed = Number(process.argv[2] ?? 7);
const perLanguage = Number(process.argv[3] ?? 40);
const escaped = (text: string) =>
  JSON.stringify(text).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
const byLanguage = new Map<string, string[]>();
for (const { language, text } of scriptLanguageSamples(seed, perLanguage)) {
  if (!byLanguage.has(language)) byLanguage.set(language, []);
  byLanguage.get(language)!.push(escaped(text));
}
const percent = (estimated: number, exact: number) => ((estimated / exact - 1) * 100).toFixed(1);
for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
  const counter = createTokenCounter({ encoding });
  const row: string[] = [];
  for (const [language, texts] of byLanguage) {
    let exact = 0;
    let estimated = 0;
    let before = 0;
    for (const text of texts) {
      exact += counter.count(text);
      estimated += estimateTokens(text, { encoding });
      if (base) before += base(text, { encoding });
    }
    row.push(
      `${language} ${base ? `${percent(before, exact)} -> ` : ''}${percent(estimated, exact)} %`,
    );
  }
  console.log(`${encoding}: ${row.join(' | ')}`);
  counter.dispose();
}
