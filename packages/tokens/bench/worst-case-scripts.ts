// Worst-case inputs beyond bench/run.ts's list: runs without whitespace in other scripts
// (Cyrillic, Arabic, Thai, Devanagari, Greek, random BMP characters) and whitespace-only texts,
// each counted once by a fresh counter against transcript prose of the same length, alternating
// text and prose per round, process CPU. Found by an outside attack (session 18): several of these
// exceed the 10x-prose target at 1,000,000 characters although every count stays exact.
// Run after `pnpm build`: node bench/worst-case-scripts.ts [sizes, default 100000,1000000] [rounds, default 3] [class,...]
// With BENCH_BASE=<dist directory of another build>: both builds interleaved in one process (order
// rotating per round), thread CPU and wall, median (min–max), with transcript prose and code rows.
import { createTokenCounter, loadBytePairEncoder } from '../dist/index.js';
import { transcriptSamples } from '../src/test-utils/corpus-texts.ts';
import { seededRandom } from '../src/test-utils/synthetic-texts.ts';
import { loadBaseBuild, spread } from './bench-helpers.ts';

const sizes = (process.argv[2] ?? '100000,1000000').split(',').map(Number);
const rounds = Number(process.argv[3] ?? 3);
const only = process.argv[4]?.split(',');
const poolOf = (category: string) =>
  transcriptSamples()
    .filter((sample) => sample.category === category)
    .map((sample) => sample.text)
    .join('\n');
const prosePool = poolOf('prose');
const codePool = poolOf('code');
const random = seededRandom(18);
const index = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]) => items[index(items.length)]!;
const fill = (length: number, next: () => string) => {
  let text = '';
  while (text.length < length) text += next();
  return text.slice(0, length);
};
const sliceOf = (pool: string, length: number) => {
  let text = pool;
  while (text.length < length) text += `\n${pool}`;
  const offset = index(Math.max(1, text.length - length));
  return text.slice(offset, offset + length);
};
const proseOf = (length: number) => sliceOf(prosePool, length);
const consonants = [...'कखगघचछजझटठडढणतथदधनपफबभमयरलवशषसह'];
const signs = ['ि', 'ी', 'ु', 'ू', '्', 'ं', ''];
const alphabets = [
  'абвгдежзийклмнопрстуфхцчшщ',
  'αβγδεζηθικλμνξοπρστυφχψω',
  'ابتثجحخدذرزسشصضطظعغفقكلمن',
  'กขคงจฉชซญดตถทนบปผพฟมยรลวสหอ',
  'कखगघचछजझटठडढणतथदधनपफबभमयरलवशषसह',
  '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年',
  'あいうえおかきくけこさしすせそ',
  '가나다라마바사아자차카타파하',
  'abcdefghijklmnopqrstuvwxyz',
  'אבגדהוזחטיכלמנסעפצקרשת',
].map((letters) => [...letters]);
const classes: Record<string, (length: number) => string> = {
  cyrillic: (n) => fill(n, () => pick([...'абвгдежзийклмнопрстуфхцчшщъыьэюя'])),
  arabic: (n) => fill(n, () => pick([...'ابتثجحخدذرزسشصضطظعغفقكلمنهوي'])),
  thai: (n) =>
    fill(n, () => pick([...'กขคงจฉชซญดตถทนบปผพฟมยรลวสหอ']) + pick(['่', '้', 'ั', 'ิ', 'ี', 'ุ', ''])),
  devanagari: (n) => fill(n, () => pick(consonants) + pick(signs)),
  greek: (n) => fill(n, () => pick([...'αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔ'])),
  'random BMP characters': (n) => fill(n, () => String.fromCharCode(index(0xd800))),
  // Session 22's adversarial classes: lone surrogates (each U+FFFD in UTF-8) split by letters into
  // pieces of a few characters, nearly half of them new; letters of ten scripts alternating every
  // character; Han with numbers; private-use characters.
  'lone surrogates': (n) =>
    fill(n, () => String.fromCharCode(0xd800 + index(0x800)) + (random() < 0.3 ? 'a' : '')),
  'ten scripts alternating': (n) => fill(n, () => pick(pick(alphabets))),
  'Han and digits': (n) =>
    fill(n, () => pick(alphabets[5]!) + (random() < 0.5 ? String(index(1000)) : '')),
  'private use': (n) => fill(n, () => String.fromCharCode(0xe000 + index(0x1900))),
  // Issue 10 §1 probes: other random-character classes that defeat per-piece memos.
  'random CJK Ext-A': (n) => fill(n, () => String.fromCharCode(0x3400 + index(0x19c0))),
  'random Hangul syllables': (n) => fill(n, () => String.fromCharCode(0xac00 + index(11172))),
  'mixed-script random': (n) =>
    fill(n, () =>
      String.fromCharCode(
        pick([0x0400, 0x0600, 0x0900, 0x0e00, 0x4e00, 0xac00, 0x0370])! + index(0x100),
      ),
    ),
  'random symbols': (n) => fill(n, () => String.fromCharCode(0x2000 + index(0x800))),
  'combining marks': (n) =>
    fill(
      n,
      () => pick([...'aeiou']) + String.fromCharCode(0x300 + index(0x70)).repeat(1 + index(4)),
    ),
  'random supplementary': (n) => fill(n, () => String.fromCodePoint(0x10000 + index(0x20000))),
  'fullwidth forms': (n) => fill(n, () => String.fromCharCode(0xff00 + index(0xf0))),
  'random Latin-1': (n) => fill(n, () => String.fromCharCode(0xa0 + index(0x60))),
  'random BMP with spaces': (n) => {
    let text = '';
    while (text.length < n) {
      for (let k = 3 + index(6); k > 0; k--) text += String.fromCharCode(index(0xd800));
      text += ' ';
    }
    return text.slice(0, n);
  },
  'spaces and newlines': (n) => fill(n, () => ' '.repeat(index(200)) + '\n'.repeat(1 + index(3))),
  'newlines only': (n) => '\n'.repeat(n),
};
const base = await loadBaseBuild();
if (base) {
  classes.prose = proseOf;
  classes.code = (n) => sliceOf(codePool, n);
}
const cpu = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
type Library = typeof import('../dist/index.js');
const freshOf = (library: Library) => () => {
  const counter = library.createTokenCounter({
    encoding: 'o200k_base',
    loadEncoder: (encoding) => library.loadBytePairEncoder(encoding),
  });
  void counter.exact;
  return counter;
};
const fresh = freshOf({ createTokenCounter, loadBytePairEncoder } as Library);
fresh().count(proseOf(200_000));
const median = (values: number[]) => values.slice().sort((a, b) => a - b)[values.length >> 1]!;
if (base) await compareBuilds(base);
else {
  console.log(
    `| Text | ${sizes.map((size) => `${size.toLocaleString('en')} chars: ms (x prose)`).join(' | ')} |`,
  );
  console.log(`| --- | ${sizes.map(() => '---:').join(' | ')} |`);
  for (const [name, make] of Object.entries(classes)) {
    if (only && !only.includes(name)) continue;
    const cells: string[] = [];
    for (const size of sizes) {
      const times: number[] = [];
      const ratios: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const text = make(size);
        const prose = proseOf(size);
        const [first, second] = [fresh(), fresh()];
        let start = cpu();
        first.count(text);
        const textTime = cpu() - start;
        start = cpu();
        second.count(prose);
        const proseTime = cpu() - start;
        times.push(textTime);
        ratios.push(textTime / Math.max(proseTime, 1));
      }
      cells.push(`${median(times).toFixed(0)} (${median(ratios).toFixed(1)}x)`);
    }
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
}

