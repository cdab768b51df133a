// The heuristic's accuracy tables and speed line of the benchmark (bench/run.ts prints them last;
// bench/heuristic.ts prints them alone, in seconds instead of the full bench's minutes): MAPE per
// category on held-out real text, per generated hard class on the evaluation seed (2026; the fit
// uses another), and estimateTokens throughput on the held-out text.
import { createRequire } from 'node:module';
import { estimateTokenCount } from 'tokenx';
import { estimateTokens } from '../dist/index.js';
import { categories } from '../src/test-utils/corpus-texts.ts';
import {
  countedSamples,
  meanAbsolutePercentageError,
} from '../src/test-utils/heuristic-evaluation.ts';
import { syntheticClasses, syntheticSamples } from '../src/test-utils/synthetic-texts.ts';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');

/** Logs the heuristic's tables through `log`, one line per call. */
export function logHeuristicTables(log: (line?: string) => void): void {
  const dqbd = tiktoken.get_encoding('o200k_base');
  const fixed = (value: number, digits = 1) => value.toFixed(digits);
  const pct = (value: number) => `${fixed(value * 100)} %`;
  const heldOut = countedSamples().filter((sample) => sample.heldOut);
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
  const generated = syntheticSamples(2026, 300);
  log(
    '### Heuristic on generated hard classes (20–2,000 chars, 300 per class, seed 2026; the fit used another seed): o200k',
  );
  log();
  log(
    '| Class | estimateTokens MAPE | estimateTokens aggregate bias | chars/4 MAPE | tokenx MAPE |',
  );
  log('| --- | ---: | ---: | ---: | ---: |');
  for (const name of syntheticClasses) {
    const samples = generated.filter((sample) => sample.class === name);
    if (samples.length === 0) continue;
    const exact = samples.map((sample) => dqbd.encode_ordinary(sample.text).length);
    const mape = (estimate: (text: string) => number) =>
      samples.reduce(
        (sum, sample, i) => sum + Math.abs(estimate(sample.text) - exact[i]!) / exact[i]!,
        0,
      ) / samples.length;
    const estimated = samples.reduce((sum, sample) => sum + estimateTokens(sample.text), 0);
    const truth = exact.reduce((sum, value) => sum + value, 0);
    log(
      `| ${name} | ${pct(mape((text) => estimateTokens(text)))} | ${fixed((estimated / truth - 1) * 100)} % | ${pct(mape((text) => Math.ceil(text.length / 4)))} | ${pct(mape((text) => estimateTokenCount(text)))} |`,
    );
  }
  log();
  const heuristicText = heldOut.map((sample) => sample.text);
  const megabytes = heuristicText.reduce((sum, text) => sum + Buffer.byteLength(text), 0) / 1e6;
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    const cpu0 = process.threadCpuUsage();
    for (const text of heuristicText) estimateTokens(text);
    const cpu = process.threadCpuUsage(cpu0);
    runs.push(megabytes / ((cpu.user + cpu.system) / 1e6));
  }
  const sorted = [...runs].sort((a, b) => a - b);
  log(
    `Heuristic speed: ${fixed(sorted[2]!, 0)} (${fixed(sorted[0]!, 0)}–${fixed(sorted[4]!, 0)}) MB/s CPU.`,
  );
  dqbd.free();
}
