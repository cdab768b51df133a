// A cheap structural hash of a JSON-like value and an exact structural comparison, so a fresh copy
// of a message already counted is recognised without serialising or digesting it: long strings
// contribute their length and a few sampled characters to the hash, and equality is then
// confirmed by comparing the values themselves (string comparison is a fast memory compare).

const deepest = 64;
const sampledCharacters = 16;
// Values visited per fingerprint or comparison. Depth alone does not bound the work: an object
// whose keys share one child has 2^depth paths while holding a few dozen objects. Past the budget
// a fingerprint is absent and a comparison unequal: a memo miss, never a wrong count.
const mostVisits = 1 << 20;
let visits = 0;

export interface Fingerprint {
  hash: number;
  /** Characters and bytes seen: the memory a memo entry keeps alive. */
  weight: number;
}

function mix(hash: number, value: number): number {
  return Math.imul(hash ^ value, 0x9e3779b1);
}

/** Structural hash of `value`, or undefined when it is too deep or not plain data. */
export function structuralFingerprint(value: unknown): Fingerprint | undefined {
  const state = { weight: 0 };
  visits = mostVisits;
  const hash = hashValue(value, 0x811c9dc5, 0, state);
  return hash === undefined
    ? undefined
    : { hash: (hash ^ (hash >>> 15)) & 0x3fffffff, weight: state.weight };
}

function hashString(text: string, hash: number): number {
  const length = text.length;
  let h = mix(hash, length);
  if (length <= sampledCharacters * 2) {
    for (let i = 0; i < length; i++) h = mix(h, text.charCodeAt(i));
  } else {
    const step = length / sampledCharacters;
    for (let i = 0; i < sampledCharacters; i++) h = mix(h, text.charCodeAt(Math.floor(i * step)));
    h = mix(h, text.charCodeAt(length - 1));
  }
  return h;
}

function hashValue(
  value: unknown,
  hash: number,
  depth: number,
  state: { weight: number },
): number | undefined {
  if (depth > deepest || --visits < 0) return undefined;
  switch (typeof value) {
    case 'string':
      state.weight += value.length;
      return hashString(value, mix(hash, 1));
    case 'number':
      return mix(mix(hash, 2), (value * 1000) | 0);
    case 'boolean':
      return mix(hash, value ? 3 : 4);
    case 'undefined':
      return mix(hash, 5);
    case 'object': {
      if (value === null) return mix(hash, 6);
      if (Array.isArray(value)) {
        let h = mix(mix(hash, 7), value.length);
        for (let i = 0; i < value.length; i++) {
          const next = hashValue(value[i], h, depth + 1, state);
          if (next === undefined) return undefined;
          h = next;
        }
        return h;
      }
      if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
        const bytes = toBytes(value);
        state.weight += bytes.byteLength;
        let h = mix(mix(hash, 8), bytes.byteLength);
        const step = Math.max(1, Math.floor(bytes.byteLength / sampledCharacters));
        for (let i = 0; i < bytes.byteLength; i += step) h = mix(h, bytes[i]!);
        return h;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return undefined;
      let h = mix(hash, 9);
      for (const key in value) {
        h = hashString(key, h);
        const next = hashValue((value as Record<string, unknown>)[key], h, depth + 1, state);
        if (next === undefined) return undefined;
        h = next;
      }
      return h;
    }
    default:
      return undefined;
  }
}

function toBytes(value: ArrayBufferView | ArrayBuffer): Uint8Array {
  return value instanceof ArrayBuffer
    ? new Uint8Array(value)
    : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}

const keyScratch: string[][] = [];

/** True when `a` and `b` are the same plain data (same keys in the same order, same values). */
export function structurallyEqual(a: unknown, b: unknown, depth = 0): boolean {
  visits = mostVisits;
  return equal(a, b, depth);
}

function equal(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (--visits < 0) return false;
  if (depth > deepest || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      const y = b[i];
      if (x !== y && !equal(x, y, depth + 1)) return false;
    }
    return true;
  }
  // Plain objects first (nearly every value of a message); of the rest only buffers compare: a
  // class instance (a Date, a Map) may serialise to more than its enumerable keys show (two Dates
  // have no keys at all), so it is counted afresh.
  const prototype = Object.getPrototypeOf(a);
  if (prototype !== Object.prototype && prototype !== null) {
    if (!(ArrayBuffer.isView(a) || a instanceof ArrayBuffer)) return false;
    // The same kind of buffer: an image part reads a Uint8Array but not a DataView.
    if (prototype !== Object.getPrototypeOf(b)) return false;
    const x = toBytes(a);
    const y = toBytes(b as ArrayBufferView | ArrayBuffer);
    if (x.byteLength !== y.byteLength) return false;
    return Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(y);
  }
  const other = Object.getPrototypeOf(b);
  if (other !== Object.prototype && other !== null) return false;
  // Keys in order (JSON text depends on it), without allocating: one reused array per depth.
  let keysB = keyScratch[depth];
  if (keysB === undefined) {
    keysB = [];
    keyScratch[depth] = keysB;
  }
  keysB.length = 0;
  for (const key in b) keysB.push(key);
  let index = 0;
  for (const key in a) {
    if (keysB[index++] !== key) return false;
    const x = (a as Record<string, unknown>)[key];
    const y = (b as Record<string, unknown>)[key];
    if (x !== y && !equal(x, y, depth + 1)) return false;
  }
  return index === keysB.length;
}
