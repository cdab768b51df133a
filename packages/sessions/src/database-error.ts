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
      /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|The server does not support SSL connections)/.test(
        message,
      ) ||
      // pg-connection-string could not parse the URL (the message does not quote it).
      code === 'ERR_INVALID_URL'
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

/**
 * SQLSTATE classes whose primary message names objects (tables, constraints, roles) and states but
 * never holds a value of the row: their text is kept. Others (22 data exceptions quote the value,
 * P0 carries whatever a trigger raised, XX is internal) are reported by code alone.
 */
const wordedClasses = new Set([
  '08',
  '0A',
  '23',
  '25',
  '28',
  '3D',
  '40',
  '42',
  '53',
  '54',
  '55',
  '57',
  '58',
]);

/** Fields of a driver error that hold no values of the query: kept in the summary. */
const safeFields = [
  'code',
  'severity',
  'constraint',
  'table',
  'column',
  'schema',
  'dataType',
  'routine',
  'errno',
  'syscall',
  'address',
  'port',
] as const;

/** drizzle's wrapper: `Failed query: <sql>\nparams: <every parameter>`, the driver's error as cause. */
function isQueryWrapper(value: object): boolean {
  const candidate = value as { message?: unknown; params?: unknown };
  return (
    Array.isArray(candidate.params) ||
    (typeof candidate.message === 'string' && candidate.message.startsWith('Failed query:'))
  );
}

/**
 * What can be said of a driver error without its values: the SQLSTATE, and the server's message when
 * its class holds no values (`permission denied for table baton_messages (SQLSTATE 42501)`).
 */
function describeDatabaseRefusal(code: string, message: string): string {
  return wordedClasses.has(code.slice(0, 2)) && message !== ''
    ? `${message} (SQLSTATE ${code})`
    : `SQLSTATE ${code}`;
}

/**
 * A copy of a driver's error that is safe to attach as `cause`: drizzle's wrapper holds the SQL and
 * every parameter (message contents, session ids), the driver's own error the parameters (PGlite's
 * `params`) and the row (`detail`: "Failing row contains (...)"); `util.inspect` and loggers print a
 * cause whole. The summary keeps the error's name, a message without values and `safeFields`.
 */
export function summariseDriverError(error: unknown): Error {
  let source: object | undefined;
  let innermost: object | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    if (!isQueryWrapper(current)) innermost = current;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') {
      source = current;
      break;
    }
    current = (current as { cause?: unknown }).cause;
  }
  source ??= innermost;
  const fields = (source ?? {}) as Record<string, unknown>;
  const code = typeof fields.code === 'string' ? fields.code : undefined;
  const message = typeof fields.message === 'string' ? fields.message : '';
  let safe: string;
  if (code !== undefined && /^[0-9A-Z]{5}$/.test(code)) {
    safe = describeDatabaseRefusal(code, message);
  } else if (source !== undefined && findConnectionProblem(source) !== undefined) {
    safe = message;
  } else {
    safe = code === undefined ? 'the driver failed' : `the driver failed (${code})`;
  }
  const summary = new Error(safe);
  if (typeof fields.name === 'string' && fields.name.length <= 60) summary.name = fields.name;
  for (const field of safeFields) {
    const value = fields[field];
    if (typeof value === 'string' || typeof value === 'number') {
      Object.defineProperty(summary, field, { value, enumerable: true, writable: true });
    }
  }
  return summary;
}

/** True when `error` came from a database call: a SQLSTATE or drizzle's query wrapper in its chain. */
export function isDriverQueryError(error: unknown): boolean {
  if (findDatabaseError(error) !== undefined) return true;
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    if (isQueryWrapper(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
