/**
 * `detect-secrets` (PyPI) beside Baton's `redactSecrets` (@baton/fallback) on the labelled secret fixtures and on
 * the transcripts. Fixtures: recall on `secret` rows, false positives on `not-secret` rows (a row counts as
 * caught when anything in it is flagged; for Baton also whether every labelled span is gone). Transcripts are
 * public agent traces: every finding there is a redaction a user would get; findings inside tool inputs and
 * outputs (code, file contents, command output) are the ones that would alter code. Appends its section to
 * results.md (run after run.ts). Prints counts and types only, never a secret value.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { redactSecrets } from '@baton/fallback';
import { type Message, parseModelMessages } from './src/messages.ts';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = join(here, '..', '..', '..', 'shared', 'corpus');
const fixturesPath = join(corpus, 'secrets', 'dev.jsonl.gz');
if (!existsSync(fixturesPath)) {
  console.log(`bench:peers secrets: skipped, ${fixturesPath} not found`);
  process.exit(0);
}
const rows = gunzipSync(readFileSync(fixturesPath))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { text: string; expect: string; secret_spans?: string[] });

type Piece = { where: 'text' | 'tool input' | 'tool output'; text: string };
function pieces(messages: Message[]): Piece[] {
  const out: Piece[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') {
      out.push({ where: 'text', text: message.content });
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning')
        out.push({ where: 'text', text: part.text });
      else if (part.type === 'tool-call') {
        out.push({
          where: 'tool input',
          text: typeof part.input === 'string' ? part.input : JSON.stringify(part.input),
        });
      } else {
        const value = part.output.value;
        out.push({
          where: 'tool output',
          text: typeof value === 'string' ? value : JSON.stringify(value),
        });
      }
    }
  }
  return out;
}
const dir = join(corpus, 'transcripts', 'dev');
const transcripts = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => ({
    id: name.replace(/\.json$/, ''),
    pieces: pieces(parseModelMessages(JSON.parse(readFileSync(join(dir, name), 'utf8')), name)),
  }));

const cpu = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const fixtureBytes = rows.reduce((sum, row) => sum + Buffer.byteLength(row.text), 0);
const transcriptBytes = transcripts.reduce(
  (sum, t) => sum + t.pieces.reduce((s, p) => s + Buffer.byteLength(p.text), 0),
  0,
);

// Baton: warm once (rule compilation), then time.
redactSecrets('warm up api_key=abc');
let start = cpu();
const baton = rows.map((row) => redactSecrets(row.text));
const batonFixtureMs = cpu() - start;
start = cpu();
const batonTranscripts = transcripts.map((t) =>
  t.pieces.map((piece) => ({ where: piece.where, findings: redactSecrets(piece.text).findings })),
);
const batonTranscriptMs = cpu() - start;

const python = join(here, '.cache', 'venv-detectsecrets', 'bin', 'python');
let detect:
  | {
      version: string;
      fixtures: { flagged: boolean; types: string[] }[];
      transcripts: { id: string; findings: number; types: string[] }[];
      fixtureCpuMs: number;
      transcriptCpuMs: number;
    }
  | undefined;
let detectReason = '';
if (existsSync(python)) {
  const child = spawnSync(python, [join(here, 'python', 'secrets_driver.py')], {
    input: JSON.stringify({
      fixtures: rows.map((row) => row.text),
      transcripts: transcripts.map((t) => ({
        id: t.id,
        text: t.pieces.map((p) => p.text).join('\n'),
      })),
    }),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (child.status !== 0) {
    throw new Error(`detect-secrets driver failed (${child.status}): ${child.stderr.slice(-1500)}`);
  }
  detect = JSON.parse(child.stdout);
  if (
    !detect ||
    detect.fixtures.length !== rows.length ||
    detect.transcripts.length !== transcripts.length
  ) {
    throw new Error('detect-secrets driver output cannot be parsed');
  }
} else detectReason = 'venv missing (bench/peers/setup-python.sh detectsecrets)';

const secretRows = rows.flatMap((row, index) => (row.expect === 'secret' ? [index] : []));
const cleanRows = rows.flatMap((row, index) => (row.expect === 'not-secret' ? [index] : []));
const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;
const batonCaught = secretRows.filter((i) => baton[i]!.findings.length > 0).length;
const spanRows = secretRows.filter((i) => (rows[i]!.secret_spans?.length ?? 0) > 0);
const batonSpans = spanRows.filter((i) =>
  rows[i]!.secret_spans!.every((span) => !baton[i]!.text.includes(span)),
).length;
const batonFalse = cleanRows.filter((i) => baton[i]!.findings.length > 0).length;
const batonByWhere = { text: 0, 'tool input': 0, 'tool output': 0 };
for (const t of batonTranscripts) for (const p of t) batonByWhere[p.where] += p.findings.length;
const mb = (bytes: number) => bytes / 1_000_000;

const lines = [
  '### Secrets: detect-secrets beside Baton redaction',
  '',
  `Reproduce: \`pnpm bench:peers\` (runs \`node bench/peers/secrets.ts\` after the peers). Fixtures: \`../shared/corpus/secrets/dev.jsonl.gz\`, ${rows.length} rows (${secretRows.length} secret, ${cleanRows.length} not-secret; ${(fixtureBytes / 1000).toFixed(0)} kB). Transcripts: ${transcripts.length} files, ${mb(transcriptBytes).toFixed(2)} MB of message text. detect-secrets scans each text as a \`.txt\` file with its default plugins and filters (the way its CLI scans a repository); it reports and does not redact. The fixtures were taken from the test suites of detect-secrets, gitleaks and secretlint, so each tool is partly scored on its own fixtures; Baton's redaction was developed against this dev split (a held-out split exists outside this repository), so its figures here are optimistic.`,
  '',
  '| system | secret rows caught (recall) | labelled spans all removed | not-secret rows flagged (false positives) | transcript findings (text / tool input / tool output) | CPU ms per MB, fixtures | CPU ms per MB, transcripts |',
  '|---|---|---|---|---|---|---|',
  `| Baton redactSecrets (@baton/fallback) | ${pct(batonCaught, secretRows.length)} (${batonCaught}/${secretRows.length}) | ${pct(batonSpans, spanRows.length)} (${batonSpans}/${spanRows.length}) | ${pct(batonFalse, cleanRows.length)} (${batonFalse}/${cleanRows.length}) | ${batonByWhere.text} / ${batonByWhere['tool input']} / ${batonByWhere['tool output']} | ${(batonFixtureMs / mb(fixtureBytes)).toFixed(0)} | ${(batonTranscriptMs / mb(transcriptBytes)).toFixed(0)} |`,
];
if (detect) {
  const caught = secretRows.filter((i) => detect!.fixtures[i]!.flagged).length;
  const falsePositives = cleanRows.filter((i) => detect!.fixtures[i]!.flagged).length;
  const findings = detect.transcripts.reduce((sum, t) => sum + t.findings, 0);
  lines.push(
    `| detect-secrets ${detect.version} | ${pct(caught, secretRows.length)} (${caught}/${secretRows.length}) | n/a (flags lines, does not redact) | ${pct(falsePositives, cleanRows.length)} (${falsePositives}/${cleanRows.length}) | ${findings} (per-file scan; not split by location) | ${(detect.fixtureCpuMs / mb(fixtureBytes)).toFixed(0)} | ${(detect.transcriptCpuMs / mb(transcriptBytes)).toFixed(0)} |`,
  );
  const types = new Map<string, number>();
  for (const t of detect.transcripts)
    for (const type of t.types) types.set(type, (types.get(type) ?? 0) + 1);
  lines.push(
    '',
    `detect-secrets finding types on the transcripts (files with at least one): ${[...types].map(([type, n]) => `${type} ${n}`).join(', ') || 'none'}.`,
  );
} else lines.push(`| detect-secrets | could not run: ${detectReason} | | | | | |`);
const kinds = new Map<string, number>();
for (const t of batonTranscripts) {
  for (const p of t) for (const f of p.findings) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
}
lines.push(
  '',
  `Baton finding kinds on the transcripts: ${[...kinds].map(([kind, n]) => `${kind} ${n}`).join(', ') || 'none'}.`,
  '',
);
const section = lines.join('\n');
const resultsPath = join(here, 'results.md');
const previous = existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '';
const cut = previous.indexOf('### Secrets: detect-secrets beside Baton redaction');
writeFileSync(
  resultsPath,
  `${(cut >= 0 ? previous.slice(0, cut) : previous).trimEnd()}\n\n${section}`,
);
console.log(section);
