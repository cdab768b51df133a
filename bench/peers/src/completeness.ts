/**
 * The last gate before a table is written: every planned run (peer, summariser mode, target) either has one
 * scored row per transcript or is listed as unable to run with a reason; every row carries either figures
 * or the exception that replaced them. Anything else would render as a blank or a zero nobody explained.
 */
import type { Row } from './report.ts';
import type { SummarizerMode } from './summarizers.ts';

/** One run the harness set out to make. `key` is the peer's configuration name (without the version). */
export interface PlannedRun {
  key: string;
  mode: SummarizerMode;
  ratio: number;
  /** Transcript ids the run was given. */
  transcripts: readonly string[];
}

/** A peer (or one of its runs) that could not run here; `key` and `mode` tie it to its planned runs. */
export interface Unavailable {
  key: string;
  /** Absent: every mode of the peer. */
  mode?: SummarizerMode;
  name: string;
  reason: string;
}

export class IncompleteResultsError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(
      `bench:peers: ${problems.length} result problem(s), no table written:\n- ${problems.slice(0, 20).join('\n- ')}`,
    );
    this.name = 'IncompleteResultsError';
    this.problems = problems;
  }
}

const finiteShare = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;

/** Problems with one row: figures that are missing or not numbers, or an exception without its text. */
export function rowProblems(row: Row): string[] {
  const at = `${row.key} ${row.mode} ${row.ratio} ${row.transcript}`;
  const problems: string[] = [];
  if (!Array.isArray(row.cpuMs) || row.cpuMs.length === 0) problems.push(`${at}: no CPU time`);
  else if (!row.cpuMs.every((ms) => typeof ms === 'number' && Number.isFinite(ms) && ms >= 0)) {
    problems.push(`${at}: CPU time not a number`);
  }
  if (row.error !== undefined) {
    if (typeof row.error !== 'string' || row.error.trim() === '') {
      problems.push(`${at}: exception without a reason`);
    }
    return problems;
  }
  const score = row.score;
  if (score === undefined || score === null) return [...problems, `${at}: no score`];
  if (!Number.isFinite(score.tokensAfter) || score.tokensAfter < 0) {
    problems.push(`${at}: tokens after not a number`);
  }
  if (!Number.isFinite(score.targetTokens) || score.targetTokens <= 0) {
    problems.push(`${at}: target not a positive number`);
  }
  for (const kind of ['files', 'errors', 'tools', 'asks'] as const) {
    if (!finiteShare(score.facts?.[kind])) problems.push(`${at}: ${kind} share not in [0, 1]`);
  }
  if (typeof score.behaviour !== 'string') problems.push(`${at}: no failure behaviour`);
  return problems;
}

/** Every problem that would let a blank or unexplained zero into the table; empty when the results are whole. */
export function completenessProblems(args: {
  planned: readonly PlannedRun[];
  rows: readonly Row[];
  unavailable: readonly Unavailable[];
}): string[] {
  const problems: string[] = [];
  for (const item of args.unavailable) {
    if (item.reason.trim() === '')
      problems.push(`${item.name}: listed as unable to run without a reason`);
  }
  for (const run of args.planned) {
    const explained = args.unavailable.some(
      (item) =>
        item.key === run.key &&
        (item.mode === undefined || item.mode === run.mode) &&
        item.reason.trim() !== '',
    );
    const mine = args.rows.filter(
      (row) => row.key === run.key && row.mode === run.mode && row.ratio === run.ratio,
    );
    if (explained) {
      if (mine.length > 0)
        problems.push(`${run.key} (${run.mode}): both rows and a reason not to run`);
      continue;
    }
    if (mine.length === 0) {
      problems.push(`${run.key} (${run.mode}, target ${run.ratio}): no rows and no reason`);
      continue;
    }
    for (const id of run.transcripts) {
      const count = mine.filter((row) => row.transcript === id).length;
      if (count !== 1) problems.push(`${run.key} (${run.mode}) ${id}: ${count} rows, expected 1`);
    }
    for (const row of mine) problems.push(...rowProblems(row));
  }
  return problems;
}

/** Throws `IncompleteResultsError` (the run exits non-zero) when `completenessProblems` finds any. */
export function assertComplete(args: Parameters<typeof completenessProblems>[0]): void {
  const problems = completenessProblems(args);
  if (problems.length > 0) throw new IncompleteResultsError(problems);
}
