import { propertySeed } from '@baton/test-corpus/property-seed';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialFamilies, seededRandom } from './credential-families.js';
import { clearRedactionMemo, redactSecrets } from './index.js';
import { redactSecretsShared } from './redact-secrets.js';

// The memo of `redactSecrets` keeps two generations of texts, each bounded by 8 Mi characters: a
// text asked for again is kept (moved to the current generation), one not asked for again is
// dropped within 16 Mi characters of later texts, and what it answers is what redacting anew gives.

const seed = propertySeed();
const runs = (numRuns: number) => ({ numRuns, ...(seed === undefined ? {} : { seed }) });
let filler = 0;
/** Fresh clean texts of `characters` in total, in 1 Mi-character texts. */
function fill(characters: number): void {
  for (let done = 0; done < characters; done += 2 ** 20) {
    redactSecrets(`${'a b '.repeat(2 ** 18 - 4)}${(filler++).toString(36).padStart(16, '0')}`);
  }
}
const secretText = (at: number) =>
  `deploy with ${credentialFamilies[at % credentialFamilies.length]!.make(seededRandom(at + 1))} today`;

describe('redaction memo generations', () => {
  it('keeps a text asked for again past 16 Mi characters of others', () => {
    clearRedactionMemo();
    const text = secretText(3);
    const first = redactSecretsShared(text);
    // Premise: the text has findings, so the memo's own result is what a hit returns.
    expect(first.findings.length).toBeGreaterThan(0);
    expect(redactSecretsShared(text)).toBe(first);
    for (let round = 0; round < 4; round++) {
      fill(5 * 2 ** 20);
      expect(redactSecretsShared(text)).toBe(first);
    }
  });

  it('control: drops a text not asked for again within 16 Mi characters of others', () => {
    clearRedactionMemo();
    const text = secretText(5);
    const first = redactSecretsShared(text);
    fill(17 * 2 ** 20);
    const again = redactSecretsShared(text);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('answers as redacting anew does, across generations', () => {
    clearRedactionMemo();
    // A small pool of texts (half with a secret) asked for in any order, with clean filler
    // between some asks that pushes generations over; each answer is compared with a redaction
    // that skips the memo (`disabledKinds: []` disables nothing but is never remembered).
    const pool = Array.from({ length: 8 }, (_, at) =>
      at % 2 === 0 ? secretText(at) : `plain text number ${at} with nothing in it at all`,
    );
    fc.assert(
      fc.property(
        fc.noBias(
          fc.array(fc.tuple(fc.nat({ max: pool.length - 1 }), fc.boolean()), { maxLength: 8 }),
        ),
        (asks) => {
          for (const [at, push] of asks) {
            if (push) fill(3 * 2 ** 20);
            const text = pool[at]!;
            expect(redactSecrets(text)).toEqual(redactSecrets(text, { disabledKinds: [] }));
          }
        },
      ),
      runs(4),
    );
  });
});
