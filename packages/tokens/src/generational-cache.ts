/**
 * A bounded map with approximate LRU eviction at near-`Map` speed: entries live in a young and an
 * old generation; a hit in the old one is promoted; when the young generation is full (by entry
 * count, or by the summed weight of its entries, e.g. characters of string keys) the old one is
 * dropped. At most `2 * generationSize` entries and about `2 * generationWeight` weight are held.
 */
export class GenerationalCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private youngWeight = 0;
  private readonly generationSize: number;
  private readonly generationWeight: number;

  constructor(generationSize: number, generationWeight = Number.POSITIVE_INFINITY) {
    this.generationSize = Math.max(1, Math.floor(generationSize));
    this.generationWeight = generationWeight;
  }

  get(key: K, weight = 1): V | undefined {
    const hit = this.young.get(key);
    if (hit !== undefined) return hit;
    const oldHit = this.old.get(key);
    if (oldHit !== undefined) this.set(key, oldHit, weight);
    return oldHit;
  }

  set(key: K, value: V, weight = 1): void {
    if (this.young.size >= this.generationSize || this.youngWeight >= this.generationWeight) {
      this.old = this.young;
      this.young = new Map();
      this.youngWeight = 0;
    }
    this.young.set(key, value);
    this.youngWeight += weight;
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  clear(): void {
    this.young = new Map();
    this.old = new Map();
    this.youngWeight = 0;
  }
}
