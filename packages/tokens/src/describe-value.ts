/**
 * What kind of value was given, for an error message, never the value itself: a field holding the
 * wrong thing may hold a secret (an API key pasted into `role`, a token in a part `type`).
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return value === '' ? 'an empty string' : `a string of ${value.length} characters`;
    case 'number':
      if (Number.isNaN(value)) return 'NaN';
      if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
      return value < 0 ? 'a negative number' : value === 0 ? 'zero' : 'a positive number';
    case 'undefined':
      return 'nothing';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}
