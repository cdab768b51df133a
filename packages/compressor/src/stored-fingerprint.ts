import { sealHash } from './seal-hash.js';

/**
 * The sampled prefix fingerprint (`fingerprintMessages`) as a compaction stores it. It hashes short
 * messages whole, so stored bare it would let anyone who reads the store test guesses of a short
 * secret the redactor took out of an ask (`my password is …`) offline: under the record key it is
 * stored sealed, like the whole-content hash. Without a key it stays bare, as it always was.
 */
export function storedFingerprint(fingerprint: string, sealKey: Uint8Array | undefined): string {
  return sealKey === undefined ? fingerprint : sealHash(fingerprint, sealKey);
}

/**
 * Whether `stored` (read from the store) is the stored form of `fingerprint`. Rows written before
 * the seal, or by a process without a key, hold it bare: accepted with a key too, else every
 * session compacted before the upgrade would fork on its next restart (a match tells the reader of
 * the store nothing; a writer of the store can replace the compacted messages anyway). A sealed row
 * read without the key, or under another one, never matches: that process forks, as one that never
 * saw the history would.
 */
export function storedFingerprintMatches(
  stored: string,
  fingerprint: string,
  sealKey: Uint8Array | undefined,
): boolean {
  return (
    stored === fingerprint || (sealKey !== undefined && stored === sealHash(fingerprint, sealKey))
  );
}
