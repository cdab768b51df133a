/**
 * A bounded map with approximate LRU eviction at near-`Map` speed: entries live in a young and an
 * old generation; a hit in the old one is promoted; when the young generation is full the old one is
 * dropped. At most `2 * generationSize` entries are held.
 */
export class GenerationalCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly generationSize: number;

  constructor(generationSize: number) {
    this.generationSize = Math.max(1, Math.floor(generationSize));
  }

  get(key: K): V | undefined {
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const oldHit = this.old.get(key);
    if (oldHit !== undefined) this.set(key, oldHit);
    return oldHit;
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.generationSize) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  clear(): void {
    this.young = new Map();
    this.old = new Map();
  }
}
