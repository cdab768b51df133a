import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clearRedactionMemo,
  createReceipt,
  extractHandoffFacts,
  redactMessages,
  redactSecrets,
} from './index.js';
import { contextRules, vendorRules } from './secret-rules.js';
import { shellCallWindow } from './test-utils/extraction-cpu.js';
import { characterOf, redactionCpuMs } from './test-utils/generated-values.js';

/**
 * Attack suite: one run of millions of characters of one class (a 4 MB image as base64 in a JSON
 * string, a hex dump, a line of dashes). V8's irregexp runs `X{n,}` with n >= 4 as a counted loop
 * that pushes a backtrack entry per character, so a run of ~5.6 M characters overflows its
 * backtrack stack and `exec` throws `RangeError: Maximum call stack size exceeded`; `X{n}X*`
 * (same language, same match order) is a greedy loop that keeps no entry per character.
 */

const MEGABYTES_8 = 8_000_000;

/** `unit` repeated to exactly `length` characters. */
const runOf = (unit: string, length: number) =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** One run per character class an attacker (or an ordinary tool) can make millions long. */
const classes: Record<string, string> = {
  'base64 alphabet': 'QUJDZGVmMTIz+/9aK_-w',
  'lower hex': '0123456789abcdef',
  'upper hex': '0123456789ABCDEF',
  letters: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  'one letter': 'A',
  digits: '0123456789',
  dashes: '-',
  'equals signs': '=',
  slashes: '/',
  underscores: '_',
  dots: '.',
  'x placeholders': 'x',
  'base32 alphabet': 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
  'URL path without spaces': 'a1/b-c_d.e~f',
  '%XX escapes': '%2F%3A',
};

/** The contexts rules key on, each around one run. */
const wrappers: Record<string, (run: string) => string> = {
  'double quotes': (run) => `"${run}"`,
  'single quotes': (run) => `'${run}'`,
  'a JSON string value': (run) => `{"image":"${run}"}`,
  'key=': (run) => `key=${run}`,
  'Bearer ': (run) => `Authorization: Bearer ${run}`,
  'a PEM block': (run) => `-----BEGIN PRIVATE KEY-----\n${run}\n-----END PRIVATE KEY-----`,
  'a URL with user info and a signature': (run) => `https://u:${run}@h.example.com/?sig=${run}`,
  'a vendor prefix': (run) => `sk-${run}`,
  'a Fernet token header': (run) => `gAAAAA${run}`,
};

const receiptOf = (output: string) => createReceipt(shellCallWindow('cat image.json', output));

describe('attack: a multi-megabyte run of one class never overflows a regex', () => {
  it.each(['"', "'"])('redactSecrets on %s + 6M base64 characters + the quote', (quote) => {
    const text = `${quote}${runOf(classes['base64 alphabet']!, 6_000_000)}${quote}`;
    expect(() => redactSecrets(text)).not.toThrow();
  });

  it('redactMessages and createReceipt on a 6M-character base64 image inside JSON output', () => {
    const output = `{"image":"${runOf(classes['base64 alphabet']!, 6_000_000)}"}`;
    const messages: ModelMessage[] = shellCallWindow('cat image.json', output);
    expect(() => redactMessages(messages)).not.toThrow();
    expect(() => receiptOf(output)).not.toThrow();
  });

  // One 8 MB check per class (inside double quotes: the context the most rules read) and per
  // wrapper (around a base64 run); each costs well under a second.
  it.each(Object.entries(classes))('redactSecrets on an 8 MB quoted run of %s', (_name, unit) => {
    clearRedactionMemo();
    expect(() => redactSecrets(`"${runOf(unit, MEGABYTES_8)}"`)).not.toThrow();
  });

  it.each(Object.entries(wrappers))('redactSecrets on an 8 MB run after %s', (_name, wrap) => {
    clearRedactionMemo();
    expect(() => redactSecrets(wrap(runOf(classes.letters!, MEGABYTES_8)))).not.toThrow();
  });

  // A value of nothing but dots is read as an ellipsis (a placeholder check): its own regex.
  it.each(['Bearer ', 'a URL with user info and a signature'])(
    'redactSecrets on an 8 MB run of dots after %s',
    (name) => {
      clearRedactionMemo();
      expect(() => redactSecrets(wrappers[name]!(runOf('.', MEGABYTES_8)))).not.toThrow();
    },
  );

  it.each(['base64 alphabet', 'lower hex', 'dashes', 'one letter'])(
    'createReceipt and extractHandoffFacts on 8 MB of %s in a JSON string',
    (name) => {
      const output = `{"data":"${runOf(classes[name]!, MEGABYTES_8)}"}`;
      expect(() => receiptOf(output)).not.toThrow();
      expect(() => extractHandoffFacts(shellCallWindow('cat data.json', output))).not.toThrow();
    },
  );
});

