// Re-count after appending one message (bench/run.ts section 3) with this build against another
// build of the package (for example one of the previous commit, copied aside), interleaved in
// rounds in one process and timed in thread CPU time.
// Run after `pnpm build`: node --expose-gc bench/compare-recount-speed.ts <other build's dist/index.js> [rounds] [appends]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadTranscripts } from '@baton/test-corpus';
import { createTokenCounter, loadBytePairEncoder } from '../dist/index.js';

const otherPath = process.argv[2];
if (!otherPath)
  throw new Error('usage: node bench/compare-recount-speed.ts <dist/index.js> [rounds]');
const rounds = Number(process.argv[3] ?? 10);
const other = (await import(pathToFileURL(resolve(otherPath)).href)) as {
  createTokenCounter: typeof createTokenCounter;
};
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const all = loadTranscripts().flatMap((transcript) => transcript.messages);
const conversation = all.slice(0, 1000);
const extra = all[1000] ?? all[0]!;
const tiny = Array.from({ length: 10_000 }, (_, i) => ({
  role: i % 2 ? 'assistant' : 'user',
  content: `ok ${i}`,
}));
const tinyExtra = { role: 'user', content: 'and one more small question?' };
const mixes: Array<[string, readonly object[], object, boolean]> = [
  ['1,000 transcript messages, same objects', conversation, extra, false],
  ['1,000 transcript messages, deep copies', conversation, extra, true],
  ['10,000 tiny messages, same objects', tiny, tinyExtra, false],
  ['10,000 tiny messages, deep copies', tiny, tinyExtra, true],
];
const appends = Number(process.argv[4] ?? 60);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const builds = { this: createTokenCounter, other: other.createTokenCounter };
for (const [name, messages, appended, copies] of mixes) {
  const times = { this: [] as number[], other: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['this', 'other'] as const) : (['other', 'this'] as const);
    for (const build of order) {
      const counter = builds[build]({ encoding: 'o200k_base', loadEncoder: loadBytePairEncoder });
      counter.countMessages(messages as never);
      const nexts = Array.from({ length: appends }, (_, i) => {
        const last = { ...appended, content: `${(appended as { content: string }).content} ${i}` };
        return copies ? structuredClone([...messages, last]) : [...messages, last];
      });
      gc();
      const start = process.threadCpuUsage();
      for (const next of nexts) counter.countMessages(next as never);
      const cpu = process.threadCpuUsage(start);
      times[build].push((cpu.user + cpu.system) / 1000 / appends);
    }
  }
  const a = median(times.this);
  const b = median(times.other);
  console.log(
    `${name}: this ${a.toFixed(3)} ms, other ${b.toFixed(3)} ms a re-count (${((a / b - 1) * 100).toFixed(1)} %)`,
  );
}
