// Benchmark of @baton/tokens. Writes bench-results/results.md (gathered into BENCHMARKS.md by the
// root `pnpm bench`). Run: pnpm build && node --expose-gc bench/run.ts
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { loadTranscripts, median } from '@baton/test-corpus';
import { countTokens as gptTokenizerCount } from 'gpt-tokenizer/encoding/o200k_base';
import { getEncoding } from 'js-tiktoken';
import { estimateTokenCount } from 'tokenx';
import {
  createTokenCounter,
  type EncoderLoader,
  estimateTokens,
  loadTiktokenEncoder,
} from '../dist/index.js';
import { categories, messageTexts, transcriptSamples } from '../src/test-utils/corpus-texts.ts';
import {
  countedSamples,
  meanAbsolutePercentageError,
} from '../src/test-utils/heuristic-evaluation.ts';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const fixed = (value: number, digits = 1) => value.toFixed(digits);
const lines: string[] = [];
const log = (line = '') => {
  lines.push(line);
  console.log(line);
};

// A fresh loader per use gives a fresh encoder and an empty piece cache: a cold start.
const freshLoader = (): EncoderLoader => (encoding) => loadTiktokenEncoder(encoding);

log('## @baton/tokens');
log();
log(
  `Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, ${new Date().toISOString().slice(0, 10)}. ` +
    'Text: every message string of the dev transcripts (`../shared/corpus/transcripts/dev`). Medians of repeated runs.',
);
log();

// 1. Exact-count throughput, warm, identical counts.
const texts = transcriptSamples().map((sample) => sample.text);
const megabytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0) / 1e6;
const dqbd = tiktoken.get_encoding('o200k_base');
const jsTiktoken = getEncoding('o200k_base');
const firstPassCounter = createTokenCounter({ encoding: 'o200k_base', loadEncoder: freshLoader() });
void firstPassCounter.exact;
let start = performance.now();
let expectedTotal = 0;
for (const text of texts) expectedTotal += firstPassCounter.count(text);
const firstPassSeconds = (performance.now() - start) / 1000;

const contenders: Array<[string, (text: string) => number, number]> = [
  ['@baton/tokens', (text) => firstPassCounter.count(text), 7],
  ['@dqbd/tiktoken (WASM, encode_ordinary)', (text) => dqbd.encode_ordinary(text).length, 5],
  ['gpt-tokenizer', (text) => gptTokenizerCount(text, { disallowedSpecial: new Set() }), 5],
  ['js-tiktoken', (text) => jsTiktoken.encode(text, [], []).length, 3],
];
const throughput = new Map<string, number>();
for (const [name, count, runs] of contenders) {
  let total = 0;
  for (const text of texts) total += count(text);
  if (total !== expectedTotal)
    throw new Error(`${name} counted ${total} tokens, expected ${expectedTotal}`);
  const seconds: number[] = [];
  for (let run = 0; run < runs; run++) {
    gc();
    start = performance.now();
    for (const text of texts) count(text);
    seconds.push((performance.now() - start) / 1000);
  }
  throughput.set(name, megabytes / median(seconds));
}
const ours = throughput.get('@baton/tokens')!;
log(
  `### Exact counting throughput (o200k_base, ${fixed(megabytes, 2)} MB, ${texts.length} texts, ${expectedTotal} tokens, all counts identical)`,
);
log();
log('| Counter | MB/s (warm) | @baton/tokens is |');
log('| --- | ---: | ---: |');
for (const [name, value] of throughput)
  log(
    `| ${name} | ${fixed(value)} | ${name === '@baton/tokens' ? '—' : `${fixed(ours / value, 2)}x`} |`,
  );
log();
log(
  `First pass of @baton/tokens with an empty piece cache (every piece new to the process): ${fixed(megabytes / firstPassSeconds)} MB/s.`,
);
log();

// 2. Encoder initialisation, each in a fresh process.
const initScript = (encoding: string) =>
  `const {createRequire}=require('node:module');const r=createRequire(${JSON.stringify(import.meta.url)});` +
  `const t0=performance.now();const t=r('@dqbd/tiktoken');const e=t.get_encoding('${encoding}');e.encode_ordinary('warm');` +
  `process.stdout.write(String(performance.now()-t0))`;
log('### Encoder initialisation (fresh process, load + build + first encode)');
log();
log('| Encoding | ms (median of 3) |');
log('| --- | ---: |');
for (const encoding of ['o200k_base', 'cl100k_base']) {
  const times = [0, 1, 2].map(() =>
    Number(execFileSync(process.execPath, ['-e', initScript(encoding)], { encoding: 'utf8' })),
  );
  log(`| ${encoding} | ${fixed(median(times), 0)} |`);
}
log();

