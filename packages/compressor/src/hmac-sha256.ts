import { sha256 } from '@baton/fallback';

/**
 * HMAC-SHA-256 (RFC 2104 over the FIPS 180-4 digest), synchronous and free of Node built-ins, so
 * the compressor keeps running in browsers and edge runtimes, and `isBatonInsert` stays synchronous.
 */
/** HMAC-SHA-256 of `message` under `key`, as lower-case hex. */
export function hmacSha256Hex(key: Uint8Array, message: Uint8Array): string {
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let index = 0; index < 64; index++) {
    inner[index] = block[index]! ^ 0x36;
    outer[index] = block[index]! ^ 0x5c;
  }
  inner.set(message, 64);
  outer.set(sha256(inner), 64);
  return Array.from(sha256(outer), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
