// Open-weight tokenizers: @baton/tokens' counter (per-piece memo over the tokenizer's own stages)
// against the library's own `encode`, on the transcript corpus. Writes
// bench-results/open-weight.md. Run: pnpm build && node --expose-gc bench/open-weight.ts
// Interleaved in rounds (each round: every contender on every chunk of text, rotating the order),
// thread CPU and wall time, min / median / max over rounds. "First pass": a fresh counter (empty
// memo) and a freshly built tokenizer for the library (empty BPE cache), so neither has seen the
// text; "warm": the same instances count the same texts again. Counts are checked equal.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import {
  createTokenCounter,
  loadOpenWeightTokenizer,
  type OpenWeightTokenizer,
} from '../dist/index.js';
import { transcriptSamples } from '../src/test-utils/corpus-texts.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const stride = Number(process.env.BENCH_TEXT_STRIDE ?? 5);
// BENCH_FAMILIES=qwen3,gemma3 runs only those.
const only = process.env.BENCH_FAMILIES?.split(',');
const allFamilies: Array<[OpenWeightTokenizer, string]> = [
  ['llama3_1', 'llama3.1:8b'],
  ['qwen3', 'qwen3:8b'],
  ['deepseek_v3', 'deepseek-chat'],
  ['gemma3', 'gemma3:4b'],
  ['mistral_nemo', 'mistral-nemo:12b'],
];
const families = allFamilies.filter(([name]) => only === undefined || only.includes(name));
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const spread = (values: readonly number[], digits = 1) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

function measure(work: () => void): { cpu: number; wall: number } {
  const cpu0 = process.threadCpuUsage();
  const wall0 = performance.now();
  work();
  const wall = performance.now() - wall0;
  const cpu = process.threadCpuUsage(cpu0);
  return { cpu: (cpu.user + cpu.system) / 1000, wall };
}

const texts = transcriptSamples()
  .map((sample) => sample.text)
  .filter((_, index) => index % stride === 0);
const megabytes = texts.reduce((sum, text) => sum + text.length, 0) / 1e6;
const chunks: string[][] = [];
for (let i = 0; i < texts.length; i += 50) chunks.push(texts.slice(i, i + 50));

const lines: string[] = [];
const log = (line = '') => {
  lines.push(line);
  console.log(line);
};
log("# Open-weight tokenizers: @baton/tokens vs the library's own encode");
log();
log(
  `Node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} x${cpus().length}, ${new Date().toISOString().slice(0, 10)}. ${texts.length} transcript strings (1 in ${stride}), ${megabytes.toFixed(2)} MB; ${rounds} rounds. Cells: "median (min–max)" MB/s; ratio = median of per-round CPU ratios. Reproduce: \`pnpm build && node --expose-gc bench/open-weight.ts\`.`,
);
log();
log(
  '| Tokenizer | pass | @baton/tokens MB/s CPU | library encode MB/s CPU | @baton/tokens is (CPU) | @baton/tokens is (wall) | counts |',
);
log('| --- | --- | ---: | ---: | ---: | ---: | --- |');

for (const [name, model] of families) {
  const results = {
    first: {
      baton: [] as number[],
      library: [] as number[],
      ratio: [] as number[],
      wall: [] as number[],
    },
    warm: {
      baton: [] as number[],
      library: [] as number[],
      ratio: [] as number[],
      wall: [] as number[],
    },
  };
  let identical = true;
  for (let round = 0; round < rounds; round++) {
    // Fresh instances: a new loader gives a new tokenizer (and an empty per-piece memo).
    const counter = createTokenCounter({
      model,
      loadTokenizer: (n) => loadOpenWeightTokenizer(n),
      messageCacheSize: 0,
    });
    void counter.exact;
    const library = loadOpenWeightTokenizer(name);
    for (const pass of ['first', 'warm'] as const) {
      gc();
      let batonTime = { cpu: 0, wall: 0 };
      let libraryTime = { cpu: 0, wall: 0 };
      chunks.forEach((chunk, index) => {
        let a = 0;
        let b = 0;
        const runBaton = () => {
          const t = measure(() => {
            for (const text of chunk) a += counter.count(text);
          });
          batonTime = { cpu: batonTime.cpu + t.cpu, wall: batonTime.wall + t.wall };
        };
        const runLibrary = () => {
          const t = measure(() => {
            for (const text of chunk)
              b += library.encode(text, { add_special_tokens: false }).length;
          });
          libraryTime = { cpu: libraryTime.cpu + t.cpu, wall: libraryTime.wall + t.wall };
        };
        if ((index + round) % 2 === 0) {
          runBaton();
          runLibrary();
        } else {
          runLibrary();
          runBaton();
        }
        if (a !== b) identical = false;
      });
      const r = results[pass];
      r.baton.push(megabytes / (batonTime.cpu / 1000));
      r.library.push(megabytes / (libraryTime.cpu / 1000));
      r.ratio.push(libraryTime.cpu / batonTime.cpu);
      r.wall.push(libraryTime.wall / batonTime.wall);
    }
  }
  for (const pass of ['first', 'warm'] as const) {
    const r = results[pass];
    log(
      `| ${name} | ${pass === 'first' ? 'first pass' : 'warm'} | ${spread(r.baton)} | ${spread(r.library)} | ${spread(r.ratio, 2)}x | ${spread(r.wall, 2)}x | ${identical ? 'identical' : 'DIFFER'} |`,
    );
  }
}
mkdirSync(new URL('../bench-results/', import.meta.url), { recursive: true });
writeFileSync(new URL('../bench-results/open-weight.md', import.meta.url), `${lines.join('\n')}\n`);
