/** Turns per-transcript rows into one markdown table per (target, summariser mode) run. */
import type { Unavailable } from './completeness.ts';
import type { Score } from './score.ts';
import type { SummarizerMode } from './summarizers.ts';

export interface Row {
  /** Row name, with the version that ran. */
  peer: string;
  /** The peer's configuration name without the version (ties the row to its planned run). */
  key: string;
  language: 'TypeScript' | 'Python';
  usesSummarizer: boolean;
  mode: SummarizerMode;
  ratio: number;
  transcript: string;
  error?: string;
  cpuMs: number[];
  score: Score;
}

export interface Table {
  ratio: number;
  mode: SummarizerMode;
  lines: string[];
  errors: string[];
}

const pct = (part: number, whole: number) =>
  whole === 0 ? '–' : `${Math.round((100 * part) / whole)} %`;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

export function aggregate(rows: Row[]): Table[] {
  const tables: Table[] = [];
  const ratios = [...new Set(rows.map((row) => row.ratio))];
  for (const ratio of ratios) {
    for (const mode of ['fake', 'failing', 'local'] as SummarizerMode[]) {
      // Peers without a summariser ran once; they appear in the fake and failing tables with the same
      // figures. The local-model table holds only the summarising peers on its subset of transcripts.
      const here = rows.filter(
        (row) =>
          row.ratio === ratio &&
          (row.mode === mode || (mode !== 'local' && !row.usesSummarizer && row.mode === 'fake')),
      );
      if (here.length === 0) continue;
      const peers = [...new Set(here.map((row) => row.peer))];
      const lines = [
        '| system | lang | runs | exceptions | provider-valid | head kept | latest ask verbatim | within target | tokens after / target (median, max) | files | error lines | tool names | user asks | on summariser failure | CPU ms / compaction (median of per-transcript medians; max) |',
        '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ];
      const errors: string[] = [];
      for (const peer of peers) {
        const mine = here.filter((row) => row.peer === peer);
        const ok = mine.filter((row) => row.error === undefined);
        const ratiosAfter = ok.map((row) => row.score.tokensAfter / row.score.targetTokens);
        const behaviours = new Map<string, number>();
        for (const row of mine) {
          behaviours.set(row.score.behaviour, (behaviours.get(row.score.behaviour) ?? 0) + 1);
        }
        const failure = !mine[0]!.usesSummarizer
          ? 'n/a (no summariser)'
          : mode === 'fake'
            ? '(see failing table)'
            : [...behaviours].map(([name, count]) => `${name} ${count}`).join(', ');
        const perTranscript = mine.map((row) => median(row.cpuMs));
        const facts = (kind: keyof Score['facts']) =>
          ok.length === 0
            ? '–'
            : `${Math.round(100 * mean(ok.map((row) => row.score.facts[kind])))} %`;
        lines.push(
          `| ${peer} | ${mine[0]!.language === 'TypeScript' ? 'TS' : 'Py'} | ${mine.length} | ${mine.length - ok.length} | ${pct(ok.filter((row) => row.score.accepted).length, mine.length)} | ${pct(ok.filter((row) => row.score.headKept).length, mine.length)} | ${pct(ok.filter((row) => row.score.latestAskKept).length, mine.length)} | ${pct(ok.filter((row) => row.score.withinBudget).length, mine.length)} | ${fmt(median(ratiosAfter), 2)}, ${fmt(Math.max(...ratiosAfter), 2)} | ${facts('files')} | ${facts('errors')} | ${facts('tools')} | ${facts('asks')} | ${failure} | ${fmt(median(perTranscript))}; ${fmt(Math.max(...perTranscript))} |`,
        );
        const distinct = new Map<string, string[]>();
        for (const row of mine) {
          if (row.error === undefined) continue;
          // Same failure with different numbers (token counts) is one line.
          const key = row.error.replace(/\b\d+\b/g, 'N').slice(0, 140);
          distinct.set(key, [...(distinct.get(key) ?? []), row.transcript]);
        }
        for (const [error, where] of distinct) {
          errors.push(
            `- ${peer}: \`${error.replace(/`/g, "'").replace(/\s+/g, ' ')}\` (${where.length} transcript(s), e.g. ${where[0]})`,
          );
        }
        const problems = new Map<string, number>();
        for (const row of ok) {
          for (const problem of row.score.problems) {
            const code = problem.split('@')[0]!;
            problems.set(code, (problems.get(code) ?? 0) + 1);
          }
        }
        if (problems.size > 0) {
          errors.push(
            `- ${peer}: provider problems: ${[...problems].map(([code, count]) => `${code} ×${count}`).join(', ')}`,
          );
        }
      }
      tables.push({ ratio, mode, lines, errors });
    }
  }
  return tables;
}

