import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets, pick, type Random, seededRandom } from './credential-families.js';
import { documentedLayouts } from './documented-formats.js';
import { documentedPrefixes, hexBodies } from './find-documented-prefix-tokens.js';
import { redactSecrets } from './index.js';
import { vendorRules } from './secret-rules.js';

// Values are drawn at test time from a seeded generator over each format's alphabet.
const seeds = fc.integer({ min: 1, max: 2 ** 31 - 1 });
const body = (random: Random, alphabet: string, length: number) => pick(random, alphabet, length);
const kinds = (text: string, options = {}) =>
  redactSecrets(text, options).findings.map((finding) => finding.kind);
const generic = new Set(['prefixed-token', 'generated-token']);
const hexPrefixes = new Set(hexBodies.map(([prefix]) => prefix));

describe('documented prefixes and layouts', () => {
  it('name only kinds that a built-in issuer rule reports', () => {
    const ruleKinds = new Set(vendorRules.map((rule) => rule.kind));
    for (const [, kind] of [...documentedPrefixes, ...documentedLayouts]) {
      expect(ruleKinds.has(kind), kind).toBe(true);
    }
  });

  it('always report a documented prefix followed by a generated body its rule turns down', () => {
    // A token cut short, glued to more characters or minted longer than the rule knows is still
    // the issuer's secret: with the generic kinds off, the prefix alone must be enough.
    fc.assert(
      fc.property(
        seeds,
        fc.constantFrom(...documentedPrefixes),
        fc.integer({ min: 24, max: 120 }),
        fc.constantFrom(alphabets.alnum, alphabets.base64url),
        (seed, [prefix, kind], length, drawn) => {
          // Issuers that document a hex body mint hex, cut short or grown alike.
          const alphabet = hexPrefixes.has(prefix) ? alphabets.hex : drawn;
          const value = `${prefix}${body(seededRandom(seed), alphabet, length)}`;
          // Premise: no `xxxx` run, the documented mark of a placeholder (`sk-…XXXX`), which
          // a random body holds now and then.
          fc.pre(!/x{4}/i.test(value));
          const text = `the value is ${value} here`;
          const found = kinds(text, { disabledKinds: [...generic] });
          expect(found.length, text).toBeGreaterThan(0);
          expect(redactSecrets(text).text, text).not.toContain(value.slice(prefix.length, -4));
          // Switching the issuer's kind off switches this off too (leave-family-out stays honest).
          const withoutIssuer = kinds(text, { disabledKinds: [...generic, kind] });
          expect(withoutIssuer).not.toContain(kind);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leave near-misses of documented layouts alone, and judge them again once the issuer rule is off', () => {
    // The generic layer is statistical (a random body reads like words now and then), so the
    // control with the issuer rule off is a rate over many draws; the near-misses never leak a
    // finding.
    const draws = 150;
    const seedBase = Date.now() % 1_000_000;
    let judged = 0;
    let total = 0;
    for (let draw = 0; draw < draws; draw++) {
      {
        const random = seededRandom(seedBase + draw * 7919);
        const b64 = (length: number) => body(random, alphabets.base64url, length);
        const nearMisses: Array<[string, string]> = [
          // SendGrid's 22.43 layout under another two-letter prefix.
          [`AG.${b64(22)}.${b64(43)}`, 'sendgrid-key'],
          // Discord: the middle (timestamp) segment a character short, and a first segment short.
          [
            `M${body(random, alphabets.alnum, 23)}.${body(random, alphabets.alnum, 5)}.${body(random, alphabets.alnum, 27)}`,
            'discord-token',
          ],
          [
            `P${body(random, alphabets.alnum, 23)}.${body(random, alphabets.alnum, 6)}.${body(random, alphabets.alnum, 27)}`,
            'discord-token',
          ],
          // The HMAC cut short: 8–19 characters, with nothing after to complete it (a cut token
          // with its rest after a comma is a token: redact-cut-discord-tokens.test.ts).
          [
            `M${body(random, alphabets.alnum, 23)}.${body(random, alphabets.alnum, 6)}.${body(random, alphabets.alnum, 8 + (draw % 12))}`,
            'discord-token',
          ],
        ];
        for (const [value, owner] of nearMisses) {
          expect(kinds(value), `seed base ${seedBase}: ${value}`).toEqual([]);
          // The test can fail: with the owner's rule off, the generic layer judges the shape.
          const alone = kinds(value, { disabledKinds: [owner] });
          expect(alone.every((name) => generic.has(name))).toBe(true);
          total++;
          if (alone.length > 0) judged++;
        }
      }
    }
    expect(judged / total, `seed base ${seedBase}`).toBeGreaterThanOrEqual(0.9);
  });

  it('still report the exact documented formats under their issuer kinds', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const random = seededRandom(seed);
        const b64 = (length: number) => body(random, alphabets.base64url, length);
        const discord = `M${body(random, alphabets.alnum, 23)}.${body(random, alphabets.alnum, 6)}.${body(random, alphabets.alnum, 27)}`;
        expect(kinds(`token ${discord}`)).toContain('discord-token');
        expect(kinds(`SG.${b64(22)}.${b64(43)}`)).toEqual(['sendgrid-key']);
      }),
      { numRuns: 60 },
    );
  });
});

