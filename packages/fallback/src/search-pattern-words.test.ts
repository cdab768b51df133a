import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchPatternWords } from './search-pattern-words.js';

// Words of a pattern, of paths and of option values are drawn from disjoint stems, so a word of a
// path that shows up among the search words can only have been read as the pattern.
const stem = (prefix: string) =>
  fc.stringMatching(/^[a-z]{2,6}$/).map((tail) => `${prefix}${tail}`);
const patternWord = stem('pat');
const pathWord = stem('dir');
const valueWord = stem('val');

type Program = 'rg' | 'grep' | 'git grep';
// Options without a value, shared by the programs or their own.
const flags: Record<Program, string[]> = {
  rg: ['-n', '-i', '--vimgrep', '-S', '--hidden', '-uu', '-l', '--no-heading', '-w', '--json'],
  grep: ['-n', '-r', '-i', '-E', '-l', '-w', '-rn', '-RIn', '--line-number', '-3'],
  'git grep': ['-n', '-i', '-E', '-l', '-w', '--untracked', '--cached', '-I'],
};
// Options that take a value, in every spelling the program accepts.
const valued: Record<Program, Array<(value: string) => string[]>> = {
  rg: [
    (v) => ['-g', `*.${v}`],
    (v) => [`--glob=!${v}/**`],
    (v) => ['--glob', `${v}/*`],
    (v) => ['-t', v],
    (v) => ['--type', v],
    (v) => ['-T', v],
    (v) => ['--type-not', v],
    (v) => [`--type=${v}`],
    () => ['-A', '3'],
    () => ['-C2'],
    () => ['-m', '5'],
    () => ['--max-count', '9'],
    () => ['-j', '2'],
    (v) => ['--color', v],
    (v) => ['--iglob', v],
    (v) => ['-nt', v],
  ],
  grep: [
    (v) => [`--include=*.${v}`],
    (v) => ['--include', `*.${v}`],
    (v) => [`--exclude=${v}`],
    (v) => ['--exclude-dir', v],
    () => ['-A', '3'],
    () => ['-B2'],
    () => ['-m', '4'],
    (v) => ['-d', v],
    (v) => ['-D', v],
    (v) => ['--label', v],
    () => ['-nA', '1'],
  ],
  'git grep': [() => ['-A', '3'], () => ['-C', '1'], () => ['-m', '2'], () => ['--max-depth', '2']],
};

interface Call {
  program: Program;
  argv: string[];
  patternWords: string[];
  otherWords: string[];
}

const program = fc.constantFrom<Program>('rg', 'grep', 'git grep');

const call: fc.Arbitrary<Call> = program.chain((name) =>
  fc
    .record({
      options: fc.array(
        fc.oneof(
          fc.constantFrom(...flags[name]).map((flag) => ({ args: [flag], words: [] as string[] })),
          fc
            .tuple(fc.constantFrom(...valued[name]), valueWord)
            .map(([option, value]) => ({ args: option(value), words: [value] })),
        ),
        { maxLength: 5 },
      ),
      patterns: fc.array(fc.array(patternWord, { minLength: 1, maxLength: 3 }), {
        minLength: 1,
        maxLength: 2,
      }),
      // How the pattern is given: as the first operand, by `-e`, `--regexp=`, `--regexp`.
      given: fc.constantFrom('operand', '-e', '--regexp=', '--regexp', '-ie'),
      paths: fc.array(fc.array(pathWord, { minLength: 1, maxLength: 3 }), { maxLength: 3 }),
      // Where the paths and pattern sit among options (grep and rg read options anywhere).
      split: fc.nat({ max: 5 }),
      pattern: fc.constantFrom('plain', 'regex', 'quoted'),
      dashDash: fc.boolean(),
    })
    .map(({ options, patterns, given, paths, split, pattern, dashDash }) => {
      const spelled = patterns.map((words) =>
        pattern === 'plain'
          ? words.join('.*')
          : pattern === 'regex'
            ? `\\b${words.join('\\s+')}\\(`
            : `'${words.join(' ')}'`,
      );
      const pathArgs = paths.map((words) => `${words.join('/')}/`);
      const head = options.slice(0, split).flatMap((option) => option.args);
      const tail = options.slice(split).flatMap((option) => option.args);
      const operand = given === 'operand';
      const patternArgs = operand
        ? [spelled[0]!]
        : spelled.flatMap((text) => (given === '--regexp=' ? [`--regexp=${text}`] : [given, text]));
      // `--` ends options: what follows is operands only, so options go before it.
      const argv = operand
        ? dashDash
          ? [...head, ...tail, '--', ...patternArgs, ...pathArgs]
          : [...head, ...patternArgs, ...tail, ...pathArgs]
        : dashDash
          ? [...head, ...patternArgs, ...tail, '--', ...pathArgs]
          : [...head, ...patternArgs, ...pathArgs, ...tail];
      return {
        program: name,
        argv,
        patternWords: (operand ? patterns.slice(0, 1) : patterns).flat(),
        otherWords: [...paths.flat(), ...options.flatMap((option) => option.words)],
      };
    }),
);

