/**
 * End-to-end `baton compact` on the dev transcripts (the built binary, one process per run), start-up
 * cost, and reader throughput against a bare `JSON.parse`. Writes bench-results/results.md.
 * Run: pnpm build && pnpm bench
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDir } from '@baton/test-corpus';
import { parseTranscript, toOpenAIChat } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'dist', 'bin.js');
const corpus = corpusDir();
if (!corpus) {
  console.error('corpus not found: the cli bench needs ../shared/corpus');
  process.exit(1);
}
const folder = join(corpus, 'transcripts', 'dev');
const files = readdirSync(folder)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => join(folder, file));
const texts = files.map((file) => readFileSync(file, 'utf8'));
const totalBytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const format = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function time(run: () => void, repeats: number): number {
  const samples: number[] = [];
  for (let index = 0; index < repeats; index++) {
    (globalThis as { gc?: () => void }).gc?.();
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

// --- Inputs in the other two formats, built from the same transcripts -------------------------------
type Message = { role: string; content: unknown };

/** The transcript as Claude Code would have logged it: one line per assistant block, sharing message.id. */
function toClaudeCodeJsonl(messages: Message[], session: number): string {
  const lines: string[] = [];
  let line = 0;
  const base = { sessionId: `bench-${session}`, isSidechain: false, version: '2.0.0' };
  messages.forEach((message, index) => {
    if (message.role === 'system') return;
    const parts =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : (message.content as Array<Record<string, unknown>>);
    if (message.role === 'assistant') {
      for (const part of parts) {
        const block =
          part.type === 'tool-call'
            ? { type: 'tool_use', id: part.toolCallId, name: part.toolName, input: part.input }
            : part.type === 'reasoning'
              ? { type: 'thinking', thinking: part.text, signature: '' }
              : { type: 'text', text: part.text };
        lines.push(
          JSON.stringify({
            ...base,
            type: 'assistant',
            uuid: `u${line++}`,
            message: { id: `msg_${index}`, role: 'assistant', content: [block] },
          }),
        );
      }
      return;
    }
    const content =
      message.role === 'tool'
        ? parts.map((part) => ({
            type: 'tool_result',
            tool_use_id: part.toolCallId,
            content: (part.output as { value: unknown }).value,
            is_error: (part.output as { type: string }).type === 'error-text',
          }))
        : message.content;
    lines.push(
      JSON.stringify({
        ...base,
        type: 'user',
        uuid: `u${line++}`,
        message: { role: 'user', content },
      }),
    );
  });
  return `${lines.join('\n')}\n`;
}

const parsed = texts.map((text) => JSON.parse(text) as Message[]);
const openAITexts = parsed.map((messages) => JSON.stringify(toOpenAIChat(messages as never)));
const claudeTexts = parsed.map((messages, index) => toClaudeCodeJsonl(messages, index));
const megabytes = (list: string[]) =>
  list.reduce((sum, text) => sum + Buffer.byteLength(text), 0) / 1e6;

const readerRows: string[][] = [];
for (const [name, list, expected] of [
  ['AI SDK JSON', texts, 'ai-sdk'],
  ['OpenAI chat JSON', openAITexts, 'openai-chat'],
  ['Claude Code JSONL', claudeTexts, 'claude-code'],
] as const) {
  for (const text of list) {
    const { format: detected } = parseTranscript(text);
    if (detected !== expected) throw new Error(`${name}: detected ${detected}`);
  }
  const baseline = time(() => {
    for (const text of list) {
      if (expected !== 'claude-code') {
        JSON.parse(text);
        continue;
      }
      for (const line of text.split('\n')) if (line) JSON.parse(line);
    }
  }, 7);
  const reader = time(() => {
    for (const text of list) parseTranscript(text);
  }, 7);
  const size = megabytes(list);
  readerRows.push([
    name,
    format(size, 2),
    format(size / (reader / 1000), 1),
    format(size / (baseline / 1000), 1),
    `${format(reader / baseline, 2)}x`,
  ]);
}

