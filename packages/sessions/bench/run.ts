// Benchmarks for @baton/sessions, PGlite and PostgreSQL in one run. Writes bench-results/results.md.
// Run: pnpm --filter @baton/sessions bench (after a build). Node >= 22.18 runs this file directly.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '@baton/test-corpus';
import pg from 'pg';

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

/** Agent-like traffic: an assistant tool call, its result (~600 chars), and a short user turn. */
function message(index: number) {
  switch (index % 3) {
    case 0:
      return {
        role: 'assistant',
        content: [
          { type: 'text', text: `Reading the file for step ${index}.` },
          {
            type: 'tool-call',
            toolCallId: `call_${index}`,
            toolName: 'read_file',
            input: { path: `src/module-${index % 50}.ts` },
          },
        ],
      };
    case 1:
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: `call_${index - 1}`,
            toolName: 'read_file',
            output: {
              type: 'text',
              value: `export function step${index}() {\n  return ${index};\n}\n`.repeat(12),
            },
          },
        ],
      };
    default:
      return { role: 'user', content: `Continue with item ${index}, keep the tests green.` };
  }
}

const messagesOf = (count: number, offset = 0) =>
  Array.from({ length: count }, (_, i) => message(offset + i));

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

const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

const cold = pgliteColdOpen();
const pglite = await createSessionStore();
const pgliteResult = await measure(pglite);
await pglite.close();

const database = await postgresDatabase();
let postgresResult: BackendResult | undefined;
if (database) {
  const store = await createSessionStore({ connectionString: database.url });
  try {
    postgresResult = await measure(store);
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
];
mkdirSync(join(packageDir, 'bench-results'), { recursive: true });
writeFileSync(join(packageDir, 'bench-results', 'results.md'), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
