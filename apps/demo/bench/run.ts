// Demo timings: how long a new user waits for the first compaction, and what the server adds per
// turn. Runs the built server in-process (`pnpm build` first) and writes bench-results/results.md.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '@baton/test-corpus';

// The built server, typed from its source.
const built = (file: string) => new URL(`../dist/server/${file}`, import.meta.url).href;
const { createDemoServer } = (await import(
  built('create-demo-server.js')
)) as typeof import('../src/server/create-demo-server.js');
const { readDemoConfig } = (await import(
  built('read-demo-config.js')
)) as typeof import('../src/server/read-demo-config.js');

const appDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Pause the page's Auto-run leaves between turns. */
const AUTO_RUN_PAUSE_MS = 700;

type Server = Awaited<ReturnType<typeof createDemoServer>>;

async function open(stepDelayMs: number | undefined) {
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'baton-demo-bench-'));
  const config = readDemoConfig({}, appDirectory);
  const started = performance.now();
  const server = await createDemoServer({
    config: { ...config, dataDirectory, ...(stepDelayMs === undefined ? {} : { stepDelayMs }) },
    environment: {},
    log: () => undefined,
  });
  return { server, dataDirectory, readyMs: performance.now() - started };
}

async function turn(server: Server, id: string): Promise<number> {
  const started = performance.now();
  const response = await server.app.request('/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      message: { id, role: 'user', parts: [{ type: 'text', text: 'continue' }] },
    }),
  });
  await response.text();
  return performance.now() - started;
}

async function compactions(server: Server) {
  return (await server.state()).compactions;
}

const format = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

// 1. What a new user sees: default pacing, Auto-run, until the second compaction.
const paced = await open(undefined);
const pacedStart = performance.now();
const firstAt: { turn: number; seconds: number } = { turn: 0, seconds: 0 };
let turns = 0;
while ((await compactions(paced.server)).length < 2 && turns < 30) {
  await turn(paced.server, `paced-${turns}`);
  turns++;
  if (firstAt.turn === 0 && (await compactions(paced.server)).length === 1) {
    firstAt.turn = turns;
    firstAt.seconds = (performance.now() - pacedStart) / 1000;
  }
  await new Promise((resolve) => setTimeout(resolve, AUTO_RUN_PAUSE_MS));
}
const pacedEvents = await compactions(paced.server);
await paced.server.close();
await rm(paced.dataDirectory, { recursive: true, force: true });

// 2. Server cost without pacing: cold start (PGlite), turn latency, compaction time.
const ready: number[] = [];
const turnMs: number[] = [];
const compactionMs: number[] = [];
for (let run = 0; run < 3; run++) {
  const fast = await open(0);
  ready.push(fast.readyMs);
  for (let index = 0; index < 8; index++)
    turnMs.push(await turn(fast.server, `fast-${run}-${index}`));
  for (const compaction of await compactions(fast.server))
    compactionMs.push(compaction.event.durationMs);
  await fast.server.close();
  await rm(fast.dataDirectory, { recursive: true, force: true });
}

const first = pacedEvents[0];
const lines = [
  '## @baton/demo',
  '',
  'Offline scripted agent, default settings (window 8,000, receipt strategy). Paced run: the default',
  `step delay (250 ms) and Auto-run's ${AUTO_RUN_PAUSE_MS} ms pause between turns, as a new user sees it.`,
  '',
  '| paced run | value |',
  '| --- | --- |',
  `| first compaction | turn ${firstAt.turn}, ${format(firstAt.seconds, 1)} s after the first Continue |`,
  `| first compaction tokens (prompt of the compacting call, tool definitions included) | ${first ? `${format(first.event.tokensBefore)} → ${format(first.event.tokensAfter)}` : 'none'} |`,
  `| second compaction | turn ${pacedEvents[1]?.turn ?? 'none'} |`,
  '',
  'Unpaced (step delay 0), 3 fresh data directories, 8 turns each; medians:',
  '',
  '| server cost | median | runs |',
  '| --- | --- | --- |',
  `| server ready (PGlite cold open, migrations, workspace) | ${format(median(ready))} ms | ${ready.length} |`,
  `| one agent turn (all steps, real tools and \`node --test\` runs, reply streamed at 12 ms a word) | ${format(median(turnMs))} ms | ${turnMs.length} |`,
  `| one compaction inside the middleware (receipt) | ${format(median(compactionMs), 1)} ms | ${compactionMs.length} |`,
  '',
];
await mkdir(path.join(appDirectory, 'bench-results'), { recursive: true });
await writeFile(path.join(appDirectory, 'bench-results', 'results.md'), lines.join('\n'));
console.log(lines.join('\n'));
