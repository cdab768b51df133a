/**
 * Whether `value` is a plain object whose fields can be read (not `null`, not an array): the check
 * every reader of untrusted message JSON makes before looking at a field.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
