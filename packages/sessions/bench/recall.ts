// Recall benchmark for @baton/sessions, PGlite and PostgreSQL in one process. Writes its
// section of bench-results/results.md. Run: pnpm --filter @baton/sessions bench (after a build), or
// `node --expose-gc bench/recall.ts` alone. RECALL_SIZES=10000,100000 sets the lineage sizes.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { agentMessage } from './agent-message.ts';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const distEntry = join(packageDir, 'dist', 'index.js');
const { createSessionStore, messages: messagesTable } = (await import(
  distEntry
)) as typeof import('../src/index.js');
type Store = Awaited<ReturnType<typeof createSessionStore>>;

const postgresUrl = process.env.BATON_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const sizes = (process.env.RECALL_SIZES ?? '10000')
  .split(',')
  .map((value) => Number(value.trim()))
  .filter((value) => Number.isSafeInteger(value) && value >= 1_000);
const rounds = 5;
const queriesPerKind = 8;
const sessionSize = 2_000;

/** A lineage of `count` raw messages: sessions of `sessionSize` messages, each compacted into the next. */
async function buildLineage(store: Store, count: number): Promise<string> {
  let session = (await store.createSession()).id;
  for (let offset = 0; offset < count; offset += sessionSize) {
    const size = Math.min(sessionSize, count - offset);
    for (let from = 0; from < size; from += 1_000) {
      const batch = Array.from({ length: Math.min(1_000, size - from) }, (_, i) =>
        agentMessage(offset + from + i),
      );
      await store.appendMessages(session, batch);
    }
    if (offset + size >= count) break;
    const stored = offset === 0 ? size : size + 1;
    const { child } = await store.recordCompaction(session, {
      messages: [{ role: 'user', content: `Summary of messages ${offset}..${offset + size - 1}.` }],
      summary: 'summary',
      strategy: 'receipt',
      usedFallback: true,
      tokensBefore: 1_000,
      tokensAfter: 10,
      event: { removedMessageIndexes: Array.from({ length: stored }, (_, i) => i) },
    });
    session = child.id;
  }
  return session;
}

type Kind = 'exact, one message' | 'exact, common path' | 'words' | 'no match' | 'one common word';
const kinds: Kind[] = [
  'exact, one message',
  'exact, common path',
  'words',
  'no match',
  'one common word',
];
/** Words in a third to two thirds of the messages: the case `rankLimit` bounds (ranking), not the read of every hit. */
const commonWords = [
  'reading',
  'file',
  'continue',
  'keep',
  'tests',
  'green',
  'export',
  'function',
  'return',
  'step',
];

