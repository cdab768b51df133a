import { corpusSkipReason, loadSecretFixtures, loadTranscripts } from '@baton/test-corpus';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { credentialPositions } from './credential-families.js';
import { clearRedactionMemo, redactSecrets } from './index.js';
import { rulePrefilter, rulePrefilterCount, setRulePrefiltersEnabled } from './rule-prefilters.js';
import { contextRules, vendorRules } from './secret-rules.js';
import { familyToken } from './test-utils/family-tokens.js';

const filtered = builtInFiltered();

function builtInFiltered() {
  return [...vendorRules, ...contextRules].flatMap((rule) => {
    const prefilter = rulePrefilter(rule.pattern);
    return prefilter === undefined ? [] : [{ rule, prefilter }];
  });
}

/** `redactSecrets(text)` with the rule prefilters on or off, each from an empty memo. */
function redact(text: string, prefilters: boolean) {
  clearRedactionMemo();
  setRulePrefiltersEnabled(prefilters);
  try {
    return redactSecrets(text);
  } finally {
    setRulePrefiltersEnabled(true);
    clearRedactionMemo();
  }
}

afterEach(() => setRulePrefiltersEnabled(true));

const blanks = fc.constantFrom('', ' ', '\t', '  ');
const quote = fc.constantFrom('"', "'");
const secretKey = fc.constantFrom(
  'api_key',
  'db_password',
  'client_secret',
  'authToken',
  'name',
  'x',
);
const value = fc.oneof(
  fc.noBias(fc.stringMatching(/^[A-Za-z0-9_\-+/=]{1,30}$/)),
  familyToken().map(({ token }) => token),
);
// Each filtered rule's own shape, every optional part drawn: the conditions must admit them all.
const concatenated = fc
  .tuple(
    secretKey,
    fc.constantFrom(' = ', ': ', ':=', '=', ' = ('),
    quote,
    fc.noBias(
      fc.array(fc.tuple(value, quote, blanks, fc.constantFrom('', '+', '.'), blanks), {
        minLength: 2,
        maxLength: 4,
      }),
    ),
    fc.constantFrom('', '\\'),
    fc.constantFrom('\n', '\r\n'),
    blanks,
    fc.constantFrom('', '+', '.'),
  )
  .map(([key, assign, open, parts, slash, newline, indent, lead]) => {
    const [first, ...rest] = parts;
    let out = `${key}${assign}${open}${first![0]}`;
    for (const [body, close, before, join, after] of rest) {
      out += `${close}${before}${join}${after}${slash}${newline}${indent}${lead}${close}${body}`;
    }
    return `${out}${open}`;
  });
const credentialUrl = fc
  .tuple(
    fc.constantFrom('https', 'postgres', 'redis', 'amqp+ssl', 'git'),
    fc.constantFrom('', 'app', 'deploy.bot'),
    value,
    fc.constantFrom('db.example.com', '10.0.0.1', '[::1]', '_host'),
  )
  .map(([scheme, user, secret, host]) => `${scheme}://${user}:${secret}@${host}`);
const blockScalar = fc
  .tuple(
    fc.constantFrom('', '  '),
    fc.constantFrom('password', '"token"', 'client_secret'),
    blanks,
    fc.constantFrom('|', '>'),
    fc.constantFrom('', '+', '-'),
    blanks,
    fc.constantFrom('\n', '\r\n'),
    value,
  )
  .map(
    ([indent, key, before, style, chomp, after, newline, body]) =>
      `${indent}${key}:${before}${style}${chomp}${after}${newline}${indent}  ${body}\n`,
  );