describe('attack: redaction of one long run stays linear', () => {
  const shapes: [string, (length: number) => string][] = [
    ...Object.entries(classes).map(
      ([name, unit]) =>
        [`a quoted run of ${name}`, (length: number) => `"${runOf(unit, length)}"`] as [
          string,
          (length: number) => string,
        ],
    ),
    ...Object.entries(wrappers).map(
      ([name, wrap]) =>
        [
          `a base64 run after ${name}`,
          (length: number) => wrap(runOf(classes['base64 alphabet']!, length)),
        ] as [string, (length: number) => string],
    ),
  ];
  it.each(shapes)('%s (250k vs 1M characters)', (_name, build) => {
    redactionCpuMs(build(50_000));
    const small = redactionCpuMs(build(250_000));
    const large = redactionCpuMs(build(1_000_000));
    expect(large, `${small} ms at 250k, ${large} ms at 1M`).toBeLessThan(Math.max(600, small * 8));
  });
});

/**
 * Every rule rewritten from `X{n,}` to `X{n}X*` reads back to its old form; the pair must find the
 * same matches on any text. The texts are runs of rule alphabets of 0–150 characters around the
 * 40-character threshold of the quoted-run rule, with quotes, `=` and the rules' literal prefixes.
 */
const rewritten = /(\[(?:\\.|[^\]\\\n[])*\]|\\[dDwWsS]|[x_#X])\{(\d+)\}\1\*/g;
const rules = [...vendorRules, ...contextRules].filter((rule) => {
  rewritten.lastIndex = 0;
  return rewritten.test(rule.pattern.source);
});
const oldForm = (pattern: RegExp) =>
  new RegExp(pattern.source.replace(rewritten, '$1{$2,}'), pattern.flags);

function allMatches(pattern: RegExp, text: string): string[] {
  const found: string[] = [];
  const copy = new RegExp(pattern.source, pattern.flags);
  for (let match = copy.exec(text); match; match = copy.exec(text)) {
    if (match[0].length === 0) copy.lastIndex++;
    found.push(`${match.index}:${match[0].length}:${JSON.stringify(match.groups ?? {})}`);
  }
  return found;
}

const base64Letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-';
const pseudoRandom = (letters: string, length: number, seed: number) => {
  let state = seed;
  let out = '';
  for (let at = 0; at < length; at++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out += letters[(state >>> 8) % letters.length];
  }
  return out;
};
/** A quoted run around the rule's 40-character threshold, its padding and quotes varied. */
const quotedRun = fc
  .tuple(
    characterOf(`"'`),
    fc.noBias(fc.integer({ min: 36, max: 44 })),
    fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 })),
    fc.noBias(fc.integer({ min: 0, max: 3 })),
    characterOf(`"'x`),
  )
  .map(
    ([open, length, seed, padding, close]) =>
      `${open}${pseudoRandom(base64Letters, length, seed)}${'='.repeat(padding)}${close}`,
  );
