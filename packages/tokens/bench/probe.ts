import { createTokenCounter } from '../dist/index.js';
import { asciiSplitPattern, splitPattern } from '../dist/split-pattern.js';
import { transcriptSamples } from '../src/test-utils/corpus-texts.ts';

const texts = transcriptSamples().map((s) => s.text);
const bytes = texts.reduce((a, t) => a + Buffer.byteLength(t), 0);
const re = asciiSplitPattern('o200k_base');
const ure = splitPattern('o200k_base');
const ascii = /^[\x00-\x7f]*$/;
const map = new Map<string, number>();
const counter = createTokenCounter();
const time = (name: string, fn: () => void) => {
  const ts = [];
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    fn();
    ts.push(performance.now() - t0);
  }
  ts.sort((a, b) => a - b);
  console.log(name, (bytes / 1e6 / (ts[3]! / 1000)).toFixed(1), 'MB/s');
};
time('baton', () => {
  for (const t of texts) counter.count(t);
});
time('match ascii/unicode', () => {
  for (const t of texts) t.match(ascii.test(t) ? re : ure);
});
time('match all with ascii re (wrong but speed)', () => {
  for (const t of texts) t.match(re);
});
time('match+map ascii re', () => {
  for (const t of texts) {
    const ps = t.match(re)!;
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i]!;
      if (map.get(p) === undefined) map.set(p, 1);
    }
  }
});
let pieces = 0;
for (const t of texts) pieces += t.match(re)!.length;
console.log('pieces', pieces, 'distinct', map.size);
