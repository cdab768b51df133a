// First-pass counting only (fresh counters, every text new), for `node --cpu-prof`.
import { createTokenCounter, loadBytePairEncoder } from '../dist/index.js';
import { transcriptSamples } from '../src/test-utils/corpus-texts.ts';

const stride = Number(process.env.BENCH_TEXT_STRIDE ?? 3);
const texts = transcriptSamples()
  .map((s) => s.text)
  .filter((_, i) => i % stride === 0);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
for (let round = 0; round < rounds; round++) {
  const counter = createTokenCounter({
    encoding: 'o200k_base',
    loadEncoder: (e) => loadBytePairEncoder(e),
  });
  const c0 = process.threadCpuUsage();
  let total = 0;
  for (const text of texts) total += counter.count(text);
  const c = process.threadCpuUsage(c0);
  console.log(`round ${round}: ${total} tokens, ${((c.user + c.system) / 1000).toFixed(0)} ms CPU`);
}
if (process.env.WARM) {
  const counter = createTokenCounter({
    encoding: 'o200k_base',
    loadEncoder: (e) => loadBytePairEncoder(e),
  });
  for (const text of texts) counter.count(text);
  for (let round = 0; round < rounds; round++) {
    const c0 = process.threadCpuUsage();
    for (const text of texts) counter.count(text);
    const c = process.threadCpuUsage(c0);
    console.log(`warm ${round}: ${((c.user + c.system) / 1000).toFixed(0)} ms CPU`);
  }
}
