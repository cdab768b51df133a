import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe } from 'vitest';

const run = promisify(execFile);

/** Ports reserved for servers the tests start themselves (never the shared 5432). */
const ports = [55432, 55433, 55434, 55435, 55436, 55437, 55438, 55439];

/** The folder holding `initdb` and `pg_ctl`: `BATON_PG_BIN`, else the newest `/usr/lib/postgresql/<v>/bin`. */
export function findPostgresBinaries(): string | undefined {
  const given = process.env.BATON_PG_BIN;
  if (given !== undefined) return existsSync(join(given, 'initdb')) ? given : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

export interface PrivatePostgres {
  port: number;
  connectionString: string;
  /** Stops this server only (`pg_ctl stop -D <its folder>`); `immediate` drops connections at once. */
  stop(mode?: 'immediate' | 'fast'): Promise<void>;
  /** Starts it again on the same port and folder. */
  start(): Promise<void>;
  /** Stops it if running and removes its folder. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL server of the test's own (`initdb` + `pg_ctl` as user `postgres`, trust auth, a temp
 * folder, a port in 55432–55439), for fault tests that stop the server: the shared one is never touched.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = findPostgresBinaries();
  if (bin === undefined) throw new Error('initdb not found (set BATON_PG_BIN)');
  const folder = mkdtempSync(join(tmpdir(), 'baton-private-pg-'));
  chmodSync(folder, 0o700);
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? await postgresIds() : undefined;
  if (owner) chownSync(folder, owner.uid, owner.gid);
  const data = join(folder, 'data');
  const exec = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args])
      : run(join(bin, tool), args);
  await exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);

  let port = 0;
  const start = async () => {
    await exec('pg_ctl', [
      'start',
      '-D',
      data,
      '-w',
      '-t',
      '30',
      '-l',
      join(folder, 'log'),
      '-o',
      `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`,
    ]);
  };
  let lastError: unknown;
  // Other test files (or other checkouts) may hold a port of the range: take the first that starts.
  for (const candidate of [...ports].sort(() => Math.random() - 0.5)) {
    port = candidate;
    try {
      await start();
      lastError = undefined;
      break;
    } catch (error) {
      lastError = error;
    }
  }
  if (lastError !== undefined) {
    rmSync(folder, { recursive: true, force: true });
    throw lastError;
  }
  let running = true;
  const stop = async (mode: 'immediate' | 'fast' = 'fast') => {
    if (!running) return;
    await exec('pg_ctl', ['stop', '-D', data, '-m', mode, '-w', '-t', '30']);
    running = false;
  };
  return {
    port,
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    async start() {
      if (running) return;
      await start();
      running = true;
    },
    async destroy() {
      await stop('immediate').catch(() => {});
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([
    run('id', ['-u', 'postgres']),
    run('id', ['-g', 'postgres']),
  ]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Why a private server cannot be started here, or undefined. */
export function privatePostgresUnavailableReason(): string | undefined {
  return findPostgresBinaries() === undefined
    ? 'initdb not found under /usr/lib/postgresql/*/bin (set BATON_PG_BIN)'
    : undefined;
}

/**
 * A `describe` block with a private server of its own, started before its tests and destroyed after
 * them; skipped, with the reason in its name, where `initdb` is unavailable. `body` gets a function
 * that returns the running server.
 */
export function describePrivatePostgres(
  label: string,
  body: (server: () => PrivatePostgres) => void,
): void {
  const unavailable = privatePostgresUnavailableReason();
  const describeServer = unavailable === undefined ? describe : describe.skip;
  describeServer(`${label}${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
    let server: PrivatePostgres | undefined;
    beforeAll(async () => {
      server = await startPrivatePostgres();
    }, 120_000);
    afterAll(async () => {
      await server?.destroy();
    });
    body(() => {
      if (server === undefined) throw new Error('the private server did not start');
      return server;
    });
  });
}
