/** 32-bit FNV-1a hash of a string's UTF-16 code units: stable splits and seeds for the tests. */
export function fnv1aHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
