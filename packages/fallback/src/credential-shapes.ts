/**
 * Test and benchmark data, not part of the public API.
 * Credential shapes drawn from how issuers document their formats, with no issuer named: a short
 * prefix naming the kind (or none), a separator, and a generated body whose alphabet, length and
 * grouping vary as issuers vary them (one piece; groups parted by `-`, `_` or `.`; a random letter
 * run between two pieces; a checksum tail; one case of letters). The generic layers must catch
 * every shape in every position without a rule written for it (`credential-look-alikes.ts` holds
 * the other direction).
 */
import { alphabets, pick, type Random } from './credential-families.js';

export interface CredentialShape {
  shape: string;
  make: (random: Random) => string;
}

/** A whole number from `min` to `max`, each as likely. */
export const integer = (random: Random, min: number, max: number) =>
  min + Math.floor(random.next() * (max - min + 1));
/** One of `items`, each as likely. */
export const choose = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random.next() * items.length)]!;

// Consonants and vowels drawn apart, so a prefix is a short mark (`tkn`, `zvq`, `rplo`) rather than
// always unpronounceable; the API object-id and record prefixes (`msg_`, `ord_`) are ids, not
// credential prefixes, and are drawn again.
const objectIdPrefixes = new Set(
  'call chat cmpl msg req resp run sess step file batch evt id org proj user item task job ref ord inv tkt case po rev sha sum tx txn pi ch in ws vs ft rs ci pm op pr git img node span'.split(
    ' ',
  ),
);
function prefixWord(random: Random): string {
  for (;;) {
    const length = integer(random, 2, 6);
    let out = '';
    for (let index = 0; index < length; index++) {
      out +=
        random.next() < 0.3
          ? choose(random, [...'aeiou'])
          : choose(random, [...'bcdfghjklmnpqrstvwxz']);
    }
    if (!objectIdPrefixes.has(out)) return out;
  }
}

/** A prefix as issuers write it: lower case, capitals, or two parts (`abc_live`, `AB-test`). */
function prefix(random: Random): string {
  const word = prefixWord(random);
  switch (integer(random, 0, 3)) {
    case 0:
      return word;
    case 1:
      return word.toUpperCase();
    case 2:
      return `${word}${choose(random, ['_', '-'])}${choose(random, ['live', 'test', 'prod', 'pat', 'sk', 'v1', 'api'])}`;
    default:
      return `${word}${integer(random, 0, 9)}`;
  }
}

const separators = ['_', '-', '.'] as const;
const bodyAlphabets = [
  alphabets.alnum,
  alphabets.alnum,
  alphabets.lowerAlnum,
  alphabets.upperAlnum,
  alphabets.base64url,
] as const;

/** Issuer-style shapes; each `make` draws a whole value. */
export const credentialShapes: CredentialShape[] = [
  {
    shape: 'prefix + one piece',
    make: (r) =>
      `${prefix(r)}${choose(r, separators)}${pick(r, choose(r, bodyAlphabets), integer(r, 24, 64))}`,
  },
  {
    shape: 'prefix + dash groups',
    make: (r) => {
      const alphabet = choose(r, [alphabets.alnum, alphabets.lowerAlnum, alphabets.upperAlnum]);
      // 20 drawn characters at least, as after any prefix (`<12>-<12>-<12>`, `<8>-<8>-<8>-<8>`).
      const count = integer(r, 2, 4);
      const length = integer(r, count === 2 ? 10 : 8, 16);
      const groups = Array.from({ length: count }, () => pick(r, alphabet, length));
      return `${prefix(r)}${choose(r, separators)}${groups.join(choose(r, ['-', '_', '.']))}`;
    },
  },
  {
    shape: 'prefix + pieces around a letter run',
    make: (r) => {
      const separator = choose(r, ['-', '_']);
      const letters = pick(r, 'abcdefghijklmnopqrstuvwxyz', integer(r, 4, 7));
      return `${prefix(r)}${separator}${pick(r, alphabets.alnum, integer(r, 10, 20))}${separator}${letters}${separator}${pick(r, alphabets.alnum, integer(r, 8, 16))}`;
    },
  },
  {
    shape: 'prefix + one-case body of 20',
    make: (r) =>
      `${prefix(r)}${choose(r, separators)}${pick(r, choose(r, [alphabets.lowerAlnum, alphabets.upperAlnum]), integer(r, 20, 24))}`,
  },
  {
    shape: 'prefix + hex',
    make: (r) =>
      `${prefix(r)}${choose(r, separators)}${pick(r, choose(r, [alphabets.hex, alphabets.upperHex]), choose(r, [32, 40, 48, 64]))}`,
  },
  {
    shape: 'prefix + base32',
    make: (r) =>
      `${prefix(r)}${choose(r, separators)}${pick(r, alphabets.base32, integer(r, 20, 52))}`,
  },
  {
    shape: 'prefix + body + checksum',
    make: (r) =>
      `${prefix(r)}${choose(r, ['_', '-'])}${pick(r, alphabets.alnum, integer(r, 24, 36))}${pick(r, alphabets.alnum, 6)}`,
  },
  {
    shape: 'no prefix, base62',
    make: (r) => pick(r, alphabets.alnum, integer(r, 32, 64)),
  },
  {
    shape: 'no prefix, base64url',
    make: (r) => pick(r, alphabets.base64url, integer(r, 40, 86)),
  },
];

/**
 * Positions of a value in transcripts, none naming a credential: what the value looks like must
 * decide alone (`credentialPositions` also has keys and headers that name one).
 */
export const neutralPositions: Array<[string, (value: string) => string]> = [
  ['alone', (value) => value],
  ['prose', (value) => `The new one is ${value} for now.`],
  ['URL path', (value) => `GET https://api.example.net/v2/items/${value}/detail`],
  ['query string', (value) => `https://example.net/cb?state=ok&value=${value}&page=2`],
  ['JSON', (value) => `{"name":"deploy","value":"${value}","count":3}`],
  ['YAML', (value) => `service:\n  value: ${value}\n  replicas: 2\n`],
  ['XML attribute', (value) => `<item id="7" value="${value}"/>`],
  ['curl header', (value) => `curl -H 'X-Value: ${value}' https://api.example.net`],
  ['env assignment', (value) => `SERVICE_VALUE=${value} npm start`],
  ['markdown code', (value) => `Paste \`${value}\` into the form.`],
];
