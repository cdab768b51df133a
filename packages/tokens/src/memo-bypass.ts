// Lookups per verdict, and one piece in `sampleEvery` looked up while the memo is bypassed.
const verdictLookups = 512;
const sampleEvery = 8;
// A memo hit on fewer than one lookup in this many is bypassed.
const bypassBelow = 16;

/**
 * Whether a memo of piece counts is worth consulting. Pieces that never repeat (random letters of
 * any script, split at every capital or symbol) missed it on nearly every lookup, and the misses (a
 * string hash, probes of two maps of tens of thousands of entries, an insertion and its garbage)
 * cost about a third of counting such a text. When hits fall below one lookup in `bypassBelow`
 * over `verdictLookups` lookups, only one piece in `sampleEvery` goes through the memo until its
 * sampled lookups hit that often again. Only a cost choice: a piece is counted the same either way.
 */
export class MemoBypass {
  private lookups = 0;
  private hits = 0;
  private skipped = 0;
  private bypassed = false;

  /** True when the next piece should be counted without the memo. */
  skip(): boolean {
    if (!this.bypassed) return false;
    if (++this.skipped < sampleEvery) return true;
    this.skipped = 0;
    return false;
  }

  /** Records a lookup of the memo and whether it hit. */
  record(hit: boolean): void {
    if (hit) this.hits++;
    if (++this.lookups < verdictLookups) return;
    this.bypassed = this.hits * bypassBelow < this.lookups;
    this.lookups = 0;
    this.hits = 0;
  }

  /** Whether pieces are being counted without the memo (a test's probe). */
  get bypassing(): boolean {
    return this.bypassed;
  }
}
