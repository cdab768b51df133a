import { sha256 } from './sha256.js';

/**
 * Base58 (Bitcoin's alphabet: no `0`, `O`, `I`, `l`) and Base58Check, its form with a four-byte
 * double SHA-256 checksum. Addresses, extended keys and WIF private keys are written in it; the
 * checksum tells a value that was encoded apart from random characters (one in 2^32 passes).
 */
const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const digitOf = new Int8Array(128).fill(-1);
for (let index = 0; index < alphabet.length; index++) digitOf[alphabet.charCodeAt(index)] = index;

// Quadratic in the length: callers only decode what is as short as keys and addresses.
const maxLength = 120;

/** The bytes `value` encodes in Base58, or undefined when it is not Base58 or too long. */
export function decodeBase58(value: string): Uint8Array | undefined {
  if (value.length === 0 || value.length > maxLength) return undefined;
  const bytes: number[] = [];
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    let carry = code < 128 ? digitOf[code]! : -1;
    if (carry < 0) return undefined;
    for (let position = 0; position < bytes.length; position++) {
      carry += bytes[position]! * 58;
      bytes[position] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  // Each leading `1` is a leading zero byte.
  for (let index = 0; index < value.length && value[index] === '1'; index++) bytes.push(0);
  return Uint8Array.from(bytes.reverse());
}

/** The payload (version bytes and data) of a Base58Check value whose checksum holds. */
export function base58CheckPayload(value: string): Uint8Array | undefined {
  const bytes = decodeBase58(value);
  if (bytes === undefined || bytes.length < 5) return undefined;
  const payload = bytes.subarray(0, bytes.length - 4);
  const checksum = sha256(sha256(payload));
  for (let index = 0; index < 4; index++) {
    if (checksum[index] !== bytes[payload.length + index]) return undefined;
  }
  return payload;
}
