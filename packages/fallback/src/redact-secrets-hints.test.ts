import { corpusSkipReason, loadSecretFixtures } from '@baton/test-corpus';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialFamilies, credentialPositions, seededRandom } from './credential-families.js';
import { hintedRules, hintSources } from './redact-secrets.js';
import { vendorRules } from './secret-rules.js';

// A built-in rule runs only on text holding one of its hints, found by one automaton pass. Both
// halves must hold for that to change nothing: the pass finds exactly the hints present (as
// `includes` finds them, on the lower-cased text for hints that ignore case), and every match of a
// rule holds one of its hints (as written, for a rule whose hints match case).
const hintPiece = fc.constantFrom(...new Set(hintSources.flatMap(({ hints }) => hints ?? [])));
const piece = fc.oneof(
  hintPiece,
  hintPiece.map((hint) => hint.toLowerCase()),
  hintPiece.map((hint) => hint.toUpperCase()),
  hintPiece.map((hint) => hint.slice(0, -1)),
  fc.constantFrom('İ', 'K', 'ſ', 'ı', 'é', '😀', ' ', '\n', '-', '_', '.'),
  fc.string({ maxLength: 5 }),
);
const text = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));

describe('hint scan', () => {
  it('marks exactly the rules and gates one of whose hints the lower-cased text holds', () => {
    let marked = 0;
    fc.assert(
      fc.property(fc.noBias(text), (value) => {
        const lower = value.toLowerCase();
        const active = hintedRules(value);
        hintSources.forEach(({ hints, matchCase }, index) => {
          const expected =
            hints?.some((hint) =>
              matchCase ? value.includes(hint) : lower.includes(hint.toLowerCase()),
            ) ?? false;
          expect(active[index] === 1, `${hints}`).toBe(expected);
          if (expected) marked++;
        });
      }),
      { numRuns: 3000 },
    );
    expect(marked).toBeGreaterThan(3000);
    // About 7 s alone; 34 s was seen on a loaded machine, past the suite's 30 s default.
  }, 120_000);

  it('a vendor pattern that starts with a literal after its boundary has hints', () => {
    // Without, it ran (its look-behind tried at every position) on every text.
    const boundary = '(?<![A-Za-z0-9_+])(?<![A-Za-z0-9_+.]-)';
    const literalFirst = vendorRules.filter(
      (rule) =>
        rule.pattern.source.startsWith(boundary) &&
        /^(?:[A-Za-z0-9_~-]|\\\.){2}/.test(rule.pattern.source.slice(boundary.length)),
    );
    expect(literalFirst.length).toBeGreaterThan(50);
    for (const rule of literalFirst) expect(rule.hints?.length ?? 0, rule.kind).toBeGreaterThan(0);
  });

  it('every accepted match of a hinted vendor rule holds one of its hints (credentials in place)', () => {
    const texts: string[] = [];
    for (const family of credentialFamilies) {
      for (let draw = 0; draw < 6; draw++) {
        const token = family.make(seededRandom((Date.now() % 1_000_000) + draw));
        for (const [, wrap] of credentialPositions) texts.push(wrap(token));
      }
    }
    if (corpusSkipReason === undefined) texts.push(...loadSecretFixtures().map((row) => row.text));
    let matches = 0;
    for (const rule of vendorRules) {
      if (rule.hints === undefined) continue;
      const exact = rule.hintsMatchCase === true;
      const hints = exact ? rule.hints : rule.hints.map((hint) => hint.toLowerCase());
      for (const value of texts) {
        const pattern = new RegExp(rule.pattern.source, rule.pattern.flags);
        for (const match of value.matchAll(pattern)) {
          if (rule.accept && !rule.accept(match.groups?.secret ?? match[0], match)) continue;
          matches++;
          const found = exact ? match[0] : match[0].toLowerCase();
          expect(
            hints.some((hint) => found.includes(hint)),
            `${rule.kind}: ${match[0]}`,
          ).toBe(true);
        }
      }
    }
    expect(matches).toBeGreaterThan(credentialFamilies.length);
  });
});
