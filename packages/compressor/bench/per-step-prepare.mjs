// Per-step CPU of createContextManager.prepare under the threshold, by history length: the next
// step of a tool loop (fresh message objects around the same strings, as the AI SDK hands them
// over), 7 rounds x 20 steps per length, lengths and builds interleaved.
// Run: pnpm build && node --expose-gc bench/per-step-prepare.mjs
// With BATON_BENCH_BASELINE=<another build's dist/index.js> that build is measured alongside.
import { createContextManager as current } from '../dist/index.js';

const baselinePath = process.env.BATON_BENCH_BASELINE;
const baseline = baselinePath ? (await import(baselinePath)).createContextManager : undefined;
const words =
  'const return await function import export value result error message handler request'.split(' ');
let seed = 7;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const text = (n) =>
  Array.from(
    { length: n },
    () =>
      words[Math.floor(rnd() * words.length)] +
      (rnd() < 0.2 ? Math.floor(rnd() * 1e6).toString(36) : ''),
  ).join(' ');
function history(turns) {
  const h = [{ role: 'system', content: 'You are an agent.' }];
  for (let t = 0; t < turns; t++) {
    h.push({ role: 'user', content: [{ type: 'text', text: `look at src/m${t}.ts ${text(10)}` }] });
    h.push({
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: `c${t}`,
          toolName: 'read',
          input: { path: `src/m${t}.ts` },
        },
      ],
    });
    h.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `c${t}`,
          toolName: 'read',
          output: { type: 'text', value: text(20) },
        },
      ],
    });
    h.push({ role: 'assistant', content: [{ type: 'text', text: text(10) }] });
  }
  return h;
}
const fresh = (h) =>
  h.map((m) => ({
    ...m,
    content: Array.isArray(m.content) ? m.content.map((p) => ({ ...p })) : m.content,
  }));
const builds = baseline ? { baseline, current } : { current };
const rows = [];
for (const turns of [95, 320, 1320]) {
  const state = Object.entries(builds).map(([name, create]) => ({
    name,
    manager: create({ contextWindow: 100_000_000, sessionId: `s${turns}` }),
    base: history(turns),
    cpu: [],
  }));
  for (const s of state) await s.manager.prepare(fresh(s.base));
  for (let round = 0; round < 7; round++) {
    for (const s of state) {
      let cpu = 0;
      for (let step = 0; step < 20; step++) {
        s.base.push({
          role: 'user',
          content: [{ type: 'text', text: `step ${round}.${step} ${text(5)}` }],
        });
        const msgs = fresh(s.base);
        globalThis.gc?.();
        const t0 = process.cpuUsage();
        await s.manager.prepare(msgs);
        const d = process.cpuUsage(t0);
        cpu += (d.user + d.system) / 1000;
      }
      s.cpu.push(cpu / 20);
    }
  }
  for (const s of state) {
    const v = [...s.cpu].sort((a, b) => a - b);
    rows.push(
      `| ${s.base.length.toLocaleString('en-US')} | ${s.name} | ${v[0].toFixed(3)} / ${v[3].toFixed(3)} / ${v[6].toFixed(3)} |`,
    );
  }
}
console.log(
  '| messages | build | CPU ms per step (min / median / max) |\n| ---: | --- | ---: |\n' +
    rows.join('\n'),
);
