import type { ModelMessage } from '@ai-sdk/provider-utils';
import { cpuMilliseconds } from '@baton/test-corpus';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractHandoffFacts } from './index.js';
import { shellCallWindow } from './test-utils/extraction-cpu.js';

/** A session whose prompt says `prompt` and whose one shell call runs `command`. */
function session(prompt: string, command: string): ModelMessage[] {
  return shellCallWindow(command, 'ok', prompt);
}

const segment = fc.noBias(fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/));
const blank = fc.noBias(fc.constantFrom(' ', '\t', ' \t'));

// Hostile command lines: a `cd` whose spaces never reach `&&`, `;` or the end. Two `\s*` runs
// around an optional quote split n spaces n ways: 40k spaces took 2 s, 100k 13 s.
const commandShape = fc.constantFrom(
  (dir: string, run: string) => `cd /${dir}${run}x`,
  (dir: string, run: string) => `bash -lc 'cd /${dir}${run}x'`,
  (dir: string, run: string) => `cd "/${dir}"${run}x`,
  (dir: string, run: string) => `cd /${dir}${run}'${run}x`,
  (dir: string, run: string) => `sh -c "cd ~/${dir}${run}"${run}x`,
  (dir: string, run: string) => `${run}cd${run}/${dir}${run}x`,
);
// Announcements of a working directory that never name one.
const promptShape = fc.constantFrom(
  (dir: string, run: string) => `Working directory:${run}${dir}`,
  (dir: string, run: string) => `cwd${run.replaceAll(/\s/g, ' is')} ${dir}`,
  (dir: string, run: string) => `working in${run.replaceAll(/\s/g, ' the')} ${dir}`,
  (dir: string, run: string) => `${`workspace_root=${dir} `.repeat(run.length / 8)}`,
  (dir: string, run: string) => `${`<cwd>${dir}`.repeat(run.length / 8)}`,
);

function cpuOf(build: (run: string) => ModelMessage[], unit: string, size: number): number {
  const messages = build(unit.repeat(Math.ceil(size / unit.length)));
  return Math.min(
    cpuMilliseconds(() => extractHandoffFacts(messages)),
    cpuMilliseconds(() => extractHandoffFacts(messages)),
  );
}

describe('working directory of hostile commands and prompts', () => {
  it('stays linear on a `cd` whose spaces lead nowhere (25k vs 100k)', () => {
    fc.assert(
      fc.property(commandShape, segment, blank, (shape, dir, unit) => {
        // Premise: the command opens with `cd` and is far longer than the guarded length.
        expect(shape(dir, unit.repeat(25_000 / unit.length)).trimStart()).toMatch(/^(?:b?a?sh|cd)/);
        const small = cpuOf((run) => session('go', shape(dir, run)), unit, 25_000);
        const large = cpuOf((run) => session('go', shape(dir, run)), unit, 100_000);
        expect(large, `${shape(dir, unit)}: ${small} ms at 25k, ${large} ms at 100k`).toBeLessThan(
          Math.max(400, small * 8),
        );
      }),
      { numRuns: 12 },
    );
  });

  it('stays linear on working-directory announcements that name none (50k vs 200k)', () => {
    fc.assert(
      fc.property(promptShape, segment, blank, (shape, dir, unit) => {
        const small = cpuOf((run) => session(shape(dir, run), 'ls'), unit, 50_000);
        const large = cpuOf((run) => session(shape(dir, run), 'ls'), unit, 200_000);
        expect(large, `${shape(dir, unit)}: ${small} ms at 50k, ${large} ms at 200k`).toBeLessThan(
          Math.max(400, small * 8),
        );
      }),
      { numRuns: 10 },
    );
  });
});