function query(kind: Kind, count: number, seed: number): string {
  const k = 1 + ((seed * 7_919) % (count - 3));
  const tool = k - ((k - 1) % 3); // index % 3 === 1: a tool result
  switch (kind) {
    case 'exact, one message':
      return `export function step${tool}() {`;
    case 'exact, common path':
      return `src/module-${seed % 50}.ts`;
    case 'words':
      return `tests item ${k - (k % 3) + 2} green`;
    case 'no match':
      return `zz${seed}qq missing-${seed}`;
    case 'one common word':
      return commonWords[seed % commonWords.length]!;
  }
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Backend {
  name: string;
  store: Store;
  heads: Map<number, string>;
  /** The PostgreSQL backend process (same machine): its CPU time is the server's share of a call. */
  serverPid?: () => Promise<number | undefined>;
}

// Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux).
const ticksPerSecond = Number(
  (() => {
    try {
      return execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim();
    } catch {
      return '100';
    }
  })(),
);

/** CPU time (ms) a local process has used, or undefined when it cannot be read (remote server). */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

async function postgresStore(
  suffix: string,
): Promise<
  | { store: Store; serverPid: () => Promise<number | undefined>; drop: () => Promise<void> }
  | undefined
> {
  const admin = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const name = `baton_recall_bench_${process.pid}_${suffix}`;
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  // One connection, so the server process serving every recall is known and its CPU time readable.
  const store = await createSessionStore({ connectionString: url.toString(), maxConnections: 1 });
  // The pool may replace an idle connection: ask for the backend's pid right before each batch.
  const serverPid = async () => {
    const [row] = (
      (await store.db.execute('select pg_backend_pid() as pid' as never)) as unknown as {
        rows: { pid: number }[];
      }
    ).rows;
    return row?.pid;
  };
  return {
    store,
    serverPid,
    drop: async () => {
      await store.close();
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

async function sizeOf(store: Store, relation: string): Promise<number> {
  const result = (await store.db.execute(
    `select pg_relation_size('${relation}') as bytes` as never,
  )) as unknown as { rows: { bytes: string | number }[] };
  return Number(result.rows[0]?.bytes ?? 0);
}

/** appendMessages of 100-message batches vs the same rows inserted raw with and without search text. */
async function appendCost(store: Store) {
  const session = await store.createSession();
  const raw = await store.createSession();
  const rates = {
    append: [] as number[],
    rawWithText: [] as number[],
    rawWithoutText: [] as number[],
  };
  let sequence = 0;
  for (let round = 0; round < rounds; round++) {
    const batches = Array.from({ length: 10 }, (_, b) =>
      Array.from({ length: 100 }, (_, i) => agentMessage((round * 10 + b) * 100 + i)),
    );
    for (const variant of ['append', 'rawWithText', 'rawWithoutText'] as const) {
      const start = performance.now();
      for (const batch of batches) {
        if (variant === 'append') {
          await store.appendMessages(session.id, batch);
          continue;
        }
        await store.db.transaction(async (tx) => {
          await tx.insert(messagesTable).values(
            batch.map((item) => ({
              sessionId: raw.id,
              sequence: sequence++,
              role: item.role,
              message: item,
              searchText: variant === 'rawWithText' ? JSON.stringify(item) : null,
            })),
          );
        });
      }
      rates[variant].push((1_000 / (performance.now() - start)) * 1000);
    }
  }
  return rates;
}

const backends: Backend[] = [
  { name: 'PGlite (in memory)', store: await createSessionStore(), heads: new Map() },
];
const postgres = await postgresStore('trgm');
if (postgres) {
  backends.push({
    name: 'PostgreSQL',
    store: postgres.store,
    heads: new Map(),
    serverPid: postgres.serverPid,
  });
}
// The degraded install: a server without pg_trgm (migration 0003 leaves the index out), so verbatim
// search reads at most the newest recallScanLimit messages.
const degraded = process.env.RECALL_DEGRADED === '0' ? undefined : await postgresStore('plain');
if (degraded) {
  await degraded.store.db.execute('drop index baton_messages_search_trgm_idx' as never);
  backends.push({
    name: 'PostgreSQL, no pg_trgm',
    store: degraded.store,
    heads: new Map(),
    serverPid: degraded.serverPid,
  });
}

const lines = [
  '## @baton/sessions: recall',
  '',
  `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; PostgreSQL: ${postgres ? 'local server (127.0.0.1:5432, node-postgres pool)' : 'not reachable, not run'}. Lineages of agent-like messages (tool call, ~600-char tool result, user turn) in sessions of ${sessionSize.toLocaleString('en-US')} compacted into one another; \`recall\` from the head (default limit 5). ${rounds} rounds, backends interleaved, ${queriesPerKind} fresh queries per kind per round (never-seen values); p50/p95 over all calls. Server CPU: the PostgreSQL backend process's CPU time (from /proc, 10 ms ticks, so a mean over the calls), which load on the machine does not inflate as it does wall time. Machine: 2 shared cores, other jobs running (load average ${loadavg()[0]!.toFixed(1)} at the start).`,
  '',
  '| Raw messages | Backend | Query kind | p50 (ms) | p95 (ms) | max (ms) | process CPU per call, median (ms) | server CPU per call, mean (ms) | scan-limited calls | rank-limited calls |',
  '| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const count of sizes) {
  for (const backend of backends) {
    const start = performance.now();
    backend.heads.set(count, await buildLineage(backend.store, count));
    console.log(`${backend.name}: built ${count} in ${(performance.now() - start).toFixed(0)} ms`);
  }
  const wall = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  const limitedCalls = new Map<string, number>();
  const rankLimitedCalls = new Map<string, number>();
  const serverCpu = new Map<string, number>();
  const serverSamples = new Map<string, number>();
  for (let round = 0; round < rounds; round++) {
    for (const backend of backends) {
      for (const kind of kinds) {
        const key = `${backend.name}|${kind}`;
        const pid = await backend.serverPid?.();
        for (let q = 0; q < queriesPerKind; q++) {
          const text = query(kind, count, round * 1_000 + q * 37 + 11);
          const cpuStart = process.cpuUsage();
          const serverStart = processCpuMs(pid);
          const started = performance.now();
          const { matches, scanLimited, rankLimited } = await backend.store.recall(
            backend.heads.get(count)!,
            { query: text },
          );
          if (scanLimited) limitedCalls.set(key, (limitedCalls.get(key) ?? 0) + 1);
          if (rankLimited) rankLimitedCalls.set(key, (rankLimitedCalls.get(key) ?? 0) + 1);
          const elapsed = performance.now() - started;
          const used = process.cpuUsage(cpuStart);
          const serverEnd = processCpuMs(pid);
          if (serverStart !== undefined && serverEnd !== undefined) {
            serverCpu.set(key, (serverCpu.get(key) ?? 0) + serverEnd - serverStart);
            serverSamples.set(key, (serverSamples.get(key) ?? 0) + 1);
          }
          // A scan-limited search may miss an old verbatim-only match; that is its documented cost.
          if (kind !== 'no match' && matches.length === 0 && !scanLimited) {
            throw new Error(`no match: ${text}`);
          }
          wall.set(key, [...(wall.get(key) ?? []), elapsed]);
          cpu.set(key, [...(cpu.get(key) ?? []), (used.user + used.system) / 1_000]);
        }
      }
    }
  }
  for (const backend of backends) {
    for (const kind of kinds) {
      const key = `${backend.name}|${kind}`;
      const values = wall.get(key)!;
      const cpuValues = cpu.get(key)!;
      lines.push(
        `| ${count.toLocaleString('en-US')} | ${backend.name} | ${kind} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 95).toFixed(1)} | ${Math.max(...values).toFixed(1)} | ${percentile(cpuValues, 50).toFixed(1)} | ${serverCpu.has(key) ? (serverCpu.get(key)! / serverSamples.get(key)!).toFixed(1) : 'in process'} | ${limitedCalls.get(key) ?? 0} / ${values.length} | ${rankLimitedCalls.get(key) ?? 0} / ${values.length} |`,
      );
    }
  }
  console.log(lines.slice(-backends.length * kinds.length).join('\n'));
}

lines.push(
  '',
  '| Backend | messages in store | table (MB) | full-text index (MB) | trigram index (MB) | appendMessages, 100/batch (msg/s, min / median / max) | raw insert with search text | raw insert without |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
);
for (const backend of backends) {
  const table = await sizeOf(backend.store, 'baton_messages');
  const index = await sizeOf(backend.store, 'baton_messages_search_idx');
  const trigram = backend.name.includes('no pg_trgm')
    ? 0
    : await sizeOf(backend.store, 'baton_messages_search_trgm_idx');
  const rates = await appendCost(backend.store);
  const spread = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${sorted[0]!.toFixed(0)} / ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} / ${sorted.at(-1)!.toFixed(0)}`;
  };
  const total = sizes.reduce((sum, size) => sum + size, 0);
  lines.push(
    `| ${backend.name} | ${total.toLocaleString('en-US')} | ${(table / 2 ** 20).toFixed(1)} | ${(index / 2 ** 20).toFixed(1)} | ${(trigram / 2 ** 20).toFixed(1)} | ${spread(rates.append)} | ${spread(rates.rawWithText)} | ${spread(rates.rawWithoutText)} |`,
  );
}
lines.push('');
await backends[0]!.store.close();
await postgres?.drop();
await degraded?.drop();
mkdirSync(join(packageDir, 'bench-results'), { recursive: true });
// One results file per package: this run's recall section replaces the previous one.
const resultsPath = join(packageDir, 'bench-results', 'results.md');
const previous = existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '';
const kept = previous.split(/^## @baton\/sessions: recall$/m)[0]!.trimEnd();
writeFileSync(resultsPath, `${kept === '' ? '' : `${kept}\n\n`}${lines.join('\n')}\n`);
console.log(lines.join('\n'));