// --- The binary, end to end ------------------------------------------------------------------------
// Exit 3 is a reported outcome, not a failure: some transcripts cannot fit the target at all.
function runBinary(args: string[], okStatuses = [0]): { ms: number; stdout: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  if (!okStatuses.includes(result.status ?? -1)) {
    throw new Error(`baton ${args[0]} exited ${result.status}: ${result.stderr.slice(0, 500)}`);
  }
  return { ms: performance.now() - started, stdout: result.stdout };
}

const startupRows: string[][] = [];
const startupRuns: Array<[string, string[]]> = [
  ['`baton --version` (process start)', ['--version']],
  [
    '`baton count` one 36 KB transcript',
    ['count', files.find((file) => file.includes('django-11163'))!, '--json'],
  ],
];
for (const [name, args] of startupRuns) {
  const samples = Array.from({ length: 5 }, () => runBinary(args).ms);
  startupRows.push([name, format(median(samples))]);
}

const out = mkdtempSync(join(tmpdir(), 'baton-cli-bench-'));
const compactRows: string[][] = [];
for (const strategy of ['truncate', 'mask', 'receipt', 'auto']) {
  const samples: number[] = [];
  let document: {
    files: Array<{
      report?: { durationMs: number; strategy: string; tokensBefore: number; tokensAfter: number };
    }>;
  } = { files: [] };
  for (let run = 0; run < 3; run++) {
    const result = runBinary(
      [
        'compact',
        ...files,
        '--window',
        '16k',
        '--strategy',
        strategy,
        '--out',
        join(out, strategy),
        '--json',
      ],
      [0, 3],
    );
    samples.push(result.ms);
    document = JSON.parse(result.stdout);
  }
  const reports = document.files.flatMap((file) => (file.report ? [file.report] : []));
  const cannotFit = document.files.length - reports.length;
  const before = reports.reduce((sum, report) => sum + report.tokensBefore, 0);
  const after = reports.reduce((sum, report) => sum + report.tokensAfter, 0);
  const compacted = reports.filter((report) => report.strategy !== 'none');
  compactRows.push([
    strategy,
    format(median(samples)),
    format(median(compacted.map((report) => report.durationMs)), 1),
    format(Math.max(...compacted.map((report) => report.durationMs)), 1),
    `${compacted.length}/${document.files.length}${cannotFit ? ` (${cannotFit} cannot fit)` : ''}`,
    `${format(before)} -> ${format(after)} (-${format((1 - after / before) * 100)}%)`,
  ]);
}

const table = (header: string[], rows: string[][]) =>
  [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');

const markdown = `## @baton/cli

\`baton compact\` on all ${files.length} dev transcripts (${format(totalBytes / 1e6, 1)} MB, one process per run,
\`--window 16k\` so the target is 8,000 tokens, \`--json\`, outputs written), median of 3 runs. "Per file" is the
\`compress\` call alone (\`durationMs\` in the report), over the files that needed compacting.

${table(['strategy', 'whole run (ms)', 'per file, median (ms)', 'per file, max (ms)', 'compacted', 'tokens, all files'], compactRows)}

Fixed costs, median of 5 runs:

${table(['command', 'wall time (ms)'], startupRows)}

Readers (\`parseTranscript\`: detection, validation, conversion to AI SDK messages) against a bare \`JSON.parse\` of the
same text (per line for JSONL), median of 7 passes over the ${files.length} transcripts in each format:

${table(['format', 'MB', 'parseTranscript (MB/s)', 'JSON.parse (MB/s)', 'time vs JSON.parse'], readerRows)}
`;

mkdirSync(join(here, '..', 'bench-results'), { recursive: true });
writeFileSync(join(here, '..', 'bench-results', 'results.md'), markdown);
console.log(markdown);
