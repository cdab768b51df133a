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
const alphabet = fc.constantFrom(alphabets.alnum, alphabets.base64, alphabets.hex);

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
