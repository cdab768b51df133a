import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  environmentAssignmentHints,
  findEnvironmentAssignments,
} from './find-environment-assignments.js';
import { keyIsSecret } from './secret-rules.js';
import {
  secretName,
  secretValue,
  syntaxes,
  variant,
} from './test-utils/environment-assignments.js';

// `redactSecrets` runs the `set -gx NAME value` scan only on text holding one of its hints (as
// written), found by the pass that finds every rule's hints. That changes nothing only while every
// match of the scan holds a hint: a command form added to the scan without its hint would be
// skipped everywhere. Texts here mix every syntax with blanks, tabs, line starts, command
// separators and fragments of the hints (`se`, `EN`, `set` glued to a word).
const isSecret = (name: string) => keyIsSecret(name) !== undefined;
const named = secretName(isSecret);
const blank = fc.constantFrom(' ', '\t', '  ', ' \t');
const assignment = fc
  .tuple(fc.constantFrom(...Object.values(syntaxes)), named, secretValue, variant, blank)
  // The syntax's own blanks, some of them tabs.
  .map(([write, name, value, pick, space]) => write(name, value, pick).replaceAll(' ', space));
const glue = fc.constantFrom(
  '\n',
  '; ',
  ' && ',
  ' | ',
  '$ ',
  'RUN ',
  '(',
  '`',
  'then ',
  'reset ',
  'offset',
  'se',
  'EN',
  'Env ',
  'SET ',
  'gh ',
  'secret ',
  'x',
  ' ',
);
const text = fc
  .array(fc.oneof({ weight: 2, arbitrary: assignment }, { weight: 3, arbitrary: glue }), {
    minLength: 1,
    maxLength: 8,
  })
  .map((pieces) => pieces.join(''));
const holdsHint = (value: string) =>
  environmentAssignmentHints.some((hint) => value.includes(hint));

describe('the hints of the environment-assignment scan', () => {
  it('every text the scan finds a value in holds one of its hints as written', () => {
    let found = 0;
    let withoutHint = 0;
    fc.assert(
      fc.property(fc.noBias(text), (value) => {
        const spans = findEnvironmentAssignments(value);
        if (spans.length > 0) {
          found++;
          expect(holdsHint(value)).toBe(true);
        }
        if (!holdsHint(value)) withoutHint++;
      }),
      { numRuns: 400 },
    );
    // Both sides drawn: texts where the scan finds a value, and texts with no hint at all.
    expect(found).toBeGreaterThan(40);
    expect(withoutHint).toBeGreaterThan(10);
  });
});