type Reader = (toolName: string, target: string) => string[] | 'all' | undefined;

/** The property: a pattern's words are search words, no path's or option value's word is. */
function readsOnlyThePattern(read: Reader, { program, argv, patternWords, otherWords }: Call) {
  const words = read('bash', `${program} ${argv.join(' ')} && go build ./...`);
  expect(Array.isArray(words)).toBe(true);
  for (const word of patternWords) expect(words).toContain(word);
  for (const word of otherWords) expect(words).not.toContain(word);
}

/** The reading before: every argument that is no option was taken as words of the pattern. */
const everyArgument: Reader = (_tool, target) => {
  const match = /(?:rg|grep|git\s+grep)\s+([^\n;&|]{0,400})/.exec(target);
  if (!match) return undefined;
  const words = match[1]!
    .split(/\s+/)
    .filter((token) => token !== '' && !token.startsWith('-'))
    .flatMap((token) => token.replace(/\\./g, ' ').split(/[^\p{L}\p{N}_]+/u))
    .filter((run) => run.length >= 3)
    .map((run) => run.toLowerCase());
  return words.length > 0 ? words : undefined;
};

describe('searchPatternWords', () => {
  it('reads the pattern of rg, grep and git grep as they do, never a path or option value', () => {
    let withPaths = 0;
    let withValues = 0;
    let byOption = 0;
    fc.assert(
      fc.property(call, (drawnCall) => {
        if (drawnCall.argv.some((arg) => arg.startsWith('dir'))) withPaths++;
        if (drawnCall.otherWords.some((word) => word.startsWith('val'))) withValues++;
        if (!drawnCall.argv.includes(drawnCall.patternWords[0]!)) byOption++;
        readsOnlyThePattern(searchPatternWords, drawnCall);
      }),
      { numRuns: 500 },
    );
    // Premise: the hard cases are drawn often (paths after the pattern, valued options, `-e`).
    expect(withPaths).toBeGreaterThan(200);
    expect(withValues).toBeGreaterThan(150);
    expect(byOption).toBeGreaterThan(150);
  });

  it('control: reading every argument as the pattern fails the property', () => {
    const details = fc.check(
      fc.property(call, (drawnCall) => readsOnlyThePattern(everyArgument, drawnCall)),
      { numRuns: 500 },
    );
    expect(details.failed).toBe(true);
  });

  it.each([
    ['rg --vimgrep TODO src && go build', ['todo']],
    ['rg -e alpha --regexp=beta src lib', ['alpha', 'beta']],
    ['rg --regexp gamma -- src', ['gamma']],
    ['rg -g "*.tsx" -t rust needle crates', ['needle']],
    ['rg -- --flagname src', ['flagname']],
    ['grep -rn --include=*.py --exclude-dir vendor handler .', ['handler']],
    ['grep -A 3 -m 5 "connect timeout" logs/app.log', ['connect', 'timeout']],
    ['grep -ie mixed lower/', ['mixed']],
    ['git grep -n -C2 useState -- web/src', ['usestate']],
    ['rg "\\bparse_\\w+\\(" src 2>/dev/null', ['parse_']],
    ['bash -lc "rg -n widget pkg"', ['widget']],
    ['ag helper src', ['helper', 'src']],
  ])('reads %s as %j', (command, expected) => {
    expect(searchPatternWords('bash', command)).toEqual(expected);
  });

  // A quoted pattern may open with `<` or `>` (`rg '<Button'`, `grep -rn '</div>'`, `'<<<<<<< HEAD'`):
  // the shell reads a redirection only where `<`/`>` stands unquoted.
  it('reads a quoted pattern that opens like a redirection as the pattern', () => {
    let redirections = 0;
    fc.assert(
      fc.property(
        program,
        fc.constantFrom('<', '</', '>', '<<<<<<< ', '2>', '>>'),
        patternWord,
        fc.constantFrom("'", '"'),
        pathWord,
        fc.boolean(),
        (name, opening, word, quote, path, redirect) => {
          const tail = redirect ? ' 2>/dev/null > out.txt' : '';
          if (redirect) redirections++;
          const command = `${name} -n ${quote}${opening}${word}${quote} ${path}/${tail}`;
          expect(searchPatternWords('bash', command)).toEqual([word]);
        },
      ),
      { numRuns: 200 },
    );
    // Premise: unquoted redirections stand beside the quoted pattern in a share of the calls.
    expect(redirections).toBeGreaterThan(50);
  });

  it.each([
    'rg -f patterns.txt src',
    'grep --file=words lib',
    'grep -rf words.txt lib',
    'rg --files src',
    'make && ls',
  ])('has no words for %s (pattern unknown or no search)', (command) => {
    expect(searchPatternWords('bash', command)).toBeUndefined();
  });

  it('takes every output line as a hit when the tool is a search', () => {
    expect(searchPatternWords('Grep', 'anything')).toBe('all');
  });
});
