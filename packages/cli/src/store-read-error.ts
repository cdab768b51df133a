import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.store_read');

/**
 * A session store folder that opened but could not be read: damaged, from a newer release, or not a
 * Baton store. The message is Baton's own and names only the folder and, when one is found down the
 * `cause` chain, a PostgreSQL SQLSTATE or Baton error code: a driver's message quotes the SQL and its
 * parameters (a session id the user typed, stored text), so it is kept as `cause` and never printed.
 */
export class StoreReadError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through `hasMarker`, by symbol.
  private readonly [marker] = true;
  readonly dataDir: string;

  constructor({ dataDir, cause }: { dataDir: string; cause: unknown }) {
    const code = failureCode(cause);
    super({
      code: 'store_read',
      message: `${dataDir}: the session store could not be read${code === undefined ? '' : ` (${code})`}; it may be damaged, not a @baton/sessions store, or from a newer release`,
      cause,
    });
    this.name = 'StoreReadError';
    this.dataDir = dataDir;
  }

  static override isInstance(error: unknown): error is StoreReadError {
    return BatonError.hasMarker(error, marker);
  }
}

/**
 * A SQLSTATE (`SQLSTATE 42703`) found down the `cause` chain (a driver error's `code`, or the
 * `sqlstate` a typed store error carries), else the first Baton error code; nothing else. The
 * SQLSTATE comes first: it says what the server refused, where a wrapping code says only that it did.
 */
function failureCode(error: unknown): string | undefined {
  let batonCode: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const candidate = current as { code?: unknown; sqlstate?: unknown; cause?: unknown };
    for (const value of [candidate.sqlstate, candidate.code]) {
      if (typeof value === 'string' && /^[0-9A-Z]{5}$/.test(value)) return `SQLSTATE ${value}`;
    }
    if (
      batonCode === undefined &&
      typeof candidate.code === 'string' &&
      BatonError.isInstance(current) &&
      /^[a-z_]{1,40}$/.test(candidate.code)
    ) {
      batonCode = candidate.code;
    }
    current = candidate.cause;
  }
  return batonCode;
}
