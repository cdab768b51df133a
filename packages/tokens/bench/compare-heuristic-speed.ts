// estimateTokens throughput of this build against another build of the package (for example one of
// the previous commit, copied aside), interleaved in small rounds in one process and timed in thread
// CPU time, on the held-out real text and on generated Latin-script language text.
// Run after `pnpm build`: node bench/compare-heuristic-speed.ts <other build's dist/index.js> [rounds]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { estimateTokens } from '../dist/index.js';
import { countedSamples } from '../src/test-utils/heuristic-evaluation.ts';
import { latinLanguageSamples } from '../src/test-utils/latin-script-languages.ts';

const otherPath = process.argv[2];
if (!otherPath)
  throw new Error('usage: node bench/compare-heuristic-speed.ts <dist/index.js> [rounds]');
const rounds = Number(process.argv[3] ?? 15);
const other = (await import(pathToFileURL(resolve(otherPath)).href)) as {
  estimateTokens: typeof estimateTokens;
};
const corpora = {
  'held-out real text': countedSamples()
    .filter((sample) => sample.heldOut)
    .map((sample) => sample.text),
  'Latin-script languages': latinLanguageSamples(7, 40).map((sample) => sample.text),
};
for (const [name, texts] of Object.entries(corpora)) {
  if (texts.length === 0) continue;
  const megabytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0) / 1e6;
  const speeds = { this: [] as number[], other: [] as number[] };
  const time = (estimate: (text: string) => number) => {
    const start = process.threadCpuUsage();
    for (const text of texts) estimate(text);
    const cpu = process.threadCpuUsage(start);
    return megabytes / ((cpu.user + cpu.system) / 1e6);
  };
  for (let round = 0; round < rounds; round++) {
    // Alternate which build goes first so neither always runs on a warmer cache.
    if (round % 2 === 0) {
      speeds.this.push(time(estimateTokens));
      speeds.other.push(time(other.estimateTokens));
    } else {
      speeds.other.push(time(other.estimateTokens));
      speeds.this.push(time(estimateTokens));
    }
  }
  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${sorted[sorted.length >> 1]!.toFixed(0)} (${sorted[0]!.toFixed(0)}–${sorted[sorted.length - 1]!.toFixed(0)})`;
  };
  console.log(
    `${name} (${megabytes.toFixed(2)} MB, ${rounds} interleaved rounds): this build ${summary(speeds.this)} MB/s CPU, other ${summary(speeds.other)} MB/s CPU`,
  );
}
