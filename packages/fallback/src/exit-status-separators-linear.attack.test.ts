import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exitWords } from './exit-status-words.js';
import { createReceipt, extractHandoffFacts } from './index.js';
import { shellCallWindow } from './test-utils/extraction-cpu.js';

/** Least of 3 readings of this thread's CPU milliseconds for `run`: other threads' load is not in it. */
function threadCpu(run: () => void): number {
  let least = Number.POSITIVE_INFINITY;
  for (let reading = 0; reading < 3; reading++) {
    const started = process.threadCpuUsage();
    run();
    const spent = process.threadCpuUsage(started);
    least = Math.min(least, (spent.user + spent.system) / 1000);
  }
  return least;
}

// Words an exit status follows, then blanks and no status: the blanks on either side of the
// optional `:`/`=` were two runs, tried at every split (0.5 s at 10k blanks, 121 s at 160k).
const statusWords = [
  'exit code',
  'Exit status',
  'exited with code',
  'returncode',
  '"exitCode"',
  '<returncode>',
];
const blanks = [' ', '\t', ' \t'];
const tails = ['x', ': x', '=\n1', ''];

function window(words: string, blank: string, tail: string, size: number): ModelMessage[] {
  return shellCallWindow('make test', `${words}${blank.repeat(size / blank.length)}${tail}`);
}

describe('exit status words followed by blanks and no status', () => {
  it('cost linear time through the receipt and the facts (5k vs 20k blanks, 4x input under 8x CPU)', () => {
    for (const words of statusWords) {
      for (const blank of blanks) {
        const tail = tails[(words.length + blank.length) % tails.length]!;
        for (const extract of [
          (messages: ModelMessage[]) => createReceipt(messages),
          (messages: ModelMessage[]) => extractHandoffFacts(messages),
        ]) {
          const small = window(words, blank, tail, 5_000);
          const large = window(words, blank, tail, 20_000);
          const smallCpu = threadCpu(() => extract(small));
          const largeCpu = threadCpu(() => extract(large));
          expect(
            largeCpu,
            `${JSON.stringify(words + blank + tail)}: ${smallCpu} ms at 5k, ${largeCpu} ms at 20k`,
          ).toBeLessThan(Math.max(100, smallCpu * 8));
        }
      }
    }
  });
});

// The form before the fix: two blank runs around an optional separator.
const quadraticWords = String.raw`(?:exit(?:ed)?(?: with)?[ _-]?(?:code|status)|return[ _-]?code|<returncode>|(?<=[[(])exit(?=[ \t]*-?\d+[\])]))["'>]?[ \t]*[:=]?[ \t]*`;

/** Every way the extractor reads an exit status, built on `words`. */
function readers(words: string) {
  return {
    status: new RegExp(`${words}(-?\\d+)`, 'i'),
    nonZero: new RegExp(`${words}-?[1-9]`, 'i'),
    alone: new RegExp(`^.{0,32}${words}-?\\d+.{0,8}$`, 'i'),
    scan: new RegExp(`${words}-?[1-9]|error`, 'gi'),
  };
}

function readings(words: string, line: string) {
  const { status, nonZero, alone, scan } = readers(words);
  const found = (match: RegExpExecArray | null) =>
    match && { index: match.index, text: [...match] };
  return {
    status: found(status.exec(line)),
    nonZero: found(nonZero.exec(line)),
    alone: found(alone.exec(line)),
    scan: [...line.matchAll(scan)].map((match) => [match.index, match[0]]),
  };
}

// Short lines of the pieces an exit status is made of, in any order and number.
const piece = fc.constantFrom(
  'exit code',
  'Exit status',
  'exited with code',
  'exit_code',
  'exitCode',
  'return code',
  '<returncode>',
  '[exit',
  '(exit',
  '"',
  "'",
  '>',
  ' ',
  '  ',
  '\t',
  ':',
  '=',
  '-',
  '0',
  '1',
  '7',
  ']',
  ')',
  'x',
  'error',
);
const pieces = fc
  .noBias(fc.array(piece, { minLength: 1, maxLength: 12 }))
  .map((all) => all.join(''));
const blankRun = fc.noBias(fc.stringMatching(/^[ \t]{0,3}$/));
// Words, a quote, blanks, a separator, blanks, then anything: the shape the two runs split.
const shaped = fc
  .tuple(
    pieces,
    fc.constantFrom(
      'exit code',
      'Exit Status',
      'exited with code',
      'return_code',
      '<returncode>',
      '[exit',
    ),
    fc.constantFrom('', '"', "'", '>'),
    blankRun,
    fc.constantFrom('', ':', '=', '::', '=='),
    blankRun,
    pieces,
  )
  .map((parts) => parts.join(''));
const line = fc.oneof(pieces, shaped);
// The hard case: blanks on both sides of a separator after the words, then a status.
const spaced = /(?:code|status|exit)["'>]?[ \t]+[:=][ \t]+-?\d/i;

describe('the linear exit status words', () => {
  it('read every line as the two-run form did', () => {
    let hard = 0;
    let found = 0;
    fc.assert(
      fc.property(line, (text) => {
        if (spaced.test(text)) hard++;
        if (readers(exitWords).status.test(text)) found++;
        expect(readings(exitWords, text)).toEqual(readings(quadraticWords, text));
      }),
      { numRuns: 3000 },
    );
    // Premise: the lines hold statuses, and blanks around a separator, often.
    expect(found).toBeGreaterThan(300);
    expect(hard).toBeGreaterThan(30);
  });

  it('control: a form that drops the blanks after the separator reads some lines otherwise', () => {
    const dropped = exitWords.replace(String.raw`[ \t]*(?:[:=][ \t]*)?`, String.raw`[ \t]*[:=]?`);
    expect(dropped).not.toBe(exitWords);
    const details = fc.check(
      fc.property(line, (text) => {
        expect(readings(dropped, text)).toEqual(readings(quadraticWords, text));
      }),
      { numRuns: 3000 },
    );
    expect(details.failed).toBe(true);
  });
});
