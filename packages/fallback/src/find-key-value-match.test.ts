import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findKeyValueMatch } from './find-key-value-match.js';
import { keyValuePattern } from './secret-rules.js';

// The scan tries the key-value pattern only at key starts a separator follows: from every start
// position it must return what a global exec returns, on text dense in keys, separators, quotes,
// subscripts, backslashes and keys longer than the pattern's 101 characters.
const piece = fc.oneof(
  fc.constantFrom('password', 'api_key', 'TOKEN', '$secret', '@auth', '-p', '--user', 'a.b', 'x1'),
  fc.constantFrom('=', ':', '==', '!==', '!=', ':=', '::=', ':::=', '?=', '=>', '://', '::'),
  fc.constantFrom('"', "'", '`', '"]', "']", '[', ']', ')', '}', ',', ';', '<', '>'),
  fc.constantFrom(' ', '\t', '  ', '\n', '\r\n', '\\', '\\n', '\\"', 'é', 'K'),
  fc.stringMatching(/^[A-Za-z0-9_.$@-]{1,12}$/),
  fc.stringMatching(/^[A-Za-z_$@-][\w.$-]{95,110}$/),
  fc.string({ maxLength: 4 }),
);
// Whole pairs in every form the pattern knows, some broken (a missing value, a glued word).
const pair = fc
  .tuple(
    fc.oneof(fc.stringMatching(/^[A-Za-z_$@-][\w.$-]{0,8}$/), fc.constantFrom('\\key', 'a-b.c$d')),
    fc.constantFrom('', '"', "'", '"]', "']", ']', 'x'),
    fc.constantFrom('', ' ', '\t ', '  '),
    fc.constantFrom('=', ':', '==', '!==', ':=', '::=', '?=', '=>', ' ', '', '://', '::', '!'),
    fc.constantFrom('', ' ', '\t'),
    fc.constantFrom('', '"v a"', "'v'", '`v`', '"open', 'bare', 'f(x)', ';', '\\n', ')x', '\n'),
  )
  .map((parts) => parts.join(''));
const text = fc
  .array(fc.oneof({ weight: 3, arbitrary: piece }, { weight: 2, arbitrary: pair }), {
    maxLength: 12,
  })
  .map((pieces) => pieces.join(''));

const globalExec = (value: string, from: number) => {
  const pattern = new RegExp(keyValuePattern.source, keyValuePattern.flags);
  pattern.lastIndex = from;
  return pattern.exec(value);
};
const summary = (match: RegExpExecArray | null) =>
  match === null ? null : { index: match.index, text: match[0], groups: { ...match.groups } };

describe('findKeyValueMatch', () => {
  it('returns what a global exec of the pattern returns, from every position', () => {
    fc.assert(
      fc.property(fc.noBias(text), (value) => {
        for (let from = 0; from <= value.length; from++) {
          expect(summary(findKeyValueMatch(keyValuePattern, value, from)), `${from}`).toEqual(
            summary(globalExec(value, from)),
          );
        }
      }),
      { numRuns: 600 },
    );
  });

  it('finds pairs at generated positions (the comparison above is not vacuous)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z_][\w.]{0,20}$/),
        fc.constantFrom('=', ': ', ' = "', "']='", ' := '),
        fc.stringMatching(/^[A-Za-z0-9]{1,20}$/),
        fc.string({ maxLength: 10 }),
        (key, separator, value, before) => {
          const line = `${before} ${key}${separator}${value}`;
          const match = findKeyValueMatch(keyValuePattern, line, 0);
          expect(match).not.toBeNull();
          expect(summary(match)).toEqual(summary(globalExec(line, 0)));
        },
      ),
      { numRuns: 500 },
    );
  });
});
