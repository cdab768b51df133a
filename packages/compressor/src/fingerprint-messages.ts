import { errorOutputMarker, isErrorToolResult } from './is-error-tool-result.js';

/**
 * A 64-bit content hash of a conversation prefix, as 16 hex digits. It tells whether a later request
 * still starts with the history an earlier compaction replaced. System messages are skipped: apps
 * often rebuild their instructions per call (dates, tool lists), and that must not undo a compaction.
 * Error tool results hash the same whatever their error text (see `isErrorToolResult`).
 * Built from `hashMessage` of each message, so prefixes of a request already hashed cost next to nothing.
 */
export function fingerprintMessages(messages: readonly unknown[], count = messages.length): string {
  return combine(messages, count, hashMessage, false);
}

/**
 * `fingerprintMessages` over every character and byte, not samples: what a process that restarts
 * compares the covered history with, as it has no earlier request to compare message by message
 * and an in-place edit deep inside a long message must not pass for the history compacted. Paid
 * once per compaction and once on the first request after a restart, never per step.
 */
export function contentFingerprint(messages: readonly unknown[], count = messages.length): string {
  return combine(messages, count, hashMessageContent, true);
}

function combine(
  messages: readonly unknown[],
  count: number,
  hashOne: (message: unknown) => string,
  full: boolean,
): string {
  const hashes: string[] = [];
  for (let index = 0; index < count; index++) {
    const message = messages[index];
    if (!isSystemMessage(message)) hashes.push(hashOne(message));
  }
  reset();
  // The sampled fingerprint keeps sampling the joined hashes (stored fingerprints must not change).
  hashWhole = full;
  try {
    hashString(hashes.join(''));
  } finally {
    hashWhole = false;
  }
  return digest();
}

/** Hashes already computed, by message object: the AI SDK hands over the same objects within a step. */
const messageHashes = new WeakMap<object, string>();

/**
 * A 64-bit content hash of one message (16 hex digits). Key order and undefined fields do not matter;
 * long strings are sampled (see `hashString`). Cached per object, so messages must not be mutated
 * after they were sent (the AI SDK builds a fresh prompt for every step).
 */
export function hashMessage(message: unknown): string {
  return hashCached(message, messageHashes, false);
}

const contentHashes = new WeakMap<object, string>();

/** `hashMessage` over the whole content (every character and byte), cached per object as well. */
export function hashMessageContent(message: unknown): string {
  return hashCached(message, contentHashes, true);
}

function hashCached(message: unknown, cache: WeakMap<object, string>, full: boolean): string {
  const cacheable = typeof message === 'object' && message !== null;
  if (cacheable) {
    const known = cache.get(message);
    if (known !== undefined) return known;
  }
  reset();
  hashWhole = full;
  try {
    hashValue(message);
  } finally {
    hashWhole = false;
  }
  const hash = digest();
  if (cacheable) cache.set(message, hash);
  return hash;
}

function isSystemMessage(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { role?: unknown }).role === 'system'
  );
}

function hex(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}

// Two FNV-1a lanes with different offsets and primes: cheap, and 64 bits keep accidental matches
// between different histories out of reach in practice. The lanes live in module variables (hashing
// is synchronous): every step of a tool loop hashes the whole history, so the inner loops stay tight.
let low = 0;
let high = 0;
/** Set while `hashMessageContent` runs: strings and bytes are hashed whole, not sampled. */
let hashWhole = false;

function reset(): void {
  low = 0x811c9dc5;
  high = 0x050c5d1f;
}

function digest(): string {
  return hex(high) + hex(low);
}

function mix(code: number): void {
  low = Math.imul(low ^ code, 0x01000193);
  high = Math.imul(high ^ code, 0x01000197);
}

function mixRange(text: string, start: number, end: number): void {
  let a = low;
  let b = high;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x01000197);
  }
  low = a;
  high = b;
}

/** Strings up to this length are hashed whole. */
const fullyHashedLength = 512;
const edgeLength = 128;
const samples = 48;
const sampleLength = 8;

// Long strings (file contents, tool outputs) are hashed by length, both ends and 48 spread-out
// windows: hashing every character of a 1 MB history costs ~10 ms per step, sampling well under 1 ms.
// What this guards against (a regenerated reply, an edited ask, a different conversation) changes
// short messages, lengths or ends; an in-place edit deep inside a long tool output can go unseen.
function hashString(text: string): void {
  mix(0x02);
  const length = text.length;
  if (length <= fullyHashedLength || hashWhole) {
    if (hashWhole) {
      // Whole strings of any length: the length keeps `ab`+`c` apart from `a`+`bc`.
      mix(length & 0xffff);
      mix(length >>> 16);
    }
    mixRange(text, 0, length);
  } else {
    mix(length & 0xffff);
    mix(length >>> 16);
    mixRange(text, 0, edgeLength);
    mixRange(text, length - edgeLength, length);
    const stride = Math.floor((length - 2 * edgeLength) / samples);
    for (let sample = 0; sample < samples; sample++) {
      const start = edgeLength + sample * stride;
      mixRange(text, start, start + sampleLength);
    }
  }
  mix(0x03);
}

function hashValue(value: unknown): void {
  if (value === null || value === undefined) {
    mix(0x04);
  } else if (typeof value === 'string') {
    hashString(value);
  } else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    mix(0x05);
    hashString(String(value));
  } else if (value instanceof Uint8Array) {
    mix(0x06);
    mix(value.length & 0xffff);
    mix(value.length >>> 16);
    // Bytes (images, files) by length and both ends, for the same reason as long strings.
    const head = hashWhole ? value.length : Math.min(value.length, 1024);
    for (let index = 0; index < head; index++) mix(value[index] as number);
    for (let index = Math.max(head, value.length - 1024); index < value.length; index++) {
      mix(value[index] as number);
    }
  } else if (value instanceof URL) {
    hashString(value.href);
  } else if (Array.isArray(value)) {
    mix(0x07);
    for (const item of value) hashValue(item);
    mix(0x08);
  } else if (typeof value === 'object') {
    mix(0x09);
    // Sorted keys: the same message rebuilt by different code must hash the same.
    const keys = Object.keys(value);
    const errorResult = isErrorToolResult(value);
    if (keys.length > 1) keys.sort();
    for (const key of keys) {
      const item =
        errorResult && key === 'output'
          ? errorOutputMarker
          : (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      hashString(key);
      hashValue(item);
    }
    mix(0x0a);
  }
}
