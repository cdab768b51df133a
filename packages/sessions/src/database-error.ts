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

// Node's socket and DNS failures: the server is unreachable, not the query wrong.
const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/**
 * A failure to reach or log in to the database, somewhere down the `cause` chain: a network error,
 * SQLSTATE class 08 (connection exception) or 28 (authorisation), 3D000 (no such database), 57P0x
 * (server shutting down), or node-postgres's connection timeout.
 */
export function findConnectionProblem(
  error: unknown,
): { code: string | undefined; detail: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown };
    const code = typeof candidate.code === 'string' ? candidate.code : undefined;
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    if (
      (code !== undefined &&
        (networkCodes.has(code) ||
          /^(08|28)[0-9A-Z]{3}$/.test(code) ||
          code === '3D000' ||
          /^57P0[1-3]$/.test(code))) ||
      // node-postgres's own words: the socket closed under a query, the pool could not connect in
      // time, or (drizzle's rollback after such a failure) the client is already broken.
      /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(
        message,
      )
    ) {
      return { code, detail: message || (code ?? 'connection failed') };
    }
    current = candidate.cause;
  }
  return undefined;
}

/** The connection string with any password masked, for error messages. */
export function describeConnectionString(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password !== '') url.password = '***';
    url.searchParams.forEach((_value, key) => {
      if (/pass|secret|key/i.test(key)) url.searchParams.set(key, '***');
    });
    return `PostgreSQL at ${url.toString()}`;
  } catch {
    // Not a URL (a libpq keyword string, a socket path): too many forms to mask reliably.
    return 'PostgreSQL (connection string not shown)';
  }
}