// 3. Messages: 2,000 small ones one by one, and incremental re-counting.
const allMessages = loadTranscripts().flatMap((transcript) => transcript.messages);
const size = (message: { content: unknown }) => messageTexts(message).join('').length;
const small = [...allMessages].sort((a, b) => size(a) - size(b)).slice(0, 2000);
const perMessage: number[] = [];
for (let run = 0; run < 3; run++) {
  const counter = createTokenCounter({ encoding: 'o200k_base', loadEncoder: freshLoader() });
  void counter.exact;
  const copies = structuredClone(small);
  gc();
  start = performance.now();
  for (const message of copies) counter.countMessage(message);
  perMessage.push(performance.now() - start);
}
const conversation = allMessages.slice(0, 1000);
const extra = allMessages[1000]!;
const cold: number[] = [];
const appended: number[] = [];
const appendedCopies: number[] = [];
for (let run = 0; run < 7; run++) {
  // Same message objects: the identity memo.
  let counter = createTokenCounter({ encoding: 'o200k_base', loadEncoder: freshLoader() });
  void counter.exact;
  gc();
  start = performance.now();
  const total = counter.countMessages(conversation);
  cold.push(performance.now() - start);
  start = performance.now();
  const after = counter.countMessages([...conversation, extra]);
  appended.push(performance.now() - start);
  if (after <= total) throw new Error('append did not grow the count');
  // Structurally equal deep copies (new objects and new strings, as after a JSON round trip), the
  // harder case than the AI SDK's per-step copies (new objects, same strings).
  counter = createTokenCounter({ encoding: 'o200k_base', loadEncoder: freshLoader() });
  void counter.exact;
  gc();
  start = performance.now();
  counter.countMessages(conversation);
  cold.push(performance.now() - start);
  const copies = structuredClone([...conversation, extra]);
  gc();
  start = performance.now();
  const afterCopies = counter.countMessages(copies);
  appendedCopies.push(performance.now() - start);
  if (afterCopies !== after) throw new Error('copies counted differently');
}
const coldMs = median(cold);
log('### Messages');
log();
log('| Measure | Result |');
log('| --- | ---: |');
log(
  `| ${small.length} small messages (the shortest of the corpus, up to ${size(small.at(-1)!)} chars) counted one by one (fresh counter and piece cache) | ${fixed(median(perMessage))} ms (${fixed((median(perMessage) * 1000) / small.length)} µs/message) |`,
);
log(`| Cold count of a 1,000-message conversation (fresh caches) | ${fixed(coldMs)} ms |`);
log(
  `| **Re-count after appending one message, all 1,001 messages deep copies (structuredClone: new objects and strings)** | **${fixed(median(appendedCopies), 2)} ms (${fixed((median(appendedCopies) / coldMs) * 100, 2)} % of cold)** |`,
);
log(
  `| Re-count after appending one message, same message objects | ${fixed(median(appended), 2)} ms (${fixed((median(appended) / coldMs) * 100, 2)} % of cold) |`,
);
log();

// 3b. CJK, warm: real text, and the same text with everything but letters removed, which makes
// long unpunctuated runs (single pieces over 128 characters, memoised by the long-piece cache).
const cjkReal = countedSamples()
  .filter((sample) => sample.category === 'cjk')
  .map((sample) => sample.text);
const cjkRuns = cjkReal.map((text) => text.replace(/[^\p{L}]+/gu, '')).filter(Boolean);
log('### CJK, warm (o200k_base, counts identical to raw WASM)');
log();
log('| Text | MB | @baton/tokens MB/s | @dqbd/tiktoken MB/s | ratio |');
log('| --- | ---: | ---: | ---: | ---: |');
for (const [name, cjkTexts] of [
  ['CJK samples', cjkReal],
  ['CJK samples, letters only (long unpunctuated runs)', cjkRuns],
] as const) {
  const cjkMegabytes = cjkTexts.reduce((sum, text) => sum + Buffer.byteLength(text), 0) / 1e6;
  const cjkCounter = createTokenCounter({ encoding: 'o200k_base', loadEncoder: freshLoader() });
  let cjkTotal = 0;
  for (const text of cjkTexts) cjkTotal += cjkCounter.count(text);
  let cjkRaw = 0;
  for (const text of cjkTexts) cjkRaw += dqbd.encode_ordinary(text).length;
  if (cjkRaw !== cjkTotal) throw new Error(`CJK counts differ: ${cjkTotal} vs ${cjkRaw}`);
  const cjkThroughput = (count: (text: string) => number) => {
    const seconds: number[] = [];
    for (let run = 0; run < 5; run++) {
      gc();
      start = performance.now();
      for (const text of cjkTexts) count(text);
      seconds.push((performance.now() - start) / 1000);
    }
    return cjkMegabytes / median(seconds);
  };
  const cjkOurs = cjkThroughput((text) => cjkCounter.count(text));
  const cjkWasm = cjkThroughput((text) => dqbd.encode_ordinary(text).length);
  log(
    `| ${name} | ${fixed(cjkMegabytes, 2)} | ${fixed(cjkOurs)} | ${fixed(cjkWasm)} | ${fixed(cjkOurs / cjkWasm, 2)}x |`,
  );
}
log();

