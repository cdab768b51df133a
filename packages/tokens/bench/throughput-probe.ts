import { createRequire } from 'node:module';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { createTokenCounter } from '../dist/index.js';
import { transcriptSamples } from '../src/test-utils/corpus-texts.ts';

const require = createRequire(import.meta.url);
const tk = require('@dqbd/tiktoken');
const texts = transcriptSamples().map((s) => s.text);
const bytes = texts.reduce((a, t) => a + Buffer.byteLength(t), 0);
const enc = tk.get_encoding('o200k_base');
const counter = createTokenCounter({ encoding: 'o200k_base' });
const runs = {
  baton: (t: string) => counter.count(t),
  raw: (t: string) => enc.encode_ordinary(t).length,
  gpt: (t: string) => countTokens(t),
};
for (const [name, fn] of Object.entries(runs)) {
  let sum = 0;
  for (const t of texts) sum += fn(t);
  const times = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    let s = 0;
    for (const t of texts) s += fn(t);
    times.push(performance.now() - t0);
    if (s !== sum) throw new Error('unstable');
  }
  times.sort((a, b) => a - b);
  console.log(name, sum, (bytes / 1e6 / (times[2]! / 1000)).toFixed(1), 'MB/s');
}
