import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isObjectId } from './generated-token-shape.js';
import { redactSecrets } from './index.js';
import { characterOf, pronounceableWord } from './test-utils/generated-values.js';

// Names built of words, drawn as syllables (onset, vowel, optional coda) so every run is a
// pronounceable word nobody listed: `lomit`, `data-refo`, `pinas-tudo-bet`.
const word = pronounceableWord;
// A word naming a credential makes the prefix a key's (`token-<hex>`): kept apart below. A word
// that marks a placeholder (`todo.<hex>`, `none-<hex>`) makes the value one by design.
const credentialWord =
  /secret|pass|pwd|token|key|cred|auth|api|sess|priv|sign|access|bearer|cookie/;
const placeholderWord = /(?:^|-)(?:null|none|todo|tbd|undefined)(?:-|$)|sample|dummy|example/;
const name = fc
  .noBias(fc.array(word, { minLength: 1, maxLength: 3 }))
  .map((words) => words.join('-'))
  .filter((joined) => !credentialWord.test(joined) && !placeholderWord.test(joined));

const hexCharacters = '0123456789abcdef';
const randomHex = fc
  .noBias(fc.integer({ min: 16, max: 31 }))
  .chain((length) =>
    fc.noBias(fc.array(characterOf(hexCharacters), { minLength: length, maxLength: length })),
  )
  .map((characters) => characters.join(''))
  .filter((hex) => /[a-f]/.test(hex) && /\d/.test(hex) && !holdsAscendingRun(hex, 4));

// Random hex as drawn above holds no ascending run of 4 (`4567`, `9abc`, `cddef`: doubles read
// once, as the rules read them): a body mostly made of such runs is typed, and the runs a
// property adds must be the only ones it holds.
function holdsAscendingRun(hex: string, length: number): boolean {
  const folded = hex.replace(/(.)\1+/g, '$1');
  let run = 1;
  for (let index = 1; index < folded.length; index++) {
    run = folded.charCodeAt(index) === folded.charCodeAt(index - 1) + 1 ? run + 1 : 1;
    if (run >= length) return true;
  }
  return false;
}

// Where tools print a name with a hex suffix: branches, Kubernetes event names, temp directories,
// CSS module classes, database ids after a model name, CI jobs, cache keys.
const ordinaryPlaces: Array<(name: string, hex: string) => string> = [
  (thing, hex) => `git checkout -b feature/${thing}-${hex}`,
  (thing, hex) => `Switched to branch '${thing}-${hex}'`,
  (thing, hex) => `${thing}.${hex}   Normal   ScalingReplicaSet   deployment/${thing}`,
  (thing, hex) => `kubectl describe event ${thing}.${hex}`,
  (thing, hex) => `/tmp/${thing}-${hex}/out.log: No such file or directory`,
  (thing, hex) => `.${thing}-${hex} { color: red; }`,
  (thing, hex) => `deleted ${thing}_${hex} from the collection`,
  (thing, hex) => `Job ${thing}-${hex} succeeded in 42s`,
  (thing, hex) => `cache hit: ${thing}-${hex}`,
];

describe('a word-built name and a short hex suffix', () => {
  it('names a thing: left alone where tools print names (property)', () => {
    const printed = fc
      .tuple(name, randomHex, fc.constantFrom(...ordinaryPlaces))
      .map(([thing, hex, place]) => place(thing, hex));
    fc.assert(
      fc.property(printed, (text) => {
        expect(redactSecrets(text).text).toBe(text);
      }),
      { numRuns: 1500, endOnFailure: true },
    );
  });

  it('is still a secret under a key naming one (property)', () => {
    const keyed: Array<(value: string) => string> = [
      (value) => `token=${value}`,
      (value) => `api_key: ${value}`,
      (value) => `export SERVICE_TOKEN=${value}`,
      (value) => `{"password":"${value}"}`,
      (value) => `curl -H "Authorization: Bearer ${value}" https://api.example.com`,
    ];
    fc.assert(
      fc.property(
        name,
        fc.constantFrom('-', '_', '.'),
        randomHex,
        fc.nat({ max: keyed.length - 1 }),
        (thing, separator, hex, place) => {
          // A name starting with an API object id's prefix (`node.<hex>`) is an id by design.
          fc.pre(!isObjectId(`${thing}${separator}${hex}`));
          expect(redactSecrets(keyed[place]!(`${thing}${separator}${hex}`)).text).not.toContain(
            hex,
          );
        },
      ),
      { numRuns: 1500, endOnFailure: true },
    );
  });

  it('is still a token when the prefix names a credential or is written in capitals (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('token', 'secret', 'apikey', 'auth', 'passkey'),
        name,
        fc.boolean(),
        fc.constantFrom('-', '_', '.'),
        randomHex,
        (credential, thing, upper, separator, hex) => {
          const prefix = upper ? thing.toUpperCase() : credential;
          const body = upper ? hex.toUpperCase() : hex;
          // A name starting with an API object id's prefix (`NODE-…`, `SETI_…`) is an id by design.
          fc.pre(!isObjectId(`${prefix}${separator}${body}`));
          const text = `I rotated it, the new one is ${prefix}${separator}${body} for now.`;
          expect(redactSecrets(text).text).not.toContain(body);
        },
      ),
      { numRuns: 1500, endOnFailure: true },
    );
  });

  it('holds a chance run of six ascending characters and is still a token (property)', () => {
    // 31 random hex characters hold such a run (`…d4567895…`) about once in 40,000 draws.
    fc.assert(
      fc.property(
        fc.constantFrom('token', 'secret', 'apikey', 'auth', 'passkey'),
        fc.constantFrom('-', '_'),
        randomHex,
        fc.integer({ min: 0, max: 9 }),
        fc.nat(),
        (credential, separator, hex, first, at) => {
          const run = Array.from({ length: 6 }, (_, step) => '0123456789abcdef'[first + step]).join(
            '',
          );
          const place = at % (hex.length + 1);
          const body = `${hex.slice(0, place)}${run}${hex.slice(place)}`.slice(0, 31);
          // Cut to 31, a body can lose every letter: 31 digits are a number, not hex.
          fc.pre(/[a-f]/.test(body) && !isObjectId(`${credential}${separator}${body}`));
          const text = `I rotated it, the new one is ${credential}${separator}${body} for now.`;
          expect(redactSecrets(text).text).not.toContain(body);
        },
      ),
      { numRuns: 600 },
    );
  });
});
