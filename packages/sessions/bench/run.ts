// Benchmarks for @baton/sessions, PGlite and PostgreSQL in one run. Writes bench-results/results.md.
// Run: pnpm --filter @baton/sessions bench (after a build). Node >= 22.18 runs this file directly.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '@baton/test-corpus';
import pg from 'pg';
import { agentMessage } from './agent-message.ts';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
// The built package, as users get it. Typed from the sources so typechecking needs no build first.
const distEntry = join(packageDir, 'dist', 'index.js');
const { createSessionStore, messages: messagesTable } = (await import(
  distEntry
)) as typeof import('../src/index.js');

type Store = Awaited<ReturnType<typeof createSessionStore>>;
const postgresUrl = process.env.BATON_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

async function time(run: () => Promise<unknown>): Promise<number> {
  gc();
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const messagesOf = (count: number, offset = 0) =>
  Array.from({ length: count }, (_, i) => agentMessage(offset + i));

interface BackendResult {
  append1: number;
  append100: number;
  rawInsert100: number;
  lineage1000: number;
  resume10000: number;
}

async function measure(store: Store): Promise<BackendResult> {
  // Append throughput, one message per call (one transaction each).
  const single = await store.createSession();
  const singleCount = 500;
  const singleRuns: number[] = [];
  for (let run = 0; run < 3; run++) {
    const batch = messagesOf(singleCount, run * singleCount);
    const ms = await time(async () => {
      for (const item of batch) await store.appendMessages(single.id, [item]);
    });
    singleRuns.push((singleCount / ms) * 1000);
  }

  // Append throughput, 100 messages per call.
  const batched = await store.createSession();
  const batchRuns: number[] = [];
  for (let run = 0; run < 3; run++) {
    const batches = Array.from({ length: 30 }, (_, b) => messagesOf(100, (run * 30 + b) * 100));
    const ms = await time(async () => {
      for (const batch of batches) await store.appendMessages(batched.id, batch);
    });
    batchRuns.push((3_000 / ms) * 1000);
  }

  // The same batches inserted straight through drizzle, one transaction each as the store does, but
  // no validation, row lock or sequence lookup. The ratio is what the store's guarantees cost.
  const raw = await store.createSession();
  const rawRuns: number[] = [];
  let rawSequence = 0;
  for (let run = 0; run < 3; run++) {
    const batches = Array.from({ length: 30 }, (_, b) => messagesOf(100, (run * 30 + b) * 100));
    const ms = await time(async () => {
      for (const batch of batches) {
        await store.db.transaction(async (tx) => {
          await tx.insert(messagesTable).values(
            batch.map((item) => ({
              sessionId: raw.id,
              sequence: rawSequence++,
              role: item.role,
              message: item,
            })),
          );
        });
      }
    });
    rawRuns.push((3_000 / ms) * 1000);
  }

  // lineage() on a chain 1,000 sessions deep.
  let leaf = (await store.createSession()).id;
  for (let depth = 1; depth < 1_000; depth++)
    leaf = (await store.createSession({ parentId: leaf })).id;
  const lineageRuns: number[] = [];
  for (let run = 0; run < 15; run++) {
    lineageRuns.push(
      await time(async () => {
        const chain = await store.lineage(leaf);
        if (chain.length !== 1_000) throw new Error(`lineage length ${chain.length}`);
      }),
    );
  }

  // resume() of a session holding 10,000 messages.
  const big = await store.createSession();
  for (let offset = 0; offset < 10_000; offset += 1_000) {
    await store.appendMessages(big.id, messagesOf(1_000, offset));
  }
  const resumeRuns: number[] = [];
  for (let run = 0; run < 7; run++) {
    resumeRuns.push(
      await time(async () => {
        const { messages } = await store.resume(big.id);
        if (messages.length !== 10_000) throw new Error(`resume returned ${messages.length}`);
      }),
    );
  }

  return {
    append1: median(singleRuns),
    append100: median(batchRuns),
    rawInsert100: median(rawRuns),
    lineage1000: median(lineageRuns),
    resume10000: median(resumeRuns),
  };
}

/** Cold open in a fresh process: import, WASM start-up, migrations, first query. */
function pgliteColdOpen(): number[] {
  const script = `
    const start = performance.now();
    const { createSessionStore } = await import(${JSON.stringify(distEntry)});
    const store = await createSessionStore();
    await store.createSession();
    console.log(performance.now() - start);
    await store.close();`;
  return Array.from({ length: 3 }, () =>
    Number(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
      }).trim(),
    ),
  );
}

async function postgresDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const admin = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const name = `baton_sessions_bench_${process.pid}`;
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

/**
 * A fleet figure through `@baton/ai-sdk-middleware` (its built `dist`, loaded by path: it depends on
 * this package, not the other way round; build it first): one process serves `conversations`
 * conversations at once, each a tool loop of `steps` steps whose history grows ~200 tokens a step and
 * compacts a few times (`truncate`, no summariser calls), on a mock model. Per step: wall time
 * of the `generateText` call (store reads and writes, redaction, counting, compaction). `rounds`
 * rounds, each with fresh conversation ids; the lineages are checked after each round.
 */