/** This build against `base`: per round, each build counts the text and prose (fresh counters). */
async function compareBuilds(base: Library): Promise<void> {
  const builds = [fresh, freshOf(base)];
  freshOf(base)().count(proseOf(200_000));
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const thread = () => {
    const used = process.threadCpuUsage();
    return (used.user + used.system) / 1000;
  };
  console.log(
    `load average before: ${(await import('node:os'))
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    '| Text | chars | build | CPU ms | x prose (CPU) | wall ms | x prose (wall) | this/base CPU |',
  );
  console.log('| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [name, make] of Object.entries(classes)) {
    if (only && !only.includes(name)) continue;
    for (const size of sizes) {
      const cpuTimes = builds.map((): number[] => []);
      const wallTimes = builds.map((): number[] => []);
      const cpuRatios = builds.map((): number[] => []);
      const wallRatios = builds.map((): number[] => []);
      const perRound: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const text = make(size);
        const prose = proseOf(size);
        const measured = builds.map(() => [0, 0, 0, 0]);
        for (let k = 0; k < builds.length; k++) {
          const b = (k + round) % builds.length;
          for (const [slot, input] of [
            [0, text],
            [2, prose],
          ] as const) {
            const counter = builds[b]!();
            gc();
            const wallStart = performance.now();
            const cpuStart = thread();
            counter.count(input);
            measured[b]![slot] = thread() - cpuStart;
            measured[b]![slot + 1] = performance.now() - wallStart;
          }
        }
        measured.forEach(([textCpu, textWall, proseCpu, proseWall], b) => {
          cpuTimes[b]!.push(textCpu!);
          wallTimes[b]!.push(textWall!);
          cpuRatios[b]!.push(textCpu! / Math.max(proseCpu!, 0.5));
          wallRatios[b]!.push(textWall! / Math.max(proseWall!, 0.5));
        });
        perRound.push(measured[0]![0]! / measured[1]![0]!);
      }
      builds.forEach((_, b) => {
        const label = b === 0 ? 'this' : 'base';
        const relative = b === 0 ? spread(perRound, 2) : '';
        console.log(
          `| ${name} | ${size.toLocaleString('en')} | ${label} | ${spread(cpuTimes[b]!, 0)} | ${spread(cpuRatios[b]!)} | ${spread(wallTimes[b]!, 0)} | ${spread(wallRatios[b]!)} | ${relative} |`,
        );
      });
    }
  }
  console.log(
    `load average after: ${(await import('node:os'))
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}`,
  );
}
