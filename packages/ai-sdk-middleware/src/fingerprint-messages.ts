/**
 * A 64-bit content hash of a conversation prefix, as 16 hex digits. It tells whether a later request
 * still starts with the history an earlier compaction replaced. System messages are skipped: apps
 * often rebuild their instructions per call (dates, tool lists), and that must not undo a compaction.
 */
export function fingerprintMessages(messages: readonly unknown[], count = messages.length): string {
  const state: HashState = { low: 0x811c9dc5, high: 0x050c5d1f };
  for (let index = 0; index < count; index++) {
    const message = messages[index];
    if (isSystemMessage(message)) continue;
    hashValue(state, message);
    mix(state, 0x1e);
  }
  return hex(state.high) + hex(state.low);
}

interface HashState {
  low: number;
  high: number;
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
// between different histories out of reach in practice.
function mix(state: HashState, code: number): void {
  state.low = Math.imul(state.low ^ code, 0x01000193);
  state.high = Math.imul(state.high ^ code, 0x01000197);
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
function hashString(state: HashState, text: string): void {
  mix(state, 0x02);
  const length = text.length;
  if (length <= fullyHashedLength) {
    for (let index = 0; index < length; index++) mix(state, text.charCodeAt(index));
  } else {
    mix(state, length & 0xffff);
    mix(state, length >>> 16);
    for (let index = 0; index < edgeLength; index++) mix(state, text.charCodeAt(index));
    for (let index = length - edgeLength; index < length; index++)
      mix(state, text.charCodeAt(index));
    const stride = Math.floor((length - 2 * edgeLength) / samples);
    for (let sample = 0; sample < samples; sample++) {
      const start = edgeLength + sample * stride;
      for (let index = start; index < start + sampleLength; index++)
        mix(state, text.charCodeAt(index));
    }
  }
  mix(state, 0x03);
}

function hashValue(state: HashState, value: unknown): void {
  if (value === null || value === undefined) {
    mix(state, 0x04);
  } else if (typeof value === 'string') {
    hashString(state, value);
  } else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    mix(state, 0x05);
    hashString(state, String(value));
  } else if (value instanceof Uint8Array) {
    mix(state, 0x06);
    mix(state, value.length & 0xffff);
    mix(state, value.length >>> 16);
    // Bytes (images, files) by length and both ends, for the same reason as long strings.
    const head = Math.min(value.length, 1024);
    for (let index = 0; index < head; index++) mix(state, value[index] as number);
    for (let index = Math.max(head, value.length - 1024); index < value.length; index++) {
      mix(state, value[index] as number);
    }
  } else if (value instanceof URL) {
    hashString(state, value.href);
  } else if (Array.isArray(value)) {
    mix(state, 0x07);
    for (const item of value) hashValue(state, item);
    mix(state, 0x08);
  } else if (typeof value === 'object') {
    mix(state, 0x09);
    // Sorted keys: the same message rebuilt by different code must hash the same.
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      hashString(state, key);
      hashValue(state, item);
    }
    mix(state, 0x0a);
  }
}
