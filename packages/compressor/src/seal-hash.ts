import { hmacSha256Hex } from './hmac-sha256.js';

const encoder = new TextEncoder();

/**
 * A content hash made fit to store. The whole-content hashes a restarted process checks cover
 * messages that held secrets, and the store holds everything else in those messages (redacted):
 * a bare 64-bit FNV would let anyone who reads the store test guesses of a weak password offline.
 * Keyed by `recordKey`, a guess needs the key as well. 128 bits of the HMAC are kept.
 */
export function sealHash(hash: string, key: Uint8Array): string {
  return hmacSha256Hex(key, encoder.encode(hash)).slice(0, 32);
}
