/**
 * The PostgreSQL error under `error`, if any. Drizzle wraps driver errors (`DrizzleQueryError`), so
 * the SQLSTATE `code` and `constraint` sit somewhere down the `cause` chain.
 */
export function findDatabaseError(
  error: unknown,
): { code: string; constraint: string | undefined } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return {
        code: candidate.code,
        constraint: typeof candidate.constraint === 'string' ? candidate.constraint : undefined,
      };
    }
    current = candidate.cause;
  }
  return undefined;
}

/** True for a unique violation (23505), optionally of one named constraint. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const found = findDatabaseError(error);
  return found?.code === '23505' && (constraint === undefined || found.constraint === constraint);
}
