/**
 * The exact-count phase of a first summarise alone (the `count` row of summarize-phases.ts), on
 * the agent-like 50,000-message history and on 1,000 real corpus messages repeated, this build and
 * a baseline interleaved round by round; everything before the count is done untimed.
 * Run: pnpm build && BATON_BENCH_BASELINE=<baseline>/packages/compressor/dist/index.js \
 *   node --expose-gc bench/count-phase-ab.ts [rounds]
 */
import { median } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { agentHistory, realHistory, salted } from './cold-and-large.ts';

async function phasesOf(index: string) {
  const beside = (file: string) => index.replace(/index\.js$/, file);
  return {
    redaction: (await import(
      beside('redact-for-summary.js')
    )) as typeof import('../src/redact-for-summary.ts'),
    segments: (await import(
      beside('transcript-segments.js')
    )) as typeof import('../src/transcript-segments.ts'),
  };
}

const baseline = process.env.BATON_BENCH_BASELINE;
const builds = [
  ...(baseline ? [{ name: 'baseline', ...(await phasesOf(baseline)) }] : []),
  { name: 'this build', ...(await phasesOf(new URL('../dist/index.js', import.meta.url).href)) },
];
const counter = createTokenCounter({ encoding: 'o200k_base' });
const threadMs = () => {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1_000;
};
const real = realHistory(1_000);
const histories = {
  'agent 50,000': (salt: string) => agentHistory(50_000, salt),
  'real 1,000 x 10': (salt: string) =>
    Array.from({ length: 10 }, (_, copy) => salted(real, `${salt}c${copy}`)).flat(),
};
const rounds = Number(process.argv[2] ?? 7);
const samples = new Map<string, number[]>();
let salt = 0;
for (let round = -1; round < rounds; round++) {
  for (const [history, make] of Object.entries(histories)) {
    for (const build of builds) {
      const messages = make(`r${++salt}p${process.pid}`);
      counter.countMessages(messages as never);
      const span = messages.slice(1, -2) as never[];
      const whole = build.redaction.redactWhole(span);
      const redacted = build.redaction.redactForSummary(span, 3_000, whole);
      const segments = redacted.map((message, position) =>
        build.segments.transcriptSegment(message, position + 1, 'concise', false),
      );
      const chunks: (typeof segments)[] = [];
      for (let at = 0; at < segments.length; at += 725) chunks.push(segments.slice(at, at + 725));
      const prompts = chunks.map((chunk) => build.segments.joinPrompt(chunk, undefined));
      (globalThis as { gc?: () => void }).gc?.();
      const started = threadMs();
      const countRequest = build.segments.createRequestCounter(
        counter,
        (position) => span[position],
      );
      for (const [at, chunk] of chunks.entries()) {
        countRequest('Summarise.', chunk, undefined, prompts[at], at * 725);
      }
      const spent = threadMs() - started;
      const key = `${history} | ${build.name}`;
      if (round >= 0) samples.set(key, [...(samples.get(key) ?? []), spent]);
    }
  }
}
console.log('| history | build | count CPU ms (min / median / max) |\n| --- | --- | ---: |');
for (const [key, values] of samples) {
  console.log(
    `| ${key} | ${Math.min(...values).toFixed(0)} / ${median(values).toFixed(0)} / ${Math.max(...values).toFixed(0)} |`,
  );
}
