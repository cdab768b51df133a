import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionStore, type RecallRedact, type SessionStore } from './index.js';

const secretShape = /sk_[a-z0-9]{30}/g;
/** A redactor that knows one credential shape (found anywhere, even inside a longer run). */
const redact: RecallRedact = (text) => ({
  findings: [...text.matchAll(secretShape)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    kind: 'test-key',
  })),
});

/** A small seeded generator, so fast-check shrinks the layouts it finds. */
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  return (set: string, length: number) => {
    let out = '';
    for (let index = 0; index < length; index++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      out += set[(state >>> 0) % set.length];
    }
    return out;
  };
}

interface Layout {
  text: string;
  marker: string;
  secrets: string[];
}

/**
 * A message that is mostly one long run without spaces (upper-case letters and digits), holding a
 * marker and credentials placed around it at random distances, and maybe a few spaces.
 */
const layouts = fc
  .record({
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    length: fc.integer({ min: 100, max: 12_000 }),
    markerAt: fc.double({ min: 0, max: 1, noNaN: true }),
    offsets: fc.array(fc.integer({ min: -700, max: 700 }), { minLength: 1, maxLength: 4 }),
    spaces: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
  })
  .map(({ seed, length, markerAt, offsets, spaces }): Layout => {
    const pick = generator(seed);
    const chars = [...pick('ABCDEFGHJKLMNPQRSTUVWXYZ0123456789', length)];
    const taken = new Array<boolean>(length).fill(false);
    const place = (value: string, at: number) => {
      const start = Math.max(0, Math.min(length - value.length, at));
      for (let index = start; index < start + value.length; index++) if (taken[index]) return false;
      for (let index = 0; index < value.length; index++) {
        chars[start + index] = value[index]!;
        taken[start + index] = true;
      }
      return true;
    };
    const marker = `qx${pick('abcdefghijklmnopqrstuvwxyz', 10)}`;
    const markerStart = Math.floor(markerAt * (length - marker.length));
    place(marker, markerStart);
    const secrets: string[] = [];
    for (const offset of offsets) {
      const secret = `sk_${pick('abcdefghijklmnopqrstuvwxyz0123456789', 30)}`;
      if (place(secret, markerStart + offset)) secrets.push(secret);
    }
    for (const at of spaces) {
      const index = Math.floor(at * (length - 1));
      if (!taken[index]) chars[index] = ' ';
    }
    return { text: chars.join(''), marker, secrets };
  });

/** Any 6 characters of a credential's random part found in `text`. */
function leak(text: string, secret: string): string | undefined {
  const body = secret.slice(3);
  for (let index = 0; index + 6 <= body.length; index++) {
    if (text.includes(body.slice(index, index + 6))) return body.slice(index, index + 6);
  }
  return undefined;
}

describe('recall with a redactor (PGlite)', () => {
  let store: SessionStore;
  beforeAll(async () => {
    store = await createSessionStore();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it('excerpts of long runs hold the match and never part of a credential, by query and by range', async () => {
    await fc.assert(
      fc.asyncProperty(
        layouts,
        fc.integer({ min: 20, max: 600 }),
        async ({ text, marker, secrets }, excerptLength) => {
          const session = await store.createSession();
          await store.appendMessages(session.id, [{ role: 'tool', content: text }]);
          const { matches } = await store.recall(session.id, {
            query: marker,
            excerptLength,
            redact,
          });
          expect(matches).toHaveLength(1);
          const [match] = matches;
          expect(match!.excerpt).toContain(marker);
          expect(match!.excerpt.length).toBeLessThanOrEqual(excerptLength);
          expect(text.slice(match!.excerptStart, match!.excerptEnd)).toContain(marker);
          const ranged = await store.recall(session.id, { fromSequence: 0, excerptLength, redact });
          expect(ranged.matches[0]!.excerpt.length).toBeGreaterThan(0);
          for (const secret of secrets) {
            expect(leak(match!.excerpt, secret), match!.excerpt).toBeUndefined();
            expect(leak(ranged.matches[0]!.excerpt, secret)).toBeUndefined();
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('a credential straddling the excerpt edge is replaced whole; without a redactor it is cut', async () => {
    const pick = generator(Date.now() % 2 ** 31);
    for (let round = 0; round < 10; round++) {
      const marker = `qx${pick('abcdefghijklmnopqrstuvwxyz', 10)}`;
      const secret = `sk_${pick('abcdefghijklmnopqrstuvwxyz0123456789', 30)}`;
      const excerptLength = 40 + round * 7;
      // The marker centred, the credential starting a few characters before the excerpt's end.
      const gap = Math.floor((excerptLength - marker.length) / 2) - 10;
      const filler = pick('ABCDEFGHJKLMNPQRSTUVWXYZ', 3_000);
      const text = `${filler}${marker}${filler.slice(0, gap)}${secret}${filler}`;
      const session = await store.createSession();
      await store.appendMessages(session.id, [{ role: 'tool', content: text }]);
      const plain = await store.recall(session.id, { query: marker, excerptLength });
      expect(leak(plain.matches[0]!.excerpt, secret)).toBeDefined();
      const redacted = await store.recall(session.id, { query: marker, excerptLength, redact });
      expect(redacted.matches[0]!.excerpt).toContain(marker);
      // Trimmed back to `excerptLength`, the placeholder itself may be cut; the credential never is.
      expect(redacted.matches[0]!.excerpt).toContain('[REDACTED');
      expect(leak(redacted.matches[0]!.excerpt, secret)).toBeUndefined();
    }
  }, 60_000);
});
