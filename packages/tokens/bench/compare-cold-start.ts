// Cold start (bench/run.ts section 2) of this build against other builds of the package (for
// example the previous commit's dist, copied aside inside packages/tokens so that @dqbd/tiktoken
// resolves, e.g. into node_modules/.base/dist), interleaved: each run starts one fresh process per
// build, in an order that alternates. A process reads a ~100k-token text of the transcripts, then
// imports the build and counts the text once; CPU is process.cpuUsage (all threads) from before
// the import, as in bench/run.ts, plus the whole process's CPU (Node's own start included) and RSS.
// Run after `pnpm build`: node bench/compare-cold-start.ts [runs] [other dist directory ...]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transcriptSamples } from '../src/test-utils/corpus-texts.ts';
import { spread } from './bench-helpers.ts';

const runs = Number(process.argv[2] ?? 10);
const builds = [
  new URL('../dist', import.meta.url).pathname,
  ...process.argv.slice(3).map((path) => resolve(path)),
];
const { loadTiktokenEncoder } = (await import(
  '../dist/index.js'
)) as typeof import('../dist/index.js');
const reference = loadTiktokenEncoder('o200k_base');
// The text bench/run.ts counts: every third transcript string, 50 at a time up to 100k tokens.
const texts = transcriptSamples()
  .map((sample) => sample.text)
  .filter((_, i) => i % 3 === 0);
let text = '';
for (let i = 0; reference.encode_ordinary(text).length < 100_000 && i < texts.length; i += 50)
  text += `${texts.slice(i, i + 50).join('\n')}\n`;
const expected = reference.encode_ordinary(text).length;
const directory = mkdtempSync(join(tmpdir(), 'baton-tokens-cold-'));
const file = join(directory, 'text.txt');
writeFileSync(file, text);

const series = builds.map(() => ({
  cpu: [] as number[],
  whole: [] as number[],
  rss: [] as number[],
}));
const loadBefore = loadavg()[0]!;
for (let run = 0; run < runs; run++) {
  const order = builds.map((_, i) => i);
  if (run % 2) order.reverse();
  for (const b of order) {
    const entry = pathToFileURL(join(builds[b]!, 'index.js')).href;
    const script =
      `const text = (await import('node:fs')).readFileSync(${JSON.stringify(file)}, 'utf8');` +
      'const c0 = process.cpuUsage();' +
      `const { createTokenCounter } = await import(${JSON.stringify(entry)});` +
      `const n = createTokenCounter({ encoding: 'o200k_base' }).count(text);` +
      'const used = process.cpuUsage(c0); const whole = process.cpuUsage();' +
      'process.stdout.write(JSON.stringify({ n, cpu: (used.user + used.system) / 1000, whole: (whole.user + whole.system) / 1000, rss: process.memoryUsage().rss / 1048576 }));';
    const result = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        cwd: new URL('..', import.meta.url).pathname,
      }),
    ) as { n: number; cpu: number; whole: number; rss: number };
    if (result.n !== expected)
      throw new Error(`${builds[b]} counted ${result.n} tokens, @dqbd/tiktoken ${expected}`);
    series[b]!.cpu.push(result.cpu);
    series[b]!.whole.push(result.whole);
    series[b]!.rss.push(result.rss);
  }
}
rmSync(directory, { recursive: true, force: true });
console.log(
  `Cold start: import + first count of a ${expected.toLocaleString('en')}-token text, ${runs} fresh processes per build, load average ${loadBefore.toFixed(2)} -> ${loadavg()[0]!.toFixed(2)}. Cells: median (min–max).`,
);
console.log(
  '| Build | CPU ms (import + count, all threads) | CPU ms (whole process) | RSS after, MB |',
);
console.log('| --- | ---: | ---: | ---: |');
builds.forEach((build, b) => {
  const { cpu, whole, rss } = series[b]!;
  console.log(`| ${build} | ${spread(cpu)} | ${spread(whole)} | ${spread(rss)} |`);
});
