import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { credentialFamilies, seededRandom } from './credential-families.js';
import { clearRedactionMemo, extractErrorLines, redactSecrets } from './index.js';
import { mayHoldSecret } from './redact-secrets.js';

// The shortcuts taken for speed (the prefilter that skips text no rule can match, the memo of
// redacted output, the single scan for error lines) must give what the full work gives.

const credential = fc
  .tuple(fc.integer({ min: 0, max: credentialFamilies.length - 1 }), fc.integer({ min: 1 }))
  .map(([family, seed]) => credentialFamilies[family]!.make(seededRandom(seed)));
// Pieces that sit at the prefilter's edges: runs of 8-16 token characters, hint words in any case,
// `-u`, `://`, `@`, and non-ASCII letters whose case mapping lands on ASCII.
const edge = fc.oneof(
  fc.constantFrom('pass', 'PwD', 'SeCrEt', 'tok', 'KEY', 'sid', 'api', '://', ':/', '-u', '-U'),
  fc.constantFrom('--user', '-u_', '-ux', '@', '~', '.', ' ', '\n', 'İ', 'K', 'ſ', '=', '"'),
  fc.stringMatching(/^[A-Za-z0-9_~.-]{0,18}$/),
  fc.string({ maxLength: 6 }),
);
const text = fc
  .array(fc.oneof({ weight: 8, arbitrary: edge }, { weight: 1, arbitrary: credential }), {
    maxLength: 14,
  })
  .map((pieces) => pieces.join(''));

describe('redactSecrets shortcuts', () => {
  it('the prefilter skips only text in which no rule finds anything', () => {
    fc.assert(
      fc.property(text, (value) => {
        // `extraRules` (even none) turns the prefilter off and every built-in rule runs.
        expect(redactSecrets(value)).toEqual(redactSecrets(value, { extraRules: [] }));
      }),
      { numRuns: 3000 },
    );
  });

  it('the prefilter reads the end of a text as a character no rule needs', () => {
    // What follows the last character is read as a NUL would be: a token glued to `.`, `~`, `=`
    // or `-u` at the very end is judged as if a separator followed it.
    fc.assert(
      fc.property(text, fc.constantFrom('', '.', '~', '=', '-u', '-', ':/', '\\'), (value, end) => {
        const ending = `${value}${end}`;
        expect(mayHoldSecret(ending)).toBe(mayHoldSecret(`${ending}\u0000`));
      }),
      { numRuns: 3000 },
    );
  });

  it('redacting redacted output gives what a scan from scratch gives', () => {
    fc.assert(
      fc.property(text, credential, (value, secret) => {
        const first = redactSecrets(`${value} ${secret} ${value}`);
        const remembered = redactSecrets(first.text);
        clearRedactionMemo();
        const scanned = redactSecrets(first.text);
        expect(remembered).toEqual(scanned);
        // The credential standing alone is gone. (The pieces around it may glue a copy to a word,
        // `3G.apivcr_…`: a token run into letters is a known gap, not this property's subject.)
        expect(scanned.text).not.toContain(` ${secret} `);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps answering right once the memo has evicted its oldest entries', () => {
    clearRedactionMemo();
    const secret = credentialFamilies[0]!.make(seededRandom(7));
    const first = redactSecrets(`deploy with ${secret} today`);
    // Over 16 Mi characters of clean text pushes every earlier entry out.
    for (let index = 0; index < 9000; index++) {
      redactSecrets(`${'a b '.repeat(500)}${index.toString(36)}`);
    }
    expect(redactSecrets(`deploy with ${secret} today`)).toEqual(first);
    expect(redactSecrets(first.text)).toEqual({ text: first.text, findings: [] });
  });
});

describe('extractErrorLines', () => {
  const line = fc
    .array(
      fc.constantFrom(
        'Error',
        'errors',
        'exception',
        'failed',
        'FAILED',
        'timed out',
        'exit code 2',
        'exited status: 3',
        '<returncode>1',
        'returncode=4',
        'command not found',
        'no such file',
        'const x = ',
        '  12: ',
        'ok',
        'pass',
        ' ',
        '\t',
        '\r',
        'x',
        '_',
      ),
      { maxLength: 8 },
    )
    .map((words) => words.join(''));

  it('finds in a whole output exactly the error lines of its lines one by one', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
        expect(extractErrorLines(lines.join('\n'))).toEqual(
          lines.flatMap((each) => extractErrorLines(each)),
        );
      }),
      { numRuns: 2000 },
    );
  });
});
