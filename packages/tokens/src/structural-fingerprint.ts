// A cheap structural hash of a JSON-like value and an exact structural comparison, so a fresh copy
// of a message already counted is recognised without serialising or digesting it: long strings
// contribute their length and a few sampled characters to the hash, and equality is then
// confirmed by comparing the values themselves (string comparison is a fast memory compare).

import { inspect, types } from 'node:util';

const deepest = 64;
// The deepest field `countMessageTokens` reads by name, from the message (depth 0): a file's
// `data.data` in a tool result's content part, `content[i].output.value[j].data.data` (7).
const deepestNamedRead = 8;
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
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) {
        if (!(ArrayBuffer.isView(value) || types.isArrayBuffer(value))) return undefined;
        const bytes = toBytes(value);
        state.weight += bytes.byteLength;
        let h = mix(mix(hash, 8), bytes.byteLength);
        const step = Math.max(1, Math.floor(bytes.byteLength / sampledCharacters));
        for (let i = 0; i < bytes.byteLength; i += step) h = mix(h, bytes[i]!);
        return h;
      }
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

// The built-in accessors, read directly: a buffer's own `length` or `buffer` property must not
// change which bytes are compared.
const typedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype) as object;
const accessor = (prototype: object, name: string | symbol) =>
  Object.getOwnPropertyDescriptor(prototype, name)?.get as (this: unknown) => never;
const typedArrayAccess = {
  buffer: accessor(typedArrayPrototype, 'buffer') as (this: unknown) => ArrayBuffer,
  byteOffset: accessor(typedArrayPrototype, 'byteOffset') as (this: unknown) => number,
  byteLength: accessor(typedArrayPrototype, 'byteLength') as (this: unknown) => number,
  length: accessor(typedArrayPrototype, 'length') as (this: unknown) => number,
  name: accessor(typedArrayPrototype, Symbol.toStringTag) as (this: unknown) => string | undefined,
};
const dataViewAccess = {
  buffer: accessor(DataView.prototype, 'buffer') as (this: unknown) => ArrayBuffer,
  byteOffset: accessor(DataView.prototype, 'byteOffset') as (this: unknown) => number,
  byteLength: accessor(DataView.prototype, 'byteLength') as (this: unknown) => number,
};
const arrayBufferAccess = {
  byteLength: accessor(ArrayBuffer.prototype, 'byteLength') as (this: unknown) => number,
  resizable: accessor(ArrayBuffer.prototype, 'resizable') as (this: unknown) => boolean,
  maxByteLength: accessor(ArrayBuffer.prototype, 'maxByteLength') as (this: unknown) => number,
};

function toBytes(value: ArrayBufferView | ArrayBuffer): Uint8Array {
  if (types.isArrayBuffer(value))
    return new Uint8Array(value, 0, arrayBufferAccess.byteLength.call(value));
  const access = types.isDataView(value) ? dataViewAccess : typedArrayAccess;
  return new Uint8Array(
    access.buffer.call(value),
    access.byteOffset.call(value),
    access.byteLength.call(value),
  );
}

const arrayForEach = Array.prototype.forEach;

/**
 * Arrays count by their elements alone (`forEach`, JSON and index reads skip named properties),
 * unless a `toJSON` replaces them, a subclass's prototype adds behaviour or an own `forEach` (the
 * count walks content parts and tool calls with it) replaces the built-in one.
 */
export function plainArray(value: unknown[]): boolean {
  return (
    Object.getPrototypeOf(value) === Array.prototype &&
    (value as { toJSON?: unknown }).toJSON === undefined &&
    value.forEach === arrayForEach
  );
}

const elementsOnly = {
  showHidden: true,
  depth: 0,
  maxArrayLength: 0,
  customInspect: false,
  getters: false,
  compact: true,
  breakLength: Number.POSITIVE_INFINITY,
};

/**
 * True when a buffer has no own property besides its elements. Listing its keys (`Object.keys`,
 * `for...in`) lists every index (~60 ms a megabyte of image), but `util.inspect` asks V8 for the
 * other keys only: a twin over the same memory (so nothing is copied), with the same prototype and
 * no properties, must print the same, hidden and accessor properties included.
 */
function onlyElements(value: ArrayBufferView | ArrayBuffer): boolean {
  let twin: object;
  if (types.isArrayBuffer(value)) {
    const byteLength = arrayBufferAccess.byteLength.call(value);
    twin = arrayBufferAccess.resizable.call(value)
      ? new (ArrayBuffer as ResizableArrayBufferConstructor)(byteLength, {
          maxByteLength: arrayBufferAccess.maxByteLength.call(value),
        })
      : new ArrayBuffer(byteLength);
  } else if (types.isDataView(value)) {
    twin = new DataView(
      dataViewAccess.buffer.call(value),
      dataViewAccess.byteOffset.call(value),
      dataViewAccess.byteLength.call(value),
    );
  } else {
    const name = typedArrayAccess.name.call(value);
    const construct = name === undefined ? undefined : typedArrayConstructors.get(name);
    if (construct === undefined) return false;
    twin = new construct(
      typedArrayAccess.buffer.call(value),
      typedArrayAccess.byteOffset.call(value),
      typedArrayAccess.length.call(value),
    );
  }
  Object.setPrototypeOf(twin, Object.getPrototypeOf(value));
  return inspect(value, elementsOnly) === inspect(twin, elementsOnly);
}

type ResizableArrayBufferConstructor = new (
  byteLength: number,
  options: { maxByteLength: number },
) => ArrayBuffer;

