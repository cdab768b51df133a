import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  assertComplete,
  completenessProblems,
  IncompleteResultsError,
  type PlannedRun,
  type Unavailable,
} from './completeness.ts';
import type { Row } from './report.ts';
import type { Score } from './score.ts';

const goodScore: Score = {
  accepted: true,
  problems: [],
  headKept: true,
  latestAskKept: true,
  tokensBefore: 100,
  tokensAfter: 20,
  targetTokens: 25,
  withinBudget: true,
  facts: { files: 1, errors: 0.5, tools: 1, asks: 1 },
  behaviour: 'notice or fallback',
};

function rowsFor(run: PlannedRun): Row[] {
  return run.transcripts.map((transcript) => ({
    peer: `${run.key} (1.0)`,
    key: run.key,
    language: 'Python',
    usesSummarizer: true,
    mode: run.mode,
    ratio: run.ratio,
    transcript,
    cpuMs: [1.5],
    score: structuredClone(goodScore),
  }));
}

const plannedArb = fc
  .uniqueArray(fc.constantFrom('hermes', 'calute', 'praison', 'openhands', 'langchain'), {
    minLength: 1,
  })
  .chain((keys) =>
    fc.tuple(
      fc.constant(keys),
      fc.uniqueArray(fc.stringMatching(/^t[0-9]{1,3}$/), { minLength: 1, maxLength: 6 }),
    ),
  )
  .map(([keys, transcripts]) =>
    keys.flatMap((key) =>
      (['fake', 'failing', 'local'] as const).map((mode) => ({
        key,
        mode,
        ratio: 0.25,
        transcripts,
      })),
    ),
  );

describe('completeness gate', () => {
  test('whole results pass; any removed row, blanked figure or blank reason fails', () => {
    fc.assert(
      fc.property(plannedArb, fc.nat(), fc.nat(), (planned, pickRun, pickRow) => {
        const rows = planned.flatMap(rowsFor);
        expect(completenessProblems({ planned, rows, unavailable: [] })).toEqual([]);

        const drop = pickRow % rows.length;
        const missing = rows.filter((_, index) => index !== drop);
        expect(completenessProblems({ planned, rows: missing, unavailable: [] })).not.toEqual([]);

        const blank = structuredClone(rows);
        blank[drop]!.score.tokensAfter = Number.NaN;
        expect(completenessProblems({ planned, rows: blank, unavailable: [] })).not.toEqual([]);

        const silentError = structuredClone(rows);
        silentError[drop]!.error = '  ';
        expect(completenessProblems({ planned, rows: silentError, unavailable: [] })).not.toEqual(
          [],
        );

        // A run that did not happen is fine only with its reason.
        const run = planned[pickRun % planned.length]!;
        const others = rows.filter((row) => !(row.key === run.key && row.mode === run.mode));
        const reason: Unavailable = {
          key: run.key,
          mode: run.mode,
          name: run.key,
          reason: 'ImportError: x',
        };
        expect(completenessProblems({ planned, rows: others, unavailable: [reason] })).toEqual([]);
        expect(
          completenessProblems({ planned, rows: others, unavailable: [{ ...reason, reason: '' }] }),
        ).not.toEqual([]);
        expect(completenessProblems({ planned, rows: others, unavailable: [] })).toContain(
          `${run.key} (${run.mode}, target 0.25): no rows and no reason`,
        );
      }),
    );
  });

  test('an exception with its text is a result (listed), and the gate throws a named error', () => {
    const planned: PlannedRun[] = [{ key: 'p', mode: 'fake', ratio: 0.25, transcripts: ['a'] }];
    const [row] = rowsFor(planned[0]!);
    const threw = {
      ...row!,
      error: 'ValueError: bad',
      score: { ...goodScore, tokensAfter: Number.NaN },
    };
    expect(() => assertComplete({ planned, rows: [threw], unavailable: [] })).not.toThrow();
    expect(() => assertComplete({ planned, rows: [], unavailable: [] })).toThrow(
      IncompleteResultsError,
    );
    expect(() => assertComplete({ planned, rows: [row!, row!], unavailable: [] })).toThrow(
      /2 rows, expected 1/,
    );
  });
});
