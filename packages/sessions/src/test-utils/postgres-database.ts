import pg from 'pg';
import { describe, it } from 'vitest';

/** The server CI provides (`.ci/run` starts it); override with `BATON_POSTGRES_URL`. */
export const postgresUrl =
  process.env.BATON_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** With `BATON_REQUIRE_POSTGRES=1` (CI) an unreachable server fails the suite instead of skipping it. */
export const postgresRequired = process.env.BATON_REQUIRE_POSTGRES === '1';

/** Why the PostgreSQL suites cannot run here, or undefined when the server answers. */
export async function postgresUnavailableReason(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${postgresUrl} does not answer (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => {});
  }
}

export interface TestDatabase {
  connectionString: string;
  /** Drops the database, closing whatever connections are left. */
  drop(): Promise<void>;
}

/**
 * A fresh database per test file on the shared server: parallel runs (and the other suites) never
 * see each other's rows, and the migrations run from scratch every time.
 */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = `baton_sessions_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await adminQuery(`create database "${name}"`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    connectionString: url.toString(),
    drop: () => adminQuery(`drop database if exists "${name}" with (force)`),
  };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const unavailable = await postgresUnavailableReason();

/**
 * `describe` for suites that need the PostgreSQL server: runs them when it answers, skips them
 * otherwise, and fails instead of skipping when `BATON_REQUIRE_POSTGRES=1`.
 */
export function describePostgres(name: string, body: () => void): void {
  if (unavailable === undefined) {
    describe(name, body);
  } else if (postgresRequired) {
    describe(name, () => {
      it('needs the PostgreSQL server (BATON_REQUIRE_POSTGRES=1)', () => {
        throw new Error(unavailable);
      });
    });
  } else {
    describe.skip(`${name} (skipped: ${unavailable})`, body);
  }
}
