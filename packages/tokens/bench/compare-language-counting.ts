// Exact counting of real text in other scripts and Latin-script languages (catalogue strings
// joined as messages join them, 20–2,000 characters each): this build against BENCH_BASE=<dist
// directory of another build>, fresh counters, interleaved with rotating order, process CPU.
// Written for session 22's byte-keyed memo of short non-ASCII pieces, which replaced the string
// memo for those pieces: real text has many such pieces (` на`, `’s`, `—`) that repeat.
// Run after `pnpm build`: BENCH_BASE=<dist> node --expose-gc bench/compare-language-counting.ts [rounds]
import { createTokenCounter, loadBytePairEncoder } from '../dist/index.js';
import { latinLanguageSamples } from '../src/test-utils/latin-script-languages.ts';
import { scriptLanguageSamples } from '../src/test-utils/script-language-texts.ts';
import { loadBaseBuild, spread } from './bench-helpers.ts';

const base = await loadBaseBuild();
if (!base) throw new Error('set BENCH_BASE=<dist directory of the build to compare with>');
const rounds = Number(process.argv[2] ?? 7);
type Library = typeof import('../dist/index.js');
const builds: Record<string, Library> = {
  this: { createTokenCounter, loadBytePairEncoder } as Library,
  base,
};
const sets = {
  'other scripts': scriptLanguageSamples(7, 60).map((sample) => sample.text),
  'Latin-script languages': latinLanguageSamples(7, 20).map((sample) => sample.text),
};
const cpu = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
for (const [name, texts] of Object.entries(sets)) {
  const megabytes = texts.reduce((sum, text) => sum + text.length, 0) / 1e6;
  const times: Record<string, number[]> = { this: [], base: [] };
  const totals: Record<string, number> = {};
  for (let round = -1; round < rounds; round++) {
    const order = round % 2 === 0 ? ['this', 'base'] : ['base', 'this'];
    for (const build of order) {
      const library = builds[build]!;
      const counter = library.createTokenCounter({
        encoding: 'o200k_base',
        loadEncoder: (encoding) => library.loadBytePairEncoder(encoding),
      });
      void counter.exact;
      globalThis.gc?.();
      const start = cpu();
      let total = 0;
      for (const text of texts) total += counter.count(text);
      const elapsed = cpu() - start;
      totals[build] = total;
      if (round >= 0) times[build]!.push(elapsed);
    }
  }
  if (totals.this !== totals.base)
    throw new Error(`${name}: counts differ ${totals.this} vs ${totals.base}`);
  for (const build of ['this', 'base'])
    console.log(
      `${name.padEnd(24)} ${megabytes.toFixed(2)} M chars ${build.padEnd(4)} CPU ms ${spread(times[build]!)}`,
    );
}