interface FleetResult {
  stepsPerSecond: number[];
  cpuMsPerStep: number[];
  p50: number;
  p95: number;
  compactingP50: number | undefined;
  compactingP95: number | undefined;
  compactions: number;
  failures: number;
  badLineages: number;
}

const middlewareEntry = join(packageDir, '..', 'ai-sdk-middleware', 'dist', 'index.js');

async function fleet(
  store: Store,
  label: string,
  { conversations = 50, steps = 24, rounds = 5 } = {},
): Promise<FleetResult | string> {
  let middleware: { compactionMiddleware: (options: Record<string, unknown>) => unknown };
  try {
    middleware = await import(middlewareEntry);
  } catch {
    return `not run: build @baton/ai-sdk-middleware first (${middlewareEntry} missing)`;
  }
  const { generateText, wrapLanguageModel } = await import('ai');
  const { MockLanguageModelV4 } = await import('ai/test');
  const inner = new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'ok' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: {
          total: undefined,
          noCache: undefined,
          cacheRead: undefined,
          cacheWrite: undefined,
        },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    }),
  });
  // One history per conversation index: user ask, then tool call, tool result, user turn per step.
  const history = (conversation: number, length: number) => [
    { role: 'user', content: `Conversation ${conversation}: fix the failing build.` },
    ...messagesOf(length - 1, conversation * 3_000),
  ];
  const stepsPerSecond: number[] = [];
  const cpuMsPerStep: number[] = [];
  const latencies: number[] = [];
  const compacting: number[] = [];
  let compactions = 0;
  let failures = 0;
  let badLineages = 0;
  for (let round = 0; round < rounds; round++) {
    const ids = Array.from(
      { length: conversations },
      (_, c) => `bench-${label}-${round}-${c}-${crypto.randomUUID()}`,
    );
    const compactedNow = new Set<string>();
    const models = ids.map((sessionId) =>
      wrapLanguageModel({
        model: inner,
        middleware: middleware.compactionMiddleware({
          store,
          sessionId,
          contextWindow: 4_000,
          strategy: 'truncate',
          onCompaction: () => {
            compactedNow.add(sessionId);
            compactions++;
          },
        }) as never,
      }),
    );
    gc();
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    await Promise.all(
      ids.map(async (sessionId, c) => {
        for (let step = 1; step <= steps; step++) {
          const begun = performance.now();
          try {
            await generateText({ model: models[c]!, messages: history(c, 3 * step + 1) as never });
          } catch {
            failures++;
          }
          const ms = performance.now() - begun;
          latencies.push(ms);
          if (compactedNow.delete(sessionId)) compacting.push(ms);
        }
      }),
    );
    const wall = performance.now() - start;
    const cpu = process.cpuUsage(cpuStart);
    stepsPerSecond.push(((conversations * steps) / wall) * 1000);
    cpuMsPerStep.push((cpu.user + cpu.system) / 1000 / (conversations * steps));
    for (const id of ids) {
      const open = await store.listSessions({ rootId: id });
      const all = await store.listSessions({ rootId: id, includeEnded: true, limit: 1_000 });
      if (open.length !== 1 || all.some((session) => session.origin === 'fork')) badLineages++;
    }
  }
  const quantile = (values: number[], q: number) => {
    if (values.length === 0) return undefined;
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  };
  return {
    stepsPerSecond,
    cpuMsPerStep,
    p50: quantile(latencies, 0.5)!,
    p95: quantile(latencies, 0.95)!,
    compactingP50: quantile(compacting, 0.5),
    compactingP95: quantile(compacting, 0.95),
    compactions,
    failures,
    badLineages,
  };
}

const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

// `BATON_BENCH_FLEET=<conversations>,<steps>,<rounds>` runs only the fleet figure, at that size, and
// prints it (results.md is left as it is): a quick look while changing the middleware or the store.
const fleetOnly = process.env.BATON_BENCH_FLEET?.split(',').map(Number);
if (fleetOnly !== undefined) {
  const [conversations = 50, steps = 24, rounds = 1] = fleetOnly;
  const store = await createSessionStore();
  console.log('PGlite', await fleet(store, 'pglite', { conversations, steps, rounds }));
  await store.close();
  const database = await postgresDatabase();
  if (database) {
    const postgres = await createSessionStore({ connectionString: database.url });
    console.log('PostgreSQL', await fleet(postgres, 'postgres', { conversations, steps, rounds }));
    await postgres.close();
    await database.drop();
  }
  process.exit(0);
}

const cold = pgliteColdOpen();
const pglite = await createSessionStore();
const pgliteResult = await measure(pglite);
await pglite.close();
const pgliteFleetStore = await createSessionStore();
const pgliteFleet = await fleet(pgliteFleetStore, 'pglite');
await pgliteFleetStore.close();

