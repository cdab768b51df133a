// Focused runs of two rows of run.ts, for iterating on the exact counter: first-pass throughput
// (fresh counters, interleaved with ai-tokenizer and raw WASM) and re-count after appending one
// message to a deep copy. BENCH_PART=throughput|recount|both (default both), BENCH_ROUNDS (7).
// BENCH_BASE=<dist directory of another build> adds that build as a contender (before/after in one
// process, interleaved).
import { createRequire } from 'node:module';
import { loadTranscripts } from '@baton/test-corpus';
import AiTokenizer from 'ai-tokenizer';
import * as aiEncodings from 'ai-tokenizer/encoding';
import { createTokenCounter, loadBytePairEncoder } from '../dist/index.js';
import { transcriptSamples } from '../src/test-utils/corpus-texts.ts';
import { loadBaseBuild } from './bench-helpers.ts';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const base = await loadBaseBuild();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const part = process.env.BENCH_PART ?? 'both';
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const stride = Number(process.env.BENCH_TEXT_STRIDE ?? 3);
const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const spread = (v: number[], d = 2) =>
  `${median(v).toFixed(d)} (${Math.min(...v).toFixed(d)}–${Math.max(...v).toFixed(d)})`;
const cpuOf = (work: () => void) => {
  const c0 = process.threadCpuUsage();
  work();
  const c = process.threadCpuUsage(c0);
  return (c.user + c.system) / 1000;
};
const fresh = () => {
  const counter = createTokenCounter({
    encoding: 'o200k_base',
    loadEncoder: (e) => loadBytePairEncoder(e),
  });
  void counter.exact;
  return counter;
};
const freshBase =
  base &&
  (() => {
    const counter = base.createTokenCounter({
      encoding: 'o200k_base',
      loadEncoder: (e) => base.loadBytePairEncoder(e),
    });
    void counter.exact;
    return counter;
  });

if (part !== 'recount') {
  const texts = transcriptSamples()
    .map((s) => s.text)
    .filter((_, i) => i % stride === 0);
  const mb = texts.reduce((s, t) => s + Buffer.byteLength(t), 0) / 1e6;
  const chunkCount = Math.max(1, Math.round(texts.reduce((s, t) => s + t.length, 0) / 1_500_000));
  const chunks: string[][] = Array.from({ length: chunkCount }, () => []);
  texts.forEach((t, i) => {
    chunks[i % chunkCount]!.push(t);
  });
  const dqbd = tiktoken.get_encoding('o200k_base');
  const makers: Array<[string, () => (t: string) => number]> = [
    [
      'baton',
      () => {
        const c = fresh();
        return (t) => c.count(t);
      },
    ],
    ['wasm', () => (t) => dqbd.encode_ordinary(t).length],
    [
      'ai-tokenizer',
      () => {
        const tk = new AiTokenizer(aiEncodings.o200k_base);
        return (t) => tk.encode(t, [], []).length;
      },
    ],
  ];
  if (base)
    makers.push([
      'base',
      () => {
        const c = freshBase!();
        return (t) => c.count(t);
      },
    ]);
  const reference = texts.reduce((s, t) => s + dqbd.encode_ordinary(t).length, 0);
  const ours = texts.reduce((s, t) => s + makers[0]![1]()(t), 0);
  if (ours !== reference) throw new Error(`count differs: ${ours} vs ${reference}`);
  const n = makers.length;
  const speed: number[][] = makers.map(() => []);
  const ratio: number[][] = makers.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const counters = makers.map(([, make]) => make());
    const cpu = new Array<number>(n).fill(0);
    gc();
    for (let c = 0; c < chunkCount; c++)
      for (let k = 0; k < n; k++) {
        const i = (k + c + round) % n;
        cpu[i]! += cpuOf(() => {
          for (const t of chunks[c]!) counters[i]!(t);
        });
      }
    for (let i = 0; i < n; i++) {
      speed[i]!.push(mb / (cpu[i]! / 1000));
      ratio[i]!.push(cpu[i]! / cpu[0]!);
    }
  }
  console.log(`first pass, ${mb.toFixed(2)} MB, ${rounds} rounds, MB/s CPU and baton's speed-up:`);
  makers.forEach(([name], i) => {
    console.log(
      `  ${name.padEnd(13)} ${spread(speed[i]!, 1)} MB/s; baton is ${spread(ratio[i]!)}x`,
    );
  });
}

if (part !== 'throughput') {
  const all = loadTranscripts().flatMap((t) => t.messages);
  const tiny = Array.from({ length: 10_000 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `ok ${i}`,
  }));
  const mixes: Array<[string, readonly object[], object]> = [
    ['1,000 transcript copies', all.slice(0, 1000), all[1000] ?? all[0]!],
    ['10,000 tiny copies', tiny, { role: 'user', content: 'and one more small question?' }],
  ];
  type Counter = { countMessages(messages: never): number };
  const builds: Array<[string, () => Counter]> = [['baton', fresh]];
  if (freshBase) builds.push(['base', freshBase]);
  for (const [name, messages, appended] of mixes) {
    const colds = builds.map((): number[] => []);
    const agains = builds.map((): number[] => []);
    const ratios = builds.map((): number[] => []);
    for (let round = 0; round < rounds; round++) {
      // Builds alternate which goes first, round by round.
      for (let k = 0; k < builds.length; k++) {
        const b = (k + round) % builds.length;
        const counter = builds[b]![1]();
        gc();
        const cold = cpuOf(() => counter.countMessages(messages as never));
        const nexts = Array.from({ length: 20 }, (_, i) =>
          structuredClone([
            ...messages,
            {
              ...appended,
              content: `${(appended as { content: string }).content} (${round}.${i})`,
            },
          ]),
        );
        gc();
        const again =
          cpuOf(() => {
            for (const n of nexts) counter.countMessages(n as never);
          }) / 20;
        colds[b]!.push(cold);
        agains[b]!.push(again);
        ratios[b]!.push((again / cold) * 100);
      }
    }
    builds.forEach(([build], b) => {
      console.log(
        `${name} (${build}): cold ${spread(colds[b]!)} ms; re-count ${spread(agains[b]!, 3)} ms; ratio ${spread(ratios[b]!)} %`,
      );
    });
  }
}
