import { createHash } from 'node:crypto';

/**
 * A session id as error messages show it: its length and a short SHA-256 prefix, never the id.
 * Apps derive ids from request data (a header, a cookie), so an id can be a credential sent in the
 * wrong place; the prefix still lets a reader match the message to the id they hold
 * (`describeSessionId(id)` gives the same text) without the message carrying the id.
 */
export function describeSessionId(id: string): string {
  const digest = createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 8);
  return `#${digest} (${id.length} characters)`;
}

/**
 * Sets an id field on an error without making it enumerable, so `JSON.stringify(error)` and
 * structured loggers that walk own enumerable fields do not copy the id into logs; code reads it as
 * before.
 */
export function setHiddenField(target: object, name: string, value: unknown): void {
  Object.defineProperty(target, name, {
    value,
    enumerable: false,
    writable: false,
    configurable: true,
  });
}
