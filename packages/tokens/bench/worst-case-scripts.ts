// Worst-case inputs beyond bench/run.ts's list: runs without whitespace in other scripts
// (Cyrillic, Arabic, Thai, Devanagari, Greek, random BMP characters) and whitespace-only texts,
// each counted once by a fresh counter against transcript prose of the same length, alternating
// text and prose per round, process CPU. Found by an outside attack (session 18): several of these
// exceed the 10x-prose target at 1,000,000 characters although every count stays exact.
// Run after `pnpm build`: node bench/worst-case-scripts.ts [sizes, default 100000,1000000] [rounds, default 3] [class,...]
import { createTokenCounter, loadBytePairEncoder } from '../dist/index.js';
import { transcriptSamples } from '../src/test-utils/corpus-texts.ts';
import { seededRandom } from '../src/test-utils/synthetic-texts.ts';

const sizes = (process.argv[2] ?? '100000,1000000').split(',').map(Number);
const rounds = Number(process.argv[3] ?? 3);
const only = process.argv[4]?.split(',');
const prosePool = transcriptSamples()
  .filter((sample) => sample.category === 'prose')
  .map((sample) => sample.text)
  .join('\n');
const random = seededRandom(18);
const index = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]) => items[index(items.length)]!;
const fill = (length: number, next: () => string) => {
  let text = '';
  while (text.length < length) text += next();
  return text.slice(0, length);
};
const proseOf = (length: number) => {
  let text = prosePool;
  while (text.length < length) text += `\n${prosePool}`;
  const offset = index(Math.max(1, text.length - length));
  return text.slice(offset, offset + length);
};
const consonants = [...'कखगघचछजझटठडढणतथदधनपफबभमयरलवशषसह'];
const signs = ['ि', 'ी', 'ु', 'ू', '्', 'ं', ''];
const classes: Record<string, (length: number) => string> = {
  cyrillic: (n) => fill(n, () => pick([...'абвгдежзийклмнопрстуфхцчшщъыьэюя'])),
  arabic: (n) => fill(n, () => pick([...'ابتثجحخدذرزسشصضطظعغفقكلمنهوي'])),
  thai: (n) =>
    fill(n, () => pick([...'กขคงจฉชซญดตถทนบปผพฟมยรลวสหอ']) + pick(['่', '้', 'ั', 'ิ', 'ี', 'ุ', ''])),
  devanagari: (n) => fill(n, () => pick(consonants) + pick(signs)),
  greek: (n) => fill(n, () => pick([...'αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔ'])),
  'random BMP characters': (n) => fill(n, () => String.fromCharCode(index(0xd800))),
  'spaces and newlines': (n) => fill(n, () => ' '.repeat(index(200)) + '\n'.repeat(1 + index(3))),
  'newlines only': (n) => '\n'.repeat(n),
};
const cpu = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const fresh = () => {
  const counter = createTokenCounter({
    encoding: 'o200k_base',
    loadEncoder: (encoding) => loadBytePairEncoder(encoding),
  });
  void counter.exact;
  return counter;
};
fresh().count(proseOf(200_000));
const median = (values: number[]) => values.slice().sort((a, b) => a - b)[values.length >> 1]!;
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
