import { errorOutputMarker, isErrorToolResult } from './is-error-tool-result.js';

/**
 * Deep equality of two messages (or parts), ignoring key order and undefined fields, as
 * `fingerprintMessages` does. The AI SDK rebuilds message objects on every step but reuses their
 * strings, so comparing with the previous request is mostly pointer checks: far cheaper than hashing.
 * Error tool results are equal whatever their error text (see `isErrorToolResult`).
 */
export function sameMessage(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || typeof a !== 'object' || a === null || b === null) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length)
      return false;
    for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
    return true;
  }
  if (a instanceof URL || b instanceof URL) {
    return a instanceof URL && b instanceof URL && a.href === b.href;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!(Array.isArray(a) && Array.isArray(b)) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++)
      if (!sameMessage(a[index], b[index])) return false;
    return true;
  }
  let left = a as Record<string, unknown>;
  let right = b as Record<string, unknown>;
  if (isErrorToolResult(left) && isErrorToolResult(right)) {
    left = { ...left, output: errorOutputMarker };
    right = { ...right, output: errorOutputMarker };
  }
  let defined = 0;
  for (const key in left) {
    const value = left[key];
    if (value === undefined) continue;
    defined++;
    if (!sameMessage(value, right[key])) return false;
  }
  for (const key in right) if (right[key] !== undefined) defined--;
  return defined === 0;
}
