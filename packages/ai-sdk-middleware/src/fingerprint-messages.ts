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

function hashString(state: HashState, text: string): void {
  mix(state, 0x02);
  for (let index = 0; index < text.length; index++) mix(state, text.charCodeAt(index));
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
    for (let index = 0; index < value.length; index++) mix(state, value[index] as number);
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
