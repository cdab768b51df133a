/**
 * The two summarise-path costs of cold-and-large.ts for the summarize strategy only, this build
 * against a baseline build, interleaved round by round: the first compaction of a never-seen
 * 1,000-message real history (salted per run), then the first summarise of 50,000 counted
 * agent-like messages (`largeSummarize`). Thread CPU, wall and allocated MiB (GC-profiler deltas).
 * Run: pnpm build && BATON_BENCH_BASELINE=<base>/packages/compressor/dist/index.js node --expose-gc bench/summarize-cpu-ab.ts
 */
import { GCProfiler } from 'node:v8';
import { median } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { benchSummary, largeSummarize, realHistory, salted, variants } from './cold-and-large.ts';

const builds = await variants();
const counter = createTokenCounter({ encoding: 'o200k_base' });
const history = realHistory(1_000);
const tokens = counter.countMessages(history as never);
const threadMs = () => {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1_000;
};
const samples = builds.map(() => ({
  cpu: [] as number[],
  wall: [] as number[],
  mib: [] as number[],
}));
let salt = 0;
for (let round = -1; round < 7; round++) {
  for (const [which, build] of builds.entries()) {
    const messages = salted(history, `ab${++salt}x${process.pid}`);
    const compressor = new build.Compressor({ counter, summarizer: async () => benchSummary });
    (globalThis as { gc?: () => void }).gc?.();
    const profiler = new GCProfiler();
    profiler.start();
    const before = process.memoryUsage().heapUsed;
    const wallStart = performance.now();
    const cpuStart = threadMs();
    await compressor.compress(messages as never, {
      targetTokens: Math.floor(tokens / 2),
      strategy: 'summarize',
    });
    const cpu = threadMs() - cpuStart;
    const wall = performance.now() - wallStart;
    const after = process.memoryUsage().heapUsed;
    const gcs = profiler.stop()?.statistics ?? [];
    let bytes = 0;
    let last = before;
    for (const entry of gcs) {
      bytes += entry.beforeGC.heapStatistics.usedHeapSize - last;
      last = entry.afterGC.heapStatistics.usedHeapSize;
    }
    bytes += after - last;
    if (round < 0) continue;
    samples[which]!.cpu.push(cpu);
    samples[which]!.wall.push(wall);
    samples[which]!.mib.push(bytes / 2 ** 20);
  }
}
const spread = (values: number[]) =>
  `${Math.min(...values).toFixed(0)} / ${median(values).toFixed(0)} / ${Math.max(...values).toFixed(0)}`;
console.log(`1,000 messages, ${tokens} tokens, first compaction (summarize), 7 rounds`);
console.log('| build | CPU ms (min / median / max) | wall ms | allocated MiB |');
for (const [which, build] of builds.entries()) {
  const sample = samples[which]!;
  console.log(
    `| ${build.name} | ${spread(sample.cpu)} | ${spread(sample.wall)} | ${spread(sample.mib)} |`,
  );
}
const large = await largeSummarize(50_000, 5, builds);
console.log(`50,000 messages, ${large.tokens} tokens, ${large.requests} requests`);
for (const line of large.lines) console.log(line);
