import { loadTranscripts } from '@baton/test-corpus';
import { createTokenCounter, loadBytePairEncoder } from '../dist/index.js';
const all = loadTranscripts().flatMap((t) => t.messages) as any[];
const messages = all.slice(0, 1000);
const counter = createTokenCounter({ encoding: 'o200k_base', loadEncoder: (e) => loadBytePairEncoder(e) });
counter.countMessages(messages as never);
const copies = Array.from({ length: 300 }, (_, i) => structuredClone([...messages, { ...all[1000], content: `${all[1000].content} (${i})` }]));
function gap() { const t = Date.now(); while (Date.now() - t < 300); }
gap();
const c0 = process.threadCpuUsage();
for (const copy of copies) counter.countMessages(copy as never);
const c = process.threadCpuUsage(c0);
console.log(`${((c.user + c.system) / 1000 / copies.length).toFixed(3)} ms CPU a re-count`);
