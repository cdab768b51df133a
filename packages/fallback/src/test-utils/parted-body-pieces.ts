import fc from 'fast-check';
import { drawn } from './drawn.js';

const base62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Consonants only (no `g`, `p`, `s`, `t`, `c`): no API object-id or record prefix, no issuer's. */
export const partedPrefix = drawn('bdfjkmnqvwxz', 2, 5);
export const partedSeparator = fc.constantFrom('_', '-');
/** A generated piece of a parted body: base62 holding both cases and a digit. */
export const partedPiece = (minLength: number, maxLength: number) =>
  drawn(base62, minLength, maxLength).filter(
    (value) => /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value),
  );
