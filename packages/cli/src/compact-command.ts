import { randomBytes } from 'node:crypto';
import { existsSync, fstatSync, statSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { ContextBudgetError, toOpenAIChat } from '@baton/compressor';
import { createTokenCounter, resolveModel } from '@baton/tokens';
import type { CliIo } from './cli-io.js';
import {
  type CompactReport,
  compactTranscript,
  defaultCompactTarget,
} from './compact-transcript.js';
import { EXIT_CODES } from './exit-codes.js';
import { formatNumber } from './format-number.js';
import { loadSummarizer } from './load-summarizer.js';
import { modelWarning, resolveCliModel, shownModel, unknownModelMessage } from './model-warning.js';
import type { CompactSettings } from './parse-cli-arguments.js';
import { printableText } from './printable-text.js';
import { createProgressReporter } from './progress-reporter.js';
import { readTranscript, type Transcript } from './read-transcript.js';
import { safeErrorText } from './safe-error-text.js';
import { shownFileName } from './shown-file-name.js';
import { UsageError } from './usage-error.js';

interface FileOutcome {
  file: string;
  format: Transcript['format'];
  /** Where the result was written (`-` for stdout), or null when nothing was written. */
  output: string | null;
  outputFormat: 'ai-sdk' | 'openai-chat';
  warnings: string[];
  report?: Omit<CompactReport, 'messages'>;
  /**
   * Set when the transcript cannot be compacted to the target at all: the parts that always stay
   * verbatim (system messages or the first exchange, and the latest turn) need more. An expected,
   * reported outcome (exit status 3), not a failure; nothing is written for the file.
   */
  cannotFit?: CannotFit;
  error?: string;
}

/** Why a transcript cannot fit: the compressor's `ContextBudgetError` figures. */
interface CannotFit {
  targetTokens: number;
  /** Tokens the verbatim parts need, overhead and the smallest insert included. */
  requiredTokens: number;
  /** The head kept verbatim (only the system messages when `headDemoted`). */
  headTokens: number;
  headDemoted: boolean;
  /** The latest user ask, the latest assistant reply and trailing calls. */
  protectedTokens: number;
  message: string;
}

/** `baton compact <file...>`. Returns the exit code. */
export async function compactCommand(settings: CompactSettings, io: CliIo): Promise<number> {
  if (settings.strategy === 'summarize' && settings.summarizer === undefined) {
    throw new UsageError({ message: '--strategy summarize needs --summarizer provider:model' });
  }
  const cliModel = resolveCliModel(settings.model);
  if (!cliModel.known && settings.window === undefined) {
    throw new UsageError({ message: unknownModelMessage(cliModel) });
  }
  settings = { ...settings, model: cliModel.id };
  const model = resolveModel(settings.model);
  const window = settings.window ?? model.contextWindow;
  const target = settings.target ?? defaultCompactTarget(window);
  if (target > window) {
    throw new UsageError({ message: `--target (${target}) is larger than the window (${window})` });
  }

  // Settings Baton had to bend: said once on stderr (in `--json` mode, in the document instead).
  const warnings: string[] = [];
  const unknown = modelWarning(cliModel, { windowGiven: settings.window !== undefined });
  if (unknown !== undefined) warnings.push(unknown);
  if (settings.keepLast !== undefined && settings.keepLast > target) {
    warnings.push(
      `--keep-last ${formatNumber(settings.keepLast)} is more than the target (${formatNumber(target)}): the verbatim tail gets only what fits the target after the head`,
    );
  }
  if (!settings.json) {
    for (const warning of warnings) io.stderr.write(`baton: warning: ${warning}\n`);
  }

  // Everything that can be wrong with the input is found before anything is written.
  const transcripts: Transcript[] = [];
  for (const file of settings.files) {
    transcripts.push(
      await readTranscript(file, {
        format: settings.format,
        claudeCode: { history: settings.fullHistory ? 'all' : 'live' },
      }),
    );
  }
  const outputs = outputPaths(settings, transcripts);
  const summarizer =
    settings.summarizer === undefined
      ? undefined
      : await loadSummarizer(settings.summarizer, io.env);

  const counter = createTokenCounter({
    model: settings.model,
    warn: (text) => io.stderr.write(`baton: ${text}\n`),
  });
  const progress = createProgressReporter(io.stderr, transcripts.length, { plain: !settings.json });
  const outcomes: FileOutcome[] = [];
  let failed = false;
  let anyCannotFit = false;
  try {
    for (const [index, transcript] of transcripts.entries()) {
      progress.start(index, shownFileName(transcript.file));
      const outputFormat =
        settings.outputFormat !== 'auto'
          ? settings.outputFormat
          : transcript.format === 'openai-chat'
            ? 'openai-chat'
            : 'ai-sdk';
      const outcome: FileOutcome = {
        file: shownFileName(transcript.file),
        format: transcript.format,
        output: null,
        outputFormat,
        warnings: transcript.warnings,
      };
      outcomes.push(outcome);
      try {
        const { messages, ...report } = await compactTranscript(transcript.messages, {
          model: settings.model,
          window,
          target,
          counter,
          strategy: settings.strategy,
          ...(settings.keepLast === undefined ? {} : { keepLast: settings.keepLast }),
          ...(summarizer === undefined ? {} : { summarizer: summarizer.model }),
        });
        outcome.report = report;
        // A history the provider would reject is not written; the input's own defects are not ours.
        const broken = !report.valid && report.problems.length > report.inputProblems.length;
        if (broken) {
          failed = true;
          outcome.error = `compaction produced an invalid history: ${report.problems[0]?.message ?? 'tool pairs broken'}`;
        }
        const path = outputs[index];
        if (path !== undefined && !broken) {
          const body = outputFormat === 'openai-chat' ? toOpenAIChat(messages) : messages;
          const text = `${JSON.stringify(body, null, 2)}\n`;
          if (path === '-') io.stdout.write(text);
          else await writeAtomically(path, text);
          outcome.output = shownFileName(path);
        }
        progress.done(
          index,
          outcome.file,
          broken
            ? 'FAILED (invalid history)'
            : `${formatNumber(report.tokensBefore)} -> ${formatNumber(report.tokensAfter)} tokens (${report.strategy})`,
        );
      } catch (error) {
        if (ContextBudgetError.isInstance(error)) {
          anyCannotFit = true;
          outcome.cannotFit = cannotFitOf(error);
          progress.done(index, outcome.file, `cannot fit: ${cannotFitText(outcome.cannotFit)}`);
          continue;
        }
        failed = true;
        outcome.error = printableText(
          safeErrorText(error instanceof Error ? error.message : String(error)),
        );
        progress.done(index, outcome.file, `FAILED (${outcome.error})`);
      }
    }
  } finally {
    progress.finish();
    counter.dispose();
  }

  if (settings.json) {
    io.stdout.write(
      `${JSON.stringify({
        model: shownModel(cliModel),
        encoding: counter.encoding,
        window,
        target,
        strategy: settings.strategy,
        summarizer: summarizer?.name ?? null,
        warnings,
        files: outcomes,
        totals: totals(outcomes),
      })}\n`,
    );
  } else {
    // With `--out -` the messages own stdout; the report goes to stderr.
    const stream = settings.out === '-' ? io.stderr : io.stdout;
    stream.write(
      humanReport(outcomes, {
        model: shownModel(cliModel),
        encoding: counter.encoding,
        window,
        target,
      }),
    );
  }
  return failed ? EXIT_CODES.failure : anyCannotFit ? EXIT_CODES.cannotFit : EXIT_CODES.ok;
}

function cannotFitOf(error: ContextBudgetError): CannotFit {
  return {
    targetTokens: error.targetTokens,
    requiredTokens: error.requiredTokens,
    headTokens: error.headTokens,
    headDemoted: error.headDemoted,
    protectedTokens: error.protectedTokens,
    message: printableText(safeErrorText(error.message)),
  };
}

/** One line: what the verbatim parts need against the target, and what to change. */
function cannotFitText(cannotFit: CannotFit): string {
  const turn = `the latest turn (${formatNumber(cannotFit.protectedTokens)})`;
  const parts = !cannotFit.headDemoted
    ? `the head (${formatNumber(cannotFit.headTokens)}) and ${turn} need`
    : cannotFit.headTokens > 0
      ? `the system messages (${formatNumber(cannotFit.headTokens)}) and ${turn} need`
      : `${turn} needs`;
  return `${parts} ${formatNumber(cannotFit.requiredTokens)} tokens with the smallest insert, over the target ${formatNumber(cannotFit.targetTokens)}; nothing written (raise --target or --window)`;
}

/** Output path per transcript (undefined: not written). Throws `UsageError` for a clash. */
function outputPaths(
  settings: CompactSettings,
  transcripts: Transcript[],
): Array<string | undefined> {
  const out = settings.out;
  if (out === undefined) return transcripts.map(() => undefined);
  if (out === '-') {
    if (transcripts.length > 1) {
      throw new UsageError({ message: '--out - takes one input file; give a folder for several' });
    }
    return ['-'];
  }
  const isFolder =
    transcripts.length > 1 || out.endsWith('/') || (existsSync(out) && statSync(out).isDirectory());
  if (!isFolder) {
    refuseInputs([out], transcripts, out);
    return [out];
  }
  if (existsSync(out) && !statSync(out).isDirectory()) {
    throw new UsageError({ message: `--out ${out}: not a folder (several inputs need a folder)` });
  }
  const paths = transcripts.map(({ file }) =>
    join(out, `${file === '-' ? 'stdin' : basename(file, extname(file))}.json`),
  );
  const seen = new Map<string, string>();
  for (const [index, path] of paths.entries()) {
    const file = transcripts[index]!.file;
    const other = seen.get(path);
    if (other !== undefined) {
      throw new UsageError({
        message: `--out ${shownFileName(out)}: ${shownFileName(other)} and ${shownFileName(file)} would both be written to ${shownFileName(path)}`,
      });
    }
    seen.set(path, file);
  }
  refuseInputs(paths, transcripts, out);
  return paths;
}

/**
 * Throws `UsageError` when an output is one of the inputs: the same path, `./` or `..` spellings,
 * a symlinked folder or file, a hard link. Compared by device and inode, which every spelling of a
 * file shares; an output that does not exist yet cannot be an input.
 */
function refuseInputs(
  paths: readonly string[],
  transcripts: readonly Transcript[],
  out: string,
): void {
  const inputs = new Map<string, string>();
  for (const { file } of transcripts) {
    const identity = file === '-' ? stdinIdentity() : fileIdentity(file);
    if (identity !== undefined) inputs.set(identity, file === '-' ? 'on stdin' : file);
  }
  for (const path of paths) {
    const identity = fileIdentity(path);
    const input = identity === undefined ? undefined : inputs.get(identity);
    if (input !== undefined) {
      throw new UsageError({ message: `--out ${out}: would overwrite the input ${input}` });
    }
  }
}

/**
 * Stdin's identity when it is redirected from a regular file (`< s.json`): that file is as much an
 * input as a named one. A pipe, FIFO or terminal cannot be overwritten through a path, so none.
 */
function stdinIdentity(): string | undefined {
  try {
    const info = fstatSync(0);
    return info.isFile() ? `${info.dev}:${info.ino}` : undefined;
  } catch {
    return undefined;
  }
}

function fileIdentity(path: string): string | undefined {
  try {
    const info = statSync(path);
    return `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * Writes through a temporary file in the output's folder, then renames it over the output. The
 * temporary name is random and created exclusively (`wx`: O_CREAT | O_EXCL, which also refuses a
 * symlink planted at that name), readable by the owner only: transcripts hold private text.
 */
async function writeAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

function totals(outcomes: FileOutcome[]) {
  const reports = outcomes.flatMap((outcome) => (outcome.report ? [outcome.report] : []));
  return {
    files: outcomes.length,
    failed: outcomes.filter((outcome) => outcome.error !== undefined).length,
    cannotFit: outcomes.filter((outcome) => outcome.cannotFit !== undefined).length,
    tokensBefore: reports.reduce((sum, report) => sum + report.tokensBefore, 0),
    tokensAfter: reports.reduce((sum, report) => sum + report.tokensAfter, 0),
  };
}

function humanReport(
  outcomes: FileOutcome[],
  context: { model: string; encoding: string; window: number; target: number },
): string {
  const lines = outcomes.length === 1 ? fileBlock(outcomes[0]!) : fileTable(outcomes);
  lines.push(
    `(${context.model}, ${context.encoding}; window ${formatNumber(context.window)}, target ${formatNumber(context.target)})`,
  );
  return `${lines.join('\n')}\n`;
}

/** `-48%` saved; `0%` when nothing (or under half a percent) was saved, never `-0%`. */
export function percentSaved(report: { tokensBefore: number; tokensAfter: number }): string {
  if (report.tokensBefore === 0) return '0%';
  const percent = Math.round(
    ((report.tokensBefore - report.tokensAfter) / report.tokensBefore) * 100,
  );
  return percent === 0 ? '0%' : percent > 0 ? `-${percent}%` : `+${-percent}%`;
}

function problems(count: number): string {
  return `${count} tool-pair problem${count === 1 ? '' : 's'}`;
}

function listProblems(list: readonly { index: number; message: string }[]): string {
  const shown = list
    .slice(0, 3)
    .map((problem) => `#${problem.index} ${problem.message}`)
    .join('; ');
  return list.length > 3 ? `${shown}; …` : shown;
}

/**
 * The validity line: the output's tool pairing, and the input's when the input was already broken
 * (a transcript is accepted with its defects, which are reported as the input's, not the compaction's).
 */
function validity(report: NonNullable<FileOutcome['report']>): string {
  const input = report.inputProblems.length;
  const output = report.problems.length;
  if (report.valid) {
    const repaired =
      input > 0
        ? `; the input had ${problems(input)} (${listProblems(report.inputProblems)}), gone after compaction`
        : '';
    return `ok: every tool call answered and every result paired${repaired}`;
  }
  if (output <= input) {
    return `input not valid: ${problems(input)} in the input (${listProblems(report.inputProblems)}); the output has ${output === input ? `the same ${output}` : output}, none added`;
  }
  return `output not valid: ${problems(output)}, ${output - input} more than the input's ${input} (${listProblems(report.problems)})`;
}

function written(outcome: FileOutcome): string {
  if (outcome.output === null) {
    return outcome.error || outcome.cannotFit ? 'nothing' : 'nothing (no --out)';
  }
  return outcome.output === '-' ? 'stdout' : `${outcome.output} (${outcome.outputFormat})`;
}

/** One file: every figure on its own line. */
function fileBlock(outcome: FileOutcome): string[] {
  const lines = [`${outcome.file} (${outcome.format})`];
  const report = outcome.report;
  if (report) {
    lines.push(
      `  tokens     ${formatNumber(report.tokensBefore)} -> ${formatNumber(report.tokensAfter)} (${percentSaved(report)})${report.overTarget ? '  still over the target' : ''}`,
      `  messages   ${report.messagesBefore} -> ${report.messagesAfter}`,
      `  strategy   ${report.strategy}${report.stages.length > 1 ? ` (stages: ${report.stages.join(' -> ')})` : ''}`,
      `  fallback   ${report.usedFallback ? `yes: ${report.fallbackReason ?? 'no reason given'}` : 'no'}`,
      `  split      head ${report.head}, middle ${report.middle.messages} (${report.middle.removed} removed, ${report.middle.masked} masked), tail ${report.tail}`,
      `  sections   ${report.sections.length > 0 ? report.sections.join('; ') : 'none'}`,
      `  validity   ${validity(report)}`,
    );
  }
  for (const warning of outcome.warnings.slice(0, 5))
    lines.push(`  warning    ${printableText(warning)}`);
  if (outcome.warnings.length > 5) lines.push(`  warning    … ${outcome.warnings.length - 5} more`);
  if (outcome.cannotFit) lines.push(`  cannot fit ${cannotFitText(outcome.cannotFit)}`);
  if (outcome.error) lines.push(`  error      ${outcome.error}`);
  lines.push(`  written    ${written(outcome)}`);
  return lines;
}

/** Several files: one row each, then the totals; `--json` has every detail. */
function fileTable(outcomes: FileOutcome[]): string[] {
  const rows = outcomes.map((outcome) => {
    const report = outcome.report;
    return [
      basename(outcome.file),
      report ? formatNumber(report.tokensBefore) : '-',
      report ? formatNumber(report.tokensAfter) : '-',
      report ? percentSaved(report) : '-',
      report ? report.strategy : outcome.cannotFit ? 'cannot fit' : 'FAILED',
      report ? (report.usedFallback ? 'yes' : 'no') : '-',
      report ? String(report.sections.length) : '-',
      outcome.cannotFit
        ? '-'
        : outcome.error || !report
          ? 'error'
          : report.valid
            ? 'ok'
            : report.problems.length <= report.inputProblems.length
              ? `${problems(report.problems.length)}, all in the input`
              : `${problems(report.problems.length)}, ${report.problems.length - report.inputProblems.length} added`,
    ];
  });
  const header = [
    'file',
    'before',
    'after',
    'saved',
    'strategy',
    'fallback',
    'sections',
    'tool pairs',
  ];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const numeric = new Set([1, 2, 3, 6]);
  const format = (row: string[]) =>
    row
      .map((cell, column) =>
        numeric.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  const lines = [format(header), ...rows.map(format)];
  for (const outcome of outcomes) {
    if (outcome.error) lines.push(`error: ${outcome.file}: ${outcome.error}`);
    if (outcome.cannotFit) {
      lines.push(`cannot fit: ${outcome.file}: ${cannotFitText(outcome.cannotFit)}`);
    }
    const first = outcome.warnings[0];
    if (first !== undefined) {
      const more = outcome.warnings.length > 1 ? ` (+${outcome.warnings.length - 1} more)` : '';
      lines.push(`warning: ${outcome.file}: ${printableText(first)}${more}`);
    }
  }
  const sum = totals(outcomes);
  const out = outcomes.find((outcome) => outcome.output !== null)?.output;
  lines.push(
    `total: ${sum.files} files, ${sum.failed} failed, ${sum.cannotFit > 0 ? `${sum.cannotFit} cannot fit, ` : ''}${formatNumber(sum.tokensBefore)} -> ${formatNumber(sum.tokensAfter)} tokens${out ? `; written to ${dirname(out)}` : '; nothing written (no --out)'}`,
  );
  return lines;
}