// 3c. Long single pieces: tiktoken's BPE is quadratic in a piece's length.
log('### Long single pieces (first count reaches WASM; a repeat is memoised)');
log();
log('| Text | Characters | First count ms | Repeat ms |');
log('| --- | ---: | ---: | ---: |');
const pieceCounter = createTokenCounter({ encoding: 'o200k_base', loadEncoder: freshLoader() });
void pieceCounter.exact;
for (const [name, unit, repeats] of [
  ['spaces', ' ', 10_000],
  ['spaces', ' ', 20_000],
  ['spaces', ' ', 40_000],
  ['emoji', '\u{1F600}', 2_500],
  ['emoji', '\u{1F600}', 5_000],
  ['emoji', '\u{1F600}', 10_000],
] as const) {
  const text = `${unit.repeat(repeats)}x`;
  start = performance.now();
  pieceCounter.count(text);
  const first = performance.now() - start;
  start = performance.now();
  pieceCounter.count(text);
  const repeat = performance.now() - start;
  log(
    `| ${repeats.toLocaleString('en')} ${name} | ${text.length} | ${fixed(first, 0)} | ${fixed(repeat, 2)} |`,
  );
}
log();

// 4. Heuristic error per category on held-out text.
const heldOut = countedSamples().filter((sample) => sample.heldOut);
const pct = (value: number) => `${fixed(value * 100)} %`;
const estimators: Array<[string, (text: string) => number]> = [
  ['estimateTokens', (text) => estimateTokens(text)],
  ['chars/4', (text) => Math.ceil(text.length / 4)],
  ['tokenx', (text) => estimateTokenCount(text)],
];
const reports = estimators.map(
  ([name, estimate]) => [name, meanAbsolutePercentageError(heldOut, estimate)] as const,
);
const cl100kReport = meanAbsolutePercentageError(
  heldOut,
  (text) => estimateTokens(text, { encoding: 'cl100k_base' }),
  'cl100k',
);
log(
  `### Heuristic: mean absolute percentage error per message vs exact o200k_base (${heldOut.length} held-out samples)`,
);
log();
log(`| Category | Samples | estimateTokens | chars/4 | tokenx | estimateTokens vs cl100k_base |`);
log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const category of categories) {
  const cells = reports.map(([, report]) => pct(report.byCategory[category].mape));
  log(
    `| ${category} | ${reports[0]![1].byCategory[category].samples} | ${cells.join(' | ')} | ${pct(cl100kReport.byCategory[category].mape)} |`,
  );
}
log(
  `| **all (mixed)** | ${heldOut.length} | ${reports.map(([, report]) => `**${pct(report.overall)}**`).join(' | ')} | ${pct(cl100kReport.overall)} |`,
);
log();
const heuristicRuns: number[] = [];
const heuristicText = heldOut.map((sample) => sample.text);
const heuristicMegabytes =
  heuristicText.reduce((sum, text) => sum + Buffer.byteLength(text), 0) / 1e6;
for (let run = 0; run < 5; run++) {
  start = performance.now();
  for (const text of heuristicText) estimateTokens(text);
  heuristicRuns.push((performance.now() - start) / 1000);
}
log(
  `Heuristic speed: ${fixed(heuristicMegabytes / median(heuristicRuns), 0)} MB/s. CJK and other-script samples come from translated READMEs and locale files of installed npm packages (read at run time).`,
);

mkdirSync(new URL('../bench-results/', import.meta.url), { recursive: true });
writeFileSync(new URL('../bench-results/results.md', import.meta.url), `${lines.join('\n')}\n`);