type TypedArrayConstructor = new (
  buffer: ArrayBufferLike,
  byteOffset: number,
  length: number,
) => ArrayBufferView;

const typedArrayConstructors = new Map<string, TypedArrayConstructor>(
  (
    [
      Int8Array,
      Uint8Array,
      Uint8ClampedArray,
      Int16Array,
      Uint16Array,
      Int32Array,
      Uint32Array,
      Float32Array,
      Float64Array,
      BigInt64Array,
      BigUint64Array,
      (globalThis as { Float16Array?: TypedArrayConstructor }).Float16Array,
    ] as Array<TypedArrayConstructor | undefined>
  )
    .filter((construct) => construct !== undefined)
    .map((construct) => [construct.name, construct]),
);

const keyScratch: string[][] = [];
// Bumped by every comparison that starts: a getter read by a comparison may start another (through
// any counter), which refills the shared key scratch; the outer one sees the bump and answers
// "not equal" (counted afresh) instead of reading keys that are no longer its own.
let comparisons = 0;

/** True when `a` and `b` are the same plain data (same keys in the same order, same values). */
export function structurallyEqual(a: unknown, b: unknown, depth = 0): boolean {
  visits = mostVisits;
  comparisons++;
  return equal(a, b, depth);
}

/**
 * True when `a` and `b` serialise to the same JSON and are plain data (as `structurallyEqual`), for
 * a value the count only serialises: hidden fields, which `JSON.stringify` skips, are not compared.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || a === null) return false;
  visits = mostVisits;
  comparisons++;
  return equal(a, b, deepestNamedRead + 1);
}

function equal(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (--visits < 0) return false;
  if (depth > deepest || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length || !plainArray(a) || !plainArray(b))
      return false;
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      const y = b[i];
      if (x !== y && !equal(x, y, depth + 1)) return false;
      // A hole and an `undefined` read alike but count apart: `forEach` skips the hole, JSON
      // writes both as null, so content `[, part]` counts and `[undefined, part]` throws.
      if (x === undefined && i in a !== i in b) return false;
    }
    return true;
  }
  // Plain objects first (nearly every value of a message); of the rest only buffers compare: a
  // class instance (a Date, a Map) may serialise to more than its enumerable keys show (two Dates
  // have no keys at all), so it is counted afresh.
  const prototype = Object.getPrototypeOf(a);
  if (prototype !== Object.prototype && prototype !== null) {
    if (!(ArrayBuffer.isView(a) || types.isArrayBuffer(a))) return false;
    // The same kind of buffer: an image part reads a Uint8Array but not a DataView.
    if (prototype !== Object.getPrototypeOf(b)) return false;
    const x = toBytes(a);
    const y = toBytes(b as ArrayBufferView | ArrayBuffer);
    if (x.byteLength !== y.byteLength) return false;
    if (!Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(y)) return false;
    // Bytes are not the whole value: a named property serialises beside the indices
    // (`{"0":1,"note":"a"}`) and a field read (`data.type`) finds it. Buffers holding one are rare,
    // so they are not compared but counted afresh.
    return onlyElements(a) && onlyElements(b as ArrayBufferView | ArrayBuffer);
  }
  // The same prototype too: the count reads fields by name, which finds inherited ones on an
  // object made with `Object.prototype` (a polluted one) and not on a null-prototype copy.
  if (Object.getPrototypeOf(b) !== prototype) return false;
  // `toJSON` (own but hidden, or a value's own method) decides the JSON regardless of the keys.
  if ((a as { toJSON?: unknown }).toJSON !== undefined) return false;
  if ((b as { toJSON?: unknown }).toJSON !== undefined) return false;
  // Keys in order (JSON text depends on it), without allocating: one reused array per depth.
  let keysB = keyScratch[depth];
  if (keysB === undefined) {
    keysB = [];
    keyScratch[depth] = keysB;
  }
  // Written by index and bounded by `count` (stale keys past it are never read): cheaper than
  // emptying and pushing.
  const started = comparisons;
  let count = 0;
  for (const key in b) keysB[count++] = key;
  let index = 0;
  for (const key in a) {
    if (index === count || keysB[index++] !== key) return false;
    const x = (a as Record<string, unknown>)[key];
    const y = (b as Record<string, unknown>)[key];
    if (x !== y && !equal(x, y, depth + 1)) return false;
    if (comparisons !== started) return false;
  }
  // A hidden field is skipped by `for...in` and JSON but read by name (`part.toolCallId`); the
  // count reads fields by name no deeper than `deepestNamedRead`, and JSON below ignores them.
  // `a`, a message counted before, was checked once by `hasHiddenFields`.
  return (
    index === count && (depth > deepestNamedRead || Object.getOwnPropertyNames(b).length === index)
  );
}

/**
 * True when a plain object within `deepestNamedRead` of `value` has a hidden (non-enumerable)
 * field, or the walk is too large to tell: such a message is never remembered for comparison,
 * since `structurallyEqual` checks only its second argument for hidden fields.
 */
export function hasHiddenFields(value: unknown): boolean {
  visits = mostVisits;
  return hidden(value, 0);
}

function hidden(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null || depth > deepestNamedRead) return false;
  if (--visits < 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (hidden(value[i], depth + 1)) return true;
    return false;
  }
  const prototype = Object.getPrototypeOf(value);
  // Anything else never compares equal (buffers are checked for named properties when compared).
  if (prototype !== Object.prototype && prototype !== null) return false;
  let keys = 0;
  for (const key in value) {
    keys++;
    if (hidden((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return Object.getOwnPropertyNames(value).length !== keys;
}