describe('ciphertext and content hashes are not credentials', () => {
  it('leaves SOPS-encrypted values alone, not the same bytes in prose', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        const random = seededRandom(seed);
        const data = body(random, alphabets.base64, 88);
        const iv = body(random, alphabets.base64, 43);
        const tag = body(random, alphabets.base64, 22);
        const sops = `sops:\n    mac: ENC[AES256_GCM,data:${data}=,iv:${iv}=,tag:${tag}==,type:str]\n`;
        expect(redactSecrets(sops).findings, sops).toEqual([]);
        // Random bytes begin like a vendor's short prefix now and then (`iv:AP5…`, once in about
        // 3,000 draws): inside an encrypted value it is still ciphertext.
        const lead = ['AP5', 'AKC', 'ASIA', 'AKIA'][seed % 4]!;
        const led = `sops:\n    mac: ENC[AES256_GCM,data:${lead}${data}=,iv:${lead}${iv.slice(lead.length)}=,tag:${tag}==,type:str]\n`;
        expect(redactSecrets(led).findings, led).toEqual([]);
        expect(redactSecrets(`the value is ${data} here`).text).not.toContain(data);
      }),
      { numRuns: 60 },
    );
  });

  it('leaves Fernet tokens alone (0x80 version byte, then timestamp, IV, ciphertext, HMAC)', () => {
    fc.assert(
      fc.property(seeds, fc.integer({ min: 0, max: 4 }), (seed, blocks) => {
        const random = seededRandom(seed);
        // 73 bytes plus 16 per further ciphertext block; base64url, padded to a multiple of 4.
        const bytes = 73 + 16 * blocks;
        const characters = Math.ceil((bytes * 4) / 3);
        const padding = '='.repeat((4 - (characters % 4)) % 4);
        const tail = body(random, alphabets.base64url, characters - 6);
        const fernet = `gAAAAA${tail}${padding}`;
        expect(redactSecrets(`/image?q=${fernet}`).findings, fernet).toEqual([]);
        // base64url holds `---` now and then (once in about 2,000 tokens), where runs are parted
        // at PEM dashes: the pieces are still one Fernet token.
        const cut = 10 + (seed % (tail.length - 20));
        const dashed = `gAAAAA${tail.slice(0, cut)}---${tail.slice(cut + 3)}${padding}`;
        expect(redactSecrets(`/image?q=${dashed}`).findings, dashed).toEqual([]);
      }),
      { numRuns: 60 },
    );
    // The same bodies without Fernet's header are judged as any generated value (a rate: the
    // shape test is statistical).
    let found = 0;
    for (let draw = 0; draw < 100; draw++) {
      const tail = body(seededRandom(draw + 1), alphabets.base64url, 98);
      if (redactSecrets(`/image?q=hBCDEF${tail}`).findings.length > 0) found++;
    }
    expect(found).toBeGreaterThanOrEqual(80);
  });

  it("leaves a build tool's fingerprinted asset name alone, not an issuer's token as a file name", () => {
    fc.assert(
      fc.property(
        seeds,
        fc.constantFrom(32, 40, 64),
        fc.constantFrom('png', 'js', 'css', 'woff2'),
        (seed, length, extension) => {
          const random = seededRandom(seed);
          const name = body(random, 'abcdefghijklmnopqrstuvwxyz', 5);
          const hash = body(random, alphabets.hex, length);
          expect(
            redactSecrets(`<img src="./assets/${name}-${hash}.${extension}">`).findings,
          ).toEqual([]);
          // Without the extension it is a prefix and 128+ bits of hex: a token shape.
          expect(redactSecrets(`key ${name}-${hash} set`).text).not.toContain(hash);
          const pulumi = `pul-${body(random, alphabets.hex, 40)}`;
          expect(redactSecrets(`cat ~/ci/${pulumi}.json`).text).not.toContain(pulumi);
        },
      ),
      { numRuns: 60 },
    );
  });
});
