import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets, pick, seededRandom } from './credential-families.js';
import { redactSecrets } from './index.js';
import { familyToken, middleOf } from './test-utils/family-tokens.js';

// Where a keyed value stands, each with an ellipsis after it (a sentence's trailing `...`, a
// display's `…`): the places a value is judged by its key rather than by an issuer's prefix.
const places: Array<(value: string, dots: string) => string> = [
  (value, dots) => `password=${value}${dots}`,
  (value, dots) => `set DB_PASSWORD=${value}${dots} and restart`,
  (value, dots) => `token=${value}${dots}`,
  (value, dots) => `api_key: "${value}${dots}"`,
  (value, dots) => `{"client_secret":"${value}${dots}","user":"bob"}`,
  (value, dots) => `secret=${value}${dots}`,
  (value, dots) => `<add key="Password" value="${value}${dots}" />`,
  (value, dots) => `  password: '${value}${dots}'`,
  (value, dots) => `mongodb://bob:${value}${dots}@db.internal:27017/app`,
  (value, dots) => `https://deploy:${value}${dots}@git.internal/repo.git`,
];
const place = fc.noBias(fc.integer({ min: 0, max: places.length - 1 })).map((at) => places[at]!);
const dots = fc.constantFrom('...', '\u2026', '....', '......');
const seeds = fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 }));
// base64url, not base64: a bare `/` would end a URL's password (it is percent-encoded there).
const alphabet = fc.constantFrom(alphabets.alnum, alphabets.base64url, alphabets.hex);

describe('a value shown before an ellipsis', () => {
  it('is redacted whenever the same value without the ellipsis is', () => {
    // The ellipsis only marks where a sentence or a display stopped; the characters before it are
    // shown all the same. (Values were left whole when `...` followed them: 12 to 20 random
    // characters under `password=`, `token=`, `"api_key"` leaked in 190+ of 200 draws.)
    let judged = 0;
    fc.assert(
      fc.property(
        seeds,
        alphabet,
        fc.noBias(fc.integer({ min: 8, max: 48 })),
        dots,
        place,
        (seed, letters, length, cut, wrap) => {
          const value = pick(seededRandom(seed), letters, length);
          const bare = redactSecrets(wrap(value, '')).text;
          if (bare.includes(value)) return; // not a secret there without the ellipsis either
          judged++;
          expect(redactSecrets(wrap(value, cut)).text).not.toContain(value);
        },
      ),
      { numRuns: 600 },
    );
    // The property is about values the rules do judge secret; most draws are.
    expect(judged).toBeGreaterThan(400);
  });

  it('holds for an ellipsis before the value or inside it: each piece shown is judged alone', () => {
    // `…<value>` (a display that keeps the end) and `<half>…<half>` (an elision): a piece that
    // would be a secret on its own is one here too. (Both leaked in about half of all draws.)
    let judged = 0;
    fc.assert(
      fc.property(
        seeds,
        alphabet,
        fc.noBias(fc.integer({ min: 16, max: 48 })),
        fc.noBias(fc.integer({ min: 0, max: 48 })),
        dots,
        place,
        (seed, letters, length, otherLength, cut, wrap) => {
          const random = seededRandom(seed);
          const value = pick(random, letters, length);
          if (redactSecrets(wrap(value, '')).text.includes(value)) return;
          judged++;
          // Letters and digits: a `/` of base64 would end a URL's password before the piece.
          const other = otherLength === 0 ? '' : pick(random, alphabets.alnum, otherLength);
          for (const text of [wrap(`${cut}${value}`, ''), wrap(`${other}${cut}${value}`, '')]) {
            expect(redactSecrets(text).text).not.toContain(value);
          }
          expect(redactSecrets(wrap(`${value}${cut}${other}`, '')).text).not.toContain(value);
        },
      ),
      { numRuns: 400 },
    );
    expect(judged).toBeGreaterThan(250);
  });

  it('a value glued after the ellipsis of a cut-short token header is judged, not exempted', () => {
    // `ops_` + base64 of a JSON header cut before its first value shows no secret; characters
    // glued after its ellipsis are more of a value and are judged as one.
    fc.assert(
      fc.property(seeds, fc.noBias(fc.integer({ min: 16, max: 48 })), dots, (seed, length, cut) => {
        const value = pick(seededRandom(seed), alphabets.alnum, length);
        const header = Buffer.from('{"signInAddress":"https:').toString('base64url');
        const keyed = `export OP_SERVICE_ACCOUNT_TOKEN=ops_${header}${cut}${value}`;
        expect(redactSecrets(keyed).text).not.toContain(value);
        // In prose the value is judged as it would be standing alone there.
        if (!redactSecrets(`the token is ${value} here`).text.includes(value)) {
          const prose = `the token is ops_${header}${cut}${value} here`;
          expect(redactSecrets(prose).text).not.toContain(value);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('chains of keys with an ellipsis for a value stay as written, and redaction is idempotent', () => {
    // `password=...token=...`: each piece between the ellipses is the next pair's key, not a value.
    const keyName = fc.constantFrom(
      'password',
      'token',
      'secret',
      'api_key',
      'DB_PASSWORD',
      'auth',
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(keyName, fc.constantFrom('=', ': '), dots), {
          minLength: 1,
          maxLength: 30,
        }),
        seeds,
        fc.noBias(fc.integer({ min: 0, max: 40 })),
        (pairs, seed, length) => {
          const chain = pairs.map(([key, sep, cut]) => `${key}${sep}${cut}`).join('');
          // `key: ...key=...` reads `key` (or `key=..`) as a value shown after an ellipsis, a short
          // word a password key accepts: only `=` chains are keys alone. Either way, idempotent.
          const plain = redactSecrets(chain).text;
          if (pairs.every(([, sep]) => sep === '=')) expect(plain).toBe(chain);
          expect(redactSecrets(plain).text).toBe(plain);
          // With a value in the chain, whatever is redacted, a second pass changes nothing.
          const value = length === 0 ? '' : pick(seededRandom(seed), alphabets.alnum, length);
          const once = redactSecrets(`${chain}${value}${chain}`).text;
          expect(redactSecrets(once).text).toBe(once);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("holds for every documented family's token, too", () => {
    fc.assert(
      fc.property(familyToken(), dots, place, ({ token }, cut, wrap) => {
        if (redactSecrets(wrap(token, '')).text.includes(middleOf(token))) return;
        expect(redactSecrets(wrap(token, cut)).text).not.toContain(middleOf(token));
      }),
      { numRuns: 300 },
    );
  });

  it('an ellipsis alone, or a value that is a placeholder before it, stays as written', () => {
    const placeholders = ['', '<your-password>', `\${DB_PASSWORD}`, 'xxxxxxxx', 'changeme', '****'];
    for (const wrap of places) {
      for (const cut of ['...', '\u2026']) {
        for (const value of placeholders) {
          const text = wrap(value, cut);
          expect(redactSecrets(text).text, text).toBe(text);
        }
      }
    }
  });
});