const database = await postgresDatabase();
let postgresResult: BackendResult | undefined;
let postgresFleet: FleetResult | string = 'not run: PostgreSQL not reachable';
if (database) {
  const store = await createSessionStore({ connectionString: database.url });
  try {
    postgresResult = await measure(store);
    postgresFleet = await fleet(store, 'postgres');
  } finally {
    await store.close();
    await database.drop();
  }
}

// Always "how many times faster PostgreSQL is": rates divide one way, durations the other.
const faster = (pglite: number, postgres: number | undefined, kind: 'rate' | 'time') =>
  postgres === undefined
    ? 'n/a'
    : `${fmt(kind === 'rate' ? postgres / pglite : pglite / postgres, 2)}x`;
const cell = (value: number | undefined, digits = 0) =>
  value === undefined ? 'not run' : fmt(value, digits);
const p = postgresResult;
const lines = [
  '## @baton/sessions',
  '',
  `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; PostgreSQL: ${p ? 'local server (127.0.0.1:5432, node-postgres pool)' : 'not reachable, column not run'}. Medians; messages are agent-like (tool call, ~600-char tool result, user turn).`,
  '',
  '| Measure | PGlite (in memory) | PostgreSQL | PostgreSQL speed vs PGlite |',
  '| --- | ---: | ---: | ---: |',
  `| appendMessages, batches of 1 (messages/s) | ${fmt(pgliteResult.append1)} | ${cell(p?.append1)} | ${faster(pgliteResult.append1, p?.append1, 'rate')} |`,
  `| appendMessages, batches of 100 (messages/s) | ${fmt(pgliteResult.append100)} | ${cell(p?.append100)} | ${faster(pgliteResult.append100, p?.append100, 'rate')} |`,
  `| raw drizzle insert, batches of 100 (messages/s) | ${fmt(pgliteResult.rawInsert100)} | ${cell(p?.rawInsert100)} | ${faster(pgliteResult.rawInsert100, p?.rawInsert100, 'rate')} |`,
  `| lineage, chain of depth 1,000 (ms) | ${fmt(pgliteResult.lineage1000, 1)} | ${cell(p?.lineage1000, 1)} | ${faster(pgliteResult.lineage1000, p?.lineage1000, 'time')} |`,
  `| resume, session of 10,000 messages (ms) | ${fmt(pgliteResult.resume10000, 1)} | ${cell(p?.resume10000, 1)} | ${faster(pgliteResult.resume10000, p?.resume10000, 'time')} |`,
  '',
  `Store overhead against raw drizzle inserts (batches of 100): PGlite ${fmt(pgliteResult.append100 / pgliteResult.rawInsert100, 2)}x${p ? `, PostgreSQL ${fmt(p.append100 / p.rawInsert100, 2)}x` : ''} of the raw rate (validation, row lock, sequence lookup, one transaction per call).`,
  '',
  '| PGlite cold open (fresh process: import, start, migrate, first query) | ms |',
  '| --- | ---: |',
  `| median of ${cold.length} | ${fmt(median(cold))} |`,
  `| runs | ${cold.map((ms) => fmt(ms)).join(', ')} |`,
  '',
  '### One process serving 50 conversations through the middleware',
  '',
  'Each conversation is a tool loop of 24 `generateText` steps through `compactionMiddleware` (mock',
  'model, `truncate`, 4,000-token window: ~2 compactions per conversation), all 50 at once in one process,',
  'on one store. 5 rounds of 1,200 steps, fresh ids each round; afterwards every lineage must have one',
  'open head and no fork. Steps/s and CPU per step: min / median / max over rounds; latencies: all steps.',
  '',
  '| Backend | steps/s (min / median / max) | CPU ms per step (min / median / max) | p50 step (ms) | p95 step (ms) | compacting steps p50 / p95 (ms) | compactions | failed calls | bad lineages |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...(
    [
      ['PostgreSQL', postgresFleet],
      ['PGlite (in memory)', pgliteFleet],
    ] as const
  ).map(([name, result]) => {
    if (typeof result === 'string') return `| ${name} | ${result} | | | | | | | |`;
    const spread = (values: number[], digits: number) =>
      `${fmt(Math.min(...values), digits)} / ${fmt(median(values), digits)} / ${fmt(Math.max(...values), digits)}`;
    const opt = (value: number | undefined) => (value === undefined ? 'n/a' : fmt(value, 1));
    return `| ${name} | ${spread(result.stepsPerSecond, 0)} | ${spread(result.cpuMsPerStep, 2)} | ${fmt(result.p50, 1)} | ${fmt(result.p95, 1)} | ${opt(result.compactingP50)} / ${opt(result.compactingP95)} | ${fmt(result.compactions)} | ${result.failures} | ${result.badLineages} |`;
  }),
  '',
];
mkdirSync(join(packageDir, 'bench-results'), { recursive: true });
writeFileSync(join(packageDir, 'bench-results', 'results.md'), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
