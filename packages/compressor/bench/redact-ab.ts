/**
 * Cold redaction A/B: `redactMessages` of a salted 1,000-message corpus history and of the 50,000-
 * message synthetic agent history, this build's fallback against a baseline's, interleaved rounds,
 * memo cleared before each, thread CPU ms (min / median / max).
 * Run: pnpm build && BATON_FALLBACK_BASELINE=<base>/packages/fallback/dist/index.js node --expose-gc bench/redact-ab.ts [rounds]
 * (`KIND=corpus` or `KIND=synthetic` for one history; a third argument `this` or `base` for one
 * build, e.g. under `--cpu-prof`).
 */
import { median } from '@baton/test-corpus';
import { agentHistory, realHistory, salted } from './cold-and-large.ts';

type Mod = {
  redactMessages: (m: readonly unknown[]) => { messages: readonly unknown[]; findings: unknown[] };
};
const load = async (index: string) => ({
  mod: (await import(index)) as Mod,
  clear: (
    (await import(index.replace(/index\.js$/, 'redact-secrets.js'))) as {
      clearRedactionMemo: () => void;
    }
  ).clearRedactionMemo,
});
const here = new URL('../node_modules/@baton/fallback/dist/index.js', import.meta.url).href;
const builds: Array<{ name: string } & Awaited<ReturnType<typeof load>>> = [];
const base = process.env.BATON_FALLBACK_BASELINE;
if (base && process.argv[3] !== 'this') builds.push({ name: 'baseline', ...(await load(base)) });
if (process.argv[3] !== 'base') builds.push({ name: 'this', ...(await load(here)) });

const history = realHistory(1_000);

const threadMs = () => {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1_000;
};
const rounds = Number(process.argv[2] ?? 5);
const samples = builds.map(() => ({ corpus: [] as number[], synthetic: [] as number[] }));
let salt = 0;
for (let round = -1; round < rounds; round++) {
  for (const [which, build] of builds.entries()) {
    for (const kind of (process.env.KIND ? [process.env.KIND] : ['corpus', 'synthetic']) as Array<
      'corpus' | 'synthetic'
    >) {
      const s = `s${++salt}p${process.pid}`;
      const messages = kind === 'corpus' ? salted(history, s) : agentHistory(50_000, s);
      build.clear();
      (globalThis as { gc?: () => void }).gc?.();
      const started = threadMs();
      build.mod.redactMessages(messages);
      const spent = threadMs() - started;
      if (round >= 0) samples[which]![kind].push(spent);
    }
  }
}
const spread = (values: number[]) =>
  values.length === 0
    ? '-'
    : `${Math.min(...values).toFixed(0)} / ${median(values).toFixed(0)} / ${Math.max(...values).toFixed(0)}`;
for (const [which, build] of builds.entries()) {
  console.log(
    `${build.name}: corpus 1k ${spread(samples[which]!.corpus)} ms; synthetic 50k ${spread(samples[which]!.synthetic)} ms`,
  );
}
