// Focused worst-case rows of run.ts for iterating on long pieces: the first count of a run without
// whitespace by a fresh counter vs prose of the same length, for this build and (BENCH_BASE=<dist
// directory of another build>) a baseline, interleaved in one process, thread CPU time.
// BENCH_ROUNDS (default 5), BENCH_SIZE (characters, default 1,000,000), BENCH_CLASSES (comma-separated
// names below; default all).
import { createTokenCounter, loadBytePairEncoder } from '../dist/index.js';
import { transcriptSamples } from '../src/test-utils/corpus-texts.ts';
import { seededRandom } from '../src/test-utils/synthetic-texts.ts';
import { base64From, cpuOf, loadBaseBuild, spread, unitsFrom } from './bench-helpers.ts';

const base = await loadBaseBuild();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const size = Number(process.env.BENCH_SIZE ?? 1_000_000);

type Library = typeof import('../dist/index.js');
const freshOf = (library: Library) => () => {
  const counter = library.createTokenCounter({
    encoding: 'o200k_base',
    loadEncoder: (encoding) => library.loadBytePairEncoder(encoding),
  });
  void counter.exact;
  return (text: string) => counter.count(text);
};
const builds: Array<[string, () => (text: string) => number]> = [
  ['this', freshOf({ createTokenCounter, loadBytePairEncoder } as Library)],
];
if (base) builds.push(['base', freshOf(base)]);

const random = seededRandom(7);
const units = unitsFrom(random);
const prosePool = transcriptSamples()
  .filter((sample) => sample.category === 'prose')
  .map((sample) => sample.text)
  .join('\n');
const proseOf = (length: number) => {
  let text = prosePool;
  while (text.length < length) text += `\n${prosePool}`;
  const offset = Math.floor(random() * Math.max(1, text.length - length));
  return text.slice(offset, offset + length);
};
const classes: Array<[string, (length: number) => string]> = [
  ['prose', proseOf],
  [
    'cjk-random',
    (n) => units([...'的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年'], n, false),
  ],
  ['cjk-one', (n) => units(['字'], n, true)],
  // Many distinct characters: the unit memo misses and gives up (it must cost nothing then).
  [
    'cjk-block',
    (n) =>
      units(
        Array.from({ length: 0x5200 }, (_, i) => String.fromCharCode(0x4e00 + i)),
        n,
        false,
      ),
  ],
  [
    'hangul',
    (n) =>
      units(
        Array.from({ length: 11_172 }, (_, i) => String.fromCharCode(0xac00 + i)),
        n,
        false,
      ),
  ],
  ['letters', (n) => units([...'abcdefghijklmnopqrstuvwxyz'], n, false)],
  ['one-letter', (n) => units(['a'], n, true)],
  [
    'mixed-case',
    (n) => units([...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'], n, false),
  ],
  ['alnum', (n) => units([...'abcdefghijklmnopqrstuvwxyz0123456789'], n, false)],
  [
    'accented',
    (n) => units([...'abcdefghijklmnopqrstuvwxyzàáâãäåæçèéêëìíîïñòóôõöøùúûüýÿß'], n, false),
  ],
  ['digits', (n) => units([...'0123456789'], n, false)],
  ['punctuation', (n) => units([...'!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~'], n, false)],
  // A unit count that gives up only at its end: CJK of a few characters, then glued letters.
  [
    'cjk+letters',
    (n) =>
      units([...'的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年'], n - 120, false) +
      units([...'abcdefghijklmnopqrstuvwxyz'], 120, false),
  ],
  [
    'kana+letters',
    (n) =>
      units([...'あいうえおかきくけこのはをにが'], n - 120, false) +
      units([...'abcdefghijklmnopqrstuvwxyz'], 120, false),
  ],
  ['box', (n) => units([...'─│┌┐└┘├┤┬┴┼═║╔╗╚╝'], n, false)],
  ['emoji', (n) => units(['😀', '🎉', '👍🏽', '🚀', '👨‍👩‍👧', '❤️'], n, false)],
  ['base64', base64From(random)],
];
const wanted = process.env.BENCH_CLASSES?.split(',');
const chosen = classes.filter(([name]) => name === 'prose' || !wanted || wanted.includes(name));

// times[class][build]: CPU ms per round; each round makes new texts and counts each with a fresh
// counter, classes and builds in a rotating order.
const times = chosen.map(() => builds.map((): number[] => []));
const ratios = chosen.map(() => builds.map((): number[] => []));
for (let round = 0; round < rounds; round++) {
  const texts = chosen.map(([, make]) => make(size));
  const jobs = chosen.flatMap((_, c) => builds.map((_, b) => [c, b] as const));
  const cpu = chosen.map(() => builds.map(() => 0));
  for (let k = 0; k < jobs.length; k++) {
    const [c, b] = jobs[(k + round * 3) % jobs.length]!;
    const count = builds[b]![1]();
    gc();
    cpu[c]![b] = cpuOf(() => count(texts[c]!));
  }
  chosen.forEach((_, c) => {
    builds.forEach((_, b) => {
      times[c]![b]!.push(cpu[c]![b]!);
      ratios[c]![b]!.push(cpu[c]![b]! / cpu[0]![b]!);
    });
  });
}
console.log(
  `${size.toLocaleString('en')} chars, ${rounds} rounds, CPU ms and x prose (same build, same round):`,
);
chosen.forEach(([name], c) => {
  builds.forEach(([build], b) => {
    console.log(
      `  ${name.padEnd(11)} ${build.padEnd(5)} ${spread(times[c]![b]!)} ms; ${spread(ratios[c]![b]!, 2)}x prose`,
    );
  });
});
