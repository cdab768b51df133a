/**
 * Prompt tokens of an image under OpenAI's published tile formula (GPT-4o / GPT-4.1 family):
 * `low` detail costs a flat 85; otherwise the image is scaled to fit 2048x2048, then down so its
 * shorter side is at most 768, and each 512x512 tile costs 170 on top of the base 85.
 */
export function imageTokens(
  width: number,
  height: number,
  detail: 'low' | 'high' | 'auto' = 'auto',
): number {
  if (detail === 'low') return lowDetailImageTokens;
  let w = width;
  let h = height;
  if (!(w > 0 && h > 0)) return unknownImageTokens;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shorten = Math.min(1, 768 / Math.min(w, h));
  w *= shorten;
  h *= shorten;
  return lowDetailImageTokens + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/** Flat cost of a `low` detail image, and the base cost of every image. */
export const lowDetailImageTokens = 85;

/**
 * Cost assumed for an image whose size cannot be read: a 1920x1080 screenshot at high detail
 * (6 tiles), the common case in agent transcripts.
 */
export const unknownImageTokens = 85 + 170 * 6;

/**
 * Width and height read from the header of a PNG, GIF, WebP or JPEG, or undefined. Only the first
 * bytes are inspected; nothing is decoded.
 */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  const b = bytes;
  const at = (i: number) => b[i] ?? 0;
  const u16be = (i: number) => (at(i) << 8) | at(i + 1);
  const u16le = (i: number) => at(i) | (at(i + 1) << 8);
  const u32be = (i: number) =>
    ((at(i) << 24) >>> 0) + (at(i + 1) << 16) + (at(i + 2) << 8) + at(i + 3);
  if (b.length >= 24 && at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) {
    return { width: u32be(16), height: u32be(20) };
  }
  if (b.length >= 10 && at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46) {
    return { width: u16le(6), height: u16le(8) };
  }
  if (b.length >= 30 && at(0) === 0x52 && at(1) === 0x49 && at(8) === 0x57 && at(9) === 0x45) {
    const chunk = String.fromCharCode(at(12), at(13), at(14), at(15));
    if (chunk === 'VP8X')
      return {
        width: 1 + (at(24) | (at(25) << 8) | (at(26) << 16)),
        height: 1 + (at(27) | (at(28) << 8) | (at(29) << 16)),
      };
    if (chunk === 'VP8 ') return { width: u16le(26) & 0x3fff, height: u16le(28) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = at(21) | (at(22) << 8) | (at(23) << 16) | (at(24) << 24);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    return undefined;
  }
  if (b.length >= 4 && at(0) === 0xff && at(1) === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (at(i) !== 0xff) return undefined;
      const marker = at(i + 1);
      const length = u16be(i + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (
        marker >= 0xc0 &&
        marker <= 0xcf &&
        marker !== 0xc4 &&
        marker !== 0xc8 &&
        marker !== 0xcc
      ) {
        return { width: u16be(i + 7), height: u16be(i + 5) };
      }
      i += 2 + length;
    }
  }
  return undefined;
}