export function renderResults(args: {
  tables: Table[];
  unavailable: readonly Unavailable[];
  transcripts: number;
  /** What the local-model table ran on: the subset rule, caps and the server's call statistics. */
  localNote?: string;
  ratios: number[];
  rounds: number;
  pythonRounds: number;
  node: string;
  /** When and where the run was made. */
  date: string;
  machine: string;
}): string {
  const out: string[] = [
    '## Peers: the same transcripts through the systems Baton replaces',
    '',
    `Reproduce: \`pnpm bench:peers\` (installs the pinned npm peers and Python venvs into \`bench/peers/.cache\` on first run; the local model with \`node packages/local-model/scripts/fetch-model.mjs\`; env \`PEERS_TARGETS\`, \`PEERS_ROUNDS\`, \`PEERS_ONLY\`, \`PEERS_LIMIT\`, \`PEERS_LOCAL\`). Run of ${args.date} on ${args.machine}. ${args.transcripts} transcripts of \`../shared/corpus/transcripts/dev\`; target = ${args.ratios.map((r) => `${r * 100} %`).join(' / ')} of each transcript's o200k tokens; ${args.rounds} timed rounds for TypeScript peers (in this process, interleaved), ${args.pythonRounds} for Python peers (one process per peer and run); Node ${args.node} (a machine shared with other jobs: compare CPU within a table, not across runs).`,
    '',
    "Columns: *provider-valid* = no orphaned tool call or result, no system message after the start, no empty message, user first when the input was; *head kept* = system text and first user message kept; *latest ask verbatim* = the last user message still present word for word; *tokens after* counted with one tokenizer for every system (`@baton/tokens` o200k, on the AI SDK message shape after converting back); *files / error lines / tool names / user asks* = mean share of the input's facts found anywhere in the output (extractor of this harness, `bench/peers/src/facts.ts`, not Baton's); *on summariser failure* = exception, error text as summary, a notice or fallback inserted, silent loss, or unchanged (nothing compacted). Percentages are of all runs (an exception counts as a miss).",
    '',
  ];
  const titles: Record<SummarizerMode, string> = {
    fake: 'fixed fake summariser',
    failing: 'failing summariser',
    local: 'local real model (SmolLM2-135M) as summariser',
  };
  for (const table of args.tables) {
    out.push(
      `### Target ${table.ratio * 100} % of each transcript, ${titles[table.mode]}`,
      '',
      ...(table.mode === 'local' && args.localNote ? [args.localNote, ''] : []),
      ...(table.mode === 'local'
        ? [
            "Here *on summariser failure* tells what the output holds: *notice or fallback* = a message the peer inserted (the model's summary, or the peer's own fallback when it rejected the reply); an HTTP failure of the server would show as the peer's failure behaviour.",
            '',
          ]
        : []),
      ...table.lines,
      '',
    );
    if (table.errors.length > 0)
      out.push('Exceptions and provider problems:', '', ...table.errors, '');
  }
  out.push('### Peers that could not run', '');
  if (args.unavailable.length === 0) out.push('None.');
  for (const item of args.unavailable) out.push(`- ${item.name}: ${item.reason}`);
  out.push('');
  return out.join('\n');
}
