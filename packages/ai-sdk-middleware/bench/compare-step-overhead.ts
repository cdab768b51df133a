// Per-step `transformParams` CPU over a long tool loop, this build against another build of the
// package (for example main's, built in a second clone), in fresh processes that alternate: one
// process holds one middleware, so one build's garbage cannot slow the other's collections.
// Each process builds a history of `length` messages, sends it once, then runs `steps` steps of
// fresh copies plus one tool round trip and reports thread and whole-process CPU per step.
// Run after `pnpm build`:
//   node bench/compare-step-overhead.ts <other dist/index.js> [runs=5] [length:steps,...=1000:100,5000:100] [window]
// `window` (default far above the history) set below the history's size makes every step splice
// onto a compacted history instead of passing through.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Message = { role: string; content: unknown };

if (process.argv[2] === '--child') {
  const [dist, lengthText, stepsText, windowText] = process.argv.slice(3);
  const { compactionMiddleware } = (await import(dist!)) as typeof import('../dist/index.js');
  const model = { provider: 'bench', modelId: 'local-model' };
  // The same history and steps as the per-step table of background-latency.ts.
  const { fresh, toolStep } = await import('./background-latency.ts');
  const middleware = compactionMiddleware({ contextWindow: Number(windowText) });
  let history: Message[] = [
    { role: 'system', content: 'You are a careful coding agent.' },
    { role: 'user', content: [{ type: 'text', text: 'Fix the failing parser test.' }] },
  ];
  for (let index = 0; history.length < Number(lengthText); index++)
    history.push(...toolStep(index, 40));
  const call = (prompt: Message[]) =>
    middleware.transformParams?.({ type: 'generate', params: { prompt }, model } as never);
  await call(history);
  const steps = Number(stepsText);
  let thread = 0;
  let whole = 0;
  for (let step = 0; step < steps; step++) {
    history = [...fresh(history as never), ...toolStep(1_000_000 + step, 40)];
    const threadStart = process.threadCpuUsage();
    const wholeStart = process.cpuUsage();
    await call(history);
    const threadUsed = process.threadCpuUsage(threadStart);
    const wholeUsed = process.cpuUsage(wholeStart);
    thread += threadUsed.user + threadUsed.system;
    whole += wholeUsed.user + wholeUsed.system;
  }
  console.log(JSON.stringify({ thread: thread / 1000 / steps, whole: whole / 1000 / steps }));
} else {
  const other = process.argv[2];
  if (!other) throw new Error('usage: node bench/compare-step-overhead.ts <other dist/index.js> …');
  const builds = {
    this: fileURLToPath(new URL('../dist/index.js', import.meta.url)),
    other: resolve(other),
  };
  const runs = Number(process.argv[3] ?? 5);
  const shapes = (process.argv[4] ?? '1000:100,5000:100')
    .split(',')
    .map((shape) => shape.split(':'));
  const window = process.argv[5] ?? '100000000';
  const spread = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return [sorted[0]!, sorted[sorted.length >> 1]!, sorted.at(-1)!]
      .map((value) => value.toFixed(2))
      .join(' / ');
  };
  console.log(
    `load average ${loadavg()[0]!.toFixed(2)}, window ${window}, ${runs} processes per build`,
  );
  console.log('| Messages x steps | Build | Thread CPU ms per step | Process CPU ms per step |');
  console.log('| --- | --- | ---: | ---: |');
  for (const [length, steps] of shapes) {
    const results = {
      this: { thread: [] as number[], whole: [] as number[] },
      other: { thread: [] as number[], whole: [] as number[] },
    };
    for (let run = 0; run < runs; run++) {
      for (const name of run % 2 === 0
        ? (['other', 'this'] as const)
        : (['this', 'other'] as const)) {
        const output = execFileSync(
          process.execPath,
          [
            fileURLToPath(import.meta.url),
            '--child',
            pathToFileURL(builds[name]).href,
            length!,
            steps!,
            window,
          ],
          { encoding: 'utf8' },
        );
        const { thread, whole } = JSON.parse(output) as { thread: number; whole: number };
        results[name].thread.push(thread);
        results[name].whole.push(whole);
      }
    }
    for (const name of ['other', 'this'] as const)
      console.log(
        `| ${length} x ${steps} | ${name} | ${spread(results[name].thread)} | ${spread(results[name].whole)} |`,
      );
  }
  console.log(`load average ${loadavg()[0]!.toFixed(2)}`);
}