// Pieces the filtered rules read: quotes, concatenation junctions, line breaks, URL user parts,
// YAML block-scalar openers, secret-named keys; the credentials themselves drawn per family.
const piece = fc.oneof(
  fc.constantFrom(
    '"',
    "'",
    '\n',
    '\r\n',
    ' ',
    '\t',
    ' +',
    ' .',
    '\\',
    '(',
    ')',
    ': ',
    ' = ',
    ':=',
    ': |\n',
    ': >-\n',
    '  ',
    '    ',
    '://',
    '@',
    ':',
    'https://',
    'postgres://app:',
    '@db.example.com',
    'api_key',
    'db_password',
    'client_secret',
    'token',
    'auth',
    'session',
    'name',
    'const x',
    '"abc" +\n  "def"',
    "('Zq9vT2xLmW'\n 'Rk3pQ8sNbY')",
    'password: |\n  ',
    'value',
    'hello world',
  ),
  fc.noBias(fc.stringMatching(/^[A-Za-z0-9_\-+/=.]{1,40}$/)),
  concatenated,
  credentialUrl,
  blockScalar,
  familyToken().map(({ token }) => token),
  fc
    .tuple(familyToken(), fc.noBias(fc.nat({ max: credentialPositions.length - 1 })))
    .map(([{ token }, at]) => credentialPositions[at]![1](token)),
);
const text = fc
  .noBias(fc.array(piece, { minLength: 1, maxLength: 40 }))
  .map((parts) => parts.join(''));

/** Whether some filtered rule's condition turns `text` away although its hints would not. */
const skips = (candidate: string) => filtered.some(({ prefilter }) => !prefilter(candidate));
/** Whether some filtered rule's own pattern matches `text` (its condition must then pass). */
const matchesFiltered = (candidate: string) =>
  filtered.some(({ rule }) => {
    rule.pattern.lastIndex = 0;
    const found = rule.pattern.test(candidate);
    rule.pattern.lastIndex = 0;
    return found;
  });

describe('rule prefilters', () => {
  it('each condition belongs to a built-in rule (an edited pattern would leave its key stale)', () => {
    expect(filtered).toHaveLength(rulePrefilterCount);
  });

  it('every text a filtered pattern matches passes its condition (generated)', () => {
    let matched = 0;
    fc.assert(
      fc.property(text, (candidate) => {
        for (const { rule, prefilter } of filtered) {
          rule.pattern.lastIndex = 0;
          const found = rule.pattern.test(candidate);
          rule.pattern.lastIndex = 0;
          if (found) {
            matched++;
            expect(prefilter(candidate)).toBe(true);
          }
        }
      }),
      { numRuns: 3_000 },
    );
    // Control: the generator reaches the rules' matches, so the check above is not vacuous.
    expect(matched).toBeGreaterThan(100);
  });

  it('redactSecrets gives the same output and findings with and without them (generated)', () => {
    let skipped = 0;
    let passedAndMatched = 0;
    fc.assert(
      fc.property(text, (candidate) => {
        if (skips(candidate)) skipped++;
        if (matchesFiltered(candidate)) passedAndMatched++;
        expect(redact(candidate, true)).toEqual(redact(candidate, false));
      }),
      { numRuns: 1_500 },
    );
    // Control: both sides of the decision occur (texts turned away, texts a filtered rule reads).
    expect(skipped).toBeGreaterThan(100);
    expect(passedAndMatched).toBeGreaterThan(50);
  });

  it.skipIf(corpusSkipReason !== undefined)(
    'redactSecrets gives the same output on every corpus string and secret fixture',
    () => {
      const strings: string[] = [];
      const collect = (value: unknown): void => {
        if (typeof value === 'string') strings.push(value);
        else if (Array.isArray(value)) for (const item of value) collect(item);
        else if (typeof value === 'object' && value !== null) {
          for (const item of Object.values(value)) collect(item);
        }
      };
      for (const transcript of loadTranscripts()) collect(transcript.messages);
      for (const fixture of loadSecretFixtures()) collect(fixture);
      let skipped = 0;
      for (const [at, candidate] of strings.entries()) {
        if (skips(candidate)) skipped++;
        // The string's position names the case that differs (the text itself may hold a secret).
        expect({ at, ...redact(candidate, true) }).toEqual({ at, ...redact(candidate, false) });
      }
      // Control: the corpus holds texts the conditions turn away.
      expect(skipped).toBeGreaterThan(100);
    },
    120_000,
  );
});
