import { GenerationalCache } from './generational-cache.js';

interface Entry {
  text: string;
  tokens: number;
}

// Strings up to this length are keyed by themselves; hashing them costs about as much as building
// a fingerprint.
const longestDirectKey = 64;
const fingerprintSamples = 24;

/**
 * Token counts of strings, keyed by content, for re-counting copies of messages already counted.
 * V8 hashes every character of a fresh string (one deserialised or cloned) the first time it keys
 * a Map, which costs more than walking a message. Long strings are therefore looked up by a
 * fingerprint (a number from the length and a few sampled characters) and confirmed by comparing the whole string
 * with the one remembered: a comparison is several times cheaper than hashing, and a fingerprint
 * collision is only a miss, never a wrong count.
 */
export class TextMemo {
  private readonly short: GenerationalCache<string, number>;
  private readonly long: GenerationalCache<number, Entry>;

  constructor(generationSize: number, generationCharacters: number) {
    this.short = new GenerationalCache(generationSize);
    this.long = new GenerationalCache(generationSize, generationCharacters);
  }

  count(text: string, countText: (text: string) => number): number {
    if (text.length <= longestDirectKey) {
      let tokens = this.short.get(text);
      if (tokens === undefined) {
        tokens = countText(text);
        this.short.set(text, tokens);
      }
      return tokens;
    }
    const key = fingerprint(text);
    const entry = this.long.get(key, text.length);
    if (entry !== undefined && entry.text === text) return entry.tokens;
    const tokens = countText(text);
    this.long.set(key, { text, tokens }, text.length);
    return tokens;
  }

  clear(): void {
    this.short.clear();
    this.long.clear();
  }
}

/** A small-integer hash of the length and evenly spaced characters (a Map key V8 handles fastest). */
function fingerprint(text: string): number {
  const length = text.length;
  const step = length / fingerprintSamples;
  let hash = length;
  for (let i = 0; i < fingerprintSamples; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(Math.floor(i * step)), 0x9e3779b1);
  }
  hash = Math.imul(hash ^ text.charCodeAt(length - 1), 0x85ebca6b);
  return (hash ^ (hash >>> 15)) & 0x3fffffff;
}
