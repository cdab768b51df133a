// Re-counts of deep copies of 1,000 transcript messages, for `node --cpu-prof`.
import { loadTranscripts } from '@baton/test-corpus';
import { createTokenCounter, loadBytePairEncoder } from '../dist/index.js';

const all = loadTranscripts().flatMap((t) => t.messages);
const messages = all.slice(0, 1000);
const counter = createTokenCounter({
  encoding: 'o200k_base',
  loadEncoder: (e) => loadBytePairEncoder(e),
});
counter.countMessages(messages as never);
const copies = Array.from({ length: 100 }, () => structuredClone(messages));
const c0 = process.threadCpuUsage();
for (const copy of copies) counter.countMessages(copy as never);
const c = process.threadCpuUsage(c0);
console.log(`${((c.user + c.system) / 1000 / copies.length).toFixed(3)} ms CPU a re-count`);
