// The scanner reads every code unit of a text, most of them twice (splitting, then the piece's
// key): from a typed array each read is a plain load, where `charCodeAt` checks the string's
// representation (one- or two-byte, flat or not) on every call. The copy is one native write.
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
// A buffer grown for a longer text is dropped after use: what a counter keeps stays this small.
const retainedUnits = 1 << 18;

/**
 * A reusable copy of a string's UTF-16 code units (lone surrogates included, as `charCodeAt`
 * returns them). The array returned by `of` is valid up to the text's length, until the next call.
 */
export class CodeUnitBuffer {
  #bytes = Buffer.allocUnsafeSlow(2 * 1024);
  #units = new Uint16Array(this.#bytes.buffer, 0, 1024);
  /**
   * The same memory two code units at a time (`units[2k]` and `units[2k + 1]` in `words[k]`, in
   * the platform's byte order), for scans that test both at once.
   */
  words = new Int32Array(this.#bytes.buffer, 0, 512);

  of(text: string): Uint16Array {
    const length = text.length;
    if (length > this.#units.length) this.#resize(Math.max(length, 2 * this.#units.length));
    if (littleEndian) this.#bytes.write(text, 0, 'utf16le');
    else for (let i = 0; i < length; i++) this.#units[i] = text.charCodeAt(i);
    return this.#units;
  }

  /** Drops a buffer grown past what a counter keeps between texts. */
  release(): void {
    if (this.#units.length > retainedUnits) this.#resize(1024);
  }

  #resize(size: number): void {
    // Never pooled, so the arrays start at offset 0 (a pooled buffer may sit at an odd offset);
    // an even number of units fills whole words.
    const units = size + (size & 1);
    this.#bytes = Buffer.allocUnsafeSlow(2 * units);
    this.#units = new Uint16Array(this.#bytes.buffer, 0, units);
    this.words = new Int32Array(this.#bytes.buffer, 0, units >> 1);
  }
}

/** The code units of `text` in an array of their own (for tests and one-off callers). */
export function codeUnits(text: string): Uint16Array {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return units;
}