const piece = fc.oneof(
  quotedRun,
  fc
    .tuple(
      fc.constantFrom('A-Za-z0-9+/_-', '0-9a-f', 'A-Z2-7', 'A-Za-z0-9', 'x_#X'),
      fc.noBias(fc.integer({ min: 0, max: 150 })),
      fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 })),
    )
    .map(([alphabet, length, seed]) => {
      const letters =
        alphabet === 'A-Za-z0-9+/_-'
          ? base64Letters
          : alphabet === '0-9a-f'
            ? '0123456789abcdef'
            : alphabet === 'A-Z2-7'
              ? 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
              : alphabet === 'x_#X'
                ? 'x_#X'
                : 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
      return pseudoRandom(letters, length, seed);
    }),
  characterOf(`"'= \n:.@/?&`),
  fc.constantFrom('==', 'sk-', 'Bearer ', 'key=', 'sig=', 'eyJ', 'ghp_', 'AKIA', 'https://'),
);
const text = fc
  .noBias(fc.array(piece, { minLength: 1, maxLength: 60 }))
  .map((parts) => parts.join(''));

describe('the X{n}X* rewrite finds what X{n,} found', () => {
  it('rewrote the quoted-run rule and dozens of others (premise)', () => {
    expect(rules.some((rule) => rule.kind === 'high-entropy-string')).toBe(true);
    expect(rules.length).toBeGreaterThan(30);
  });

  it('every rewritten rule matches exactly as its old form (1,500 texts)', () => {
    let quotedRuns = 0;
    const quotedRule = rules.find((rule) => rule.kind === 'high-entropy-string')!;
    fc.assert(
      fc.property(text, (sample) => {
        for (const rule of rules) {
          expect(allMatches(rule.pattern, sample), rule.kind).toEqual(
            allMatches(oldForm(rule.pattern), sample),
          );
        }
        if (allMatches(quotedRule.pattern, sample).length > 0) quotedRuns++;
      }),
      { numRuns: 1500 },
    );
    // Premise: the hard case (a quoted run of 40+ characters) is drawn often.
    expect(quotedRuns).toBeGreaterThan(150);
  });

  it('no built-in rule keeps an open-ended count of 4 or more (a later rule would bring it back)', () => {
    const openEnded = /\{(?:[4-9]|[1-9]\d+),\}/;
    const kept = [...vendorRules, ...contextRules]
      .filter((rule) => openEnded.test(rule.pattern.source))
      .map((rule) => rule.kind);
    expect(kept).toEqual([]);
  });

  it('no source file of the package writes an open-ended count of 4 or more in a pattern', () => {
    // The rule lists above are not every pattern: module-level ones (Fernet tokens, hex segments)
    // overflowed the same way on an 8 MB run.
    const openEnded = /\{(?:[4-9]|[1-9]\d+),\}/;
    const folder = fileURLToPath(new URL('.', import.meta.url));
    const found: string[] = [];
    for (const name of readdirSync(folder)) {
      if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
      readFileSync(join(folder, name), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (!/^\s*(?:\/\/|\*)/.test(line) && openEnded.test(line))
            found.push(`${name}:${index + 1}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('control: an off-by-one rewrite (X{n-1}X*) of the quoted-run rule is caught', () => {
    const quotedRule = rules.find((rule) => rule.kind === 'high-entropy-string')!;
    const wrong = new RegExp(
      quotedRule.pattern.source.replace('{40}', '{39}'),
      quotedRule.pattern.flags,
    );
    expect(wrong.source).not.toBe(quotedRule.pattern.source);
    const failure = fc.check(
      fc.property(text, (sample) => {
        expect(allMatches(wrong, sample)).toEqual(allMatches(oldForm(quotedRule.pattern), sample));
      }),
      { numRuns: 1500 },
    );
    expect(failure.failed).toBe(true);
  });
});
