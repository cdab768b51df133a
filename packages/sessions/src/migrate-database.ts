import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { createTransactionRunner, type TransactionRunner } from './create-transaction-runner.js';
import type { AnyPgDatabase } from './types.js';

/** The drizzle-kit output shipped with the package (`drizzle/`, beside `src/` and `dist/`). */
export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

// Arbitrary but fixed: every process migrating this schema queues on the same advisory lock.
const migrationLockKey = 0x62_61_74_6f_6e;

/**
 * Applies the bundled migrations that are not yet recorded. The store keeps its own bookkeeping table
 * (`drizzle.__baton_sessions_migrations`) so it never mixes with an application's drizzle migrations,
 * and takes a transaction-scoped advisory lock so processes opening the store at once do not race.
 */
export async function migrateDatabase(
  db: AnyPgDatabase,
  folder = migrationsFolder,
  transaction: TransactionRunner = createTransactionRunner(db),
): Promise<void> {
  // `folder` is for tests that build an older store (a prefix of the migrations) to upgrade in place.
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  await transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${migrationLockKey})`);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(sql`
      create table if not exists drizzle.__baton_sessions_migrations (
        id serial primary key,
        hash text not null,
        created_at bigint not null
      )`);
    const result = await tx.execute(
      sql`select coalesce(max(created_at), 0) as last from drizzle.__baton_sessions_migrations`,
    );
    const last = Number(rowsOf(result)[0]?.last ?? 0);
    for (const migration of migrations) {
      if (migration.folderMillis <= last) continue;
      for (const statement of migration.sql) {
        if (statement.trim() !== '') await tx.execute(sql.raw(statement));
      }
      await tx.execute(
        sql`insert into drizzle.__baton_sessions_migrations (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`,
      );
    }
  });
}

/** Rows of a raw `execute` result: node-postgres and PGlite return `{ rows }`, postgres.js an array. */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  if (Array.isArray(result)) return result as Record<string, unknown>[];
  return ((result as { rows?: Record<string, unknown>[] }).rows ?? []) as Record<string, unknown>[];
}
