import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodesPair } from './encodes-pair.js';
import { mayHoldSecret } from './redact-secrets.js';

// The gate as it read before it was made a table-driven single read per character: a plain
// reading of its conditions, each character judged with the one after it. The fast gate must give
// the same answer on every text, or redaction would change.
const hintWordList = [
  'pass',
  'pwd',
  'pw',
  'secret',
  'token',
  'key',
  'auth',
  'cred',
  'access',
  'login',
  'private',
  'bearer',
  'session',
  'cookie',
  'sig',
  'licen',
  'dsn',
  'sid',
  'api',
  'mnemonic',
  'seed',
  'phrase',
  'salt',
  'pepper',
  'kek',
  'dek',
  'jwt',
  'verifier',
  'assertion',
  ...['pat', 'pin', 'otp'].flatMap((word) => [...'=:"\' '].map((end) => word + end)),
];

function tokenClass(code: number): number {
  if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57)) {
    return 1;
  }
  return code === 95 || code === 45 ? 2 : 0;
}

function wordAt(text: string, at: number, word: string): boolean {
  if (at + word.length > text.length) return false;
  for (let index = 1; index < word.length; index++) {
    let code = text.charCodeAt(at + index);
    if (code >= 65 && code <= 90) code += 32;
    if (code !== word.charCodeAt(index)) return false;
  }
  return true;
}

function referenceGate(text: string, words: readonly string[] = hintWordList): boolean {
  let alphanumeric = 0;
  let token = 0;
  let base64 = 0;
  let escapes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const next = index + 1 < text.length ? text.charCodeAt(index + 1) : 0;
    const kind = tokenClass(code);
    if (kind === 1 || code === 43 || code === 47) base64++;
    else if (code === 92 && next === 47 && base64 > 0) {
      escapes++;
      continue;
    } else if (code === 61) {
      if (base64 >= 7 && base64 % 4 >= 2 && tokenClass(next) !== 1) return true;
      base64 = 0;
      escapes = 0;
    } else {
      if (base64 >= 8 && (base64 & 3) === 0 && kind === 0) {
        if (encodesPair(text, index - base64 - escapes, index)) return true;
      }
      base64 = 0;
      escapes = 0;
    }
    if (kind !== 0) {
      alphanumeric = kind === 1 ? alphanumeric + 1 : 0;
      token++;
      if (alphanumeric >= 10 || token >= 16) return true;
      const lower = code >= 65 && code <= 90 ? code + 32 : code;
      for (const word of words) {
        if (word.charCodeAt(0) === lower && wordAt(text, index, word)) return true;
      }
      if (code === 45) {
        const after = text.charCodeAt(index + 2);
        if ((next === 117 || next === 85) && tokenClass(after) !== 1 && after !== 95) return true;
        if (wordAt(text, index, '--user')) return true;
      }
      continue;
    }
    if (code === 64) return true;
    if (code === 58 && next === 47 && text.charCodeAt(index + 2) === 47) return true;
    if ((code === 126 || code === 46) && token >= 8 && tokenClass(next) !== 0) return true;
    alphanumeric = 0;
    token = 0;
  }
  return (
    base64 >= 8 &&
    (base64 & 3) === 0 &&
    encodesPair(text, text.length - base64 - escapes, text.length)
  );
}

const randomCase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));
// Every character the gate tells apart, words and runs that sit on each threshold, pieces of the
// conditions (`-u`, `--user`, `://`, padding, `\/`), and characters outside ASCII.
const piece = fc.oneof(
  fc.constantFrom(...'aZq09_-+/\\=@:.~ \n"\'\t,;é€\u212a\u0130\u{1F600}'),
  fc
    .constantFrom(...hintWordList, 'pa', 'se', 'to', 'ke', 'co', 'compute', 'value')
    .chain(randomCase),
  fc.constantFrom('-u', '-U', '-u_', '-ux', '--user', '--USER', '--use', '://', ':/', '\\/', '=='),
  fc.noBias(fc.stringMatching(/^[A-Za-z0-9]{6,11}$/)),
  fc.noBias(fc.stringMatching(/^[A-Za-z0-9_-]{12,17}$/)),
  fc.noBias(fc.stringMatching(/^[A-Za-z0-9+/]{5,16}$/)),
  // Base64 of `name:value` pairs and of other text, padded or not, `/` escaped or not.
  fc
    .tuple(
      fc.stringMatching(/^[a-z]{1,6}$/),
      fc.constantFrom(':', '-'),
      fc.stringMatching(/^[!-~]{1,9}$/),
    )
    .map(([name, mark, value]) => Buffer.from(`${name}${mark}${value}`).toString('base64'))
    .chain((encoded) =>
      fc.constantFrom(encoded, encoded.replace(/=+$/, ''), encoded.replaceAll('/', '\\/')),
    ),
);
const text = fc.array(piece, { maxLength: 14 }).map((pieces) => pieces.join(''));

describe('mayHoldSecret', () => {
  it('answers as the plain reading of its conditions on generated texts', () => {
    fc.assert(
      fc.property(text, (value) => {
        // Every cut of the text too: each condition met at the end and at the start.
        for (let cut = 0; cut < value.length; cut += 3) {
          const tail = value.slice(cut);
          const head = value.slice(0, value.length - cut);
          if (mayHoldSecret(tail) !== referenceGate(tail)) return false;
          if (mayHoldSecret(head) !== referenceGate(head)) return false;
        }
        return mayHoldSecret(value) === referenceGate(value);
      }),
      { numRuns: 2_000 },
    );
  });

  it('is asked texts of both answers, some decided by a hint word alone (premise and control)', () => {
    const samples = fc.sample(text, 3_000);
    const passed = samples.filter((value) => referenceGate(value)).length;
    expect(passed).toBeGreaterThan(samples.length * 0.1);
    expect(passed).toBeLessThan(samples.length * 0.9);
    // A gate blind to hint words answers otherwise on some texts: the generator reaches them.
    const byWordsAlone = samples.filter(
      (value) => mayHoldSecret(value) !== referenceGate(value, []),
    );
    expect(byWordsAlone.length).toBeGreaterThan(10);
  });
});
