/**
 * Peers benchmark: every transcript of ../shared/corpus/transcripts/dev through Baton and the compaction of
 * the systems it replaces, at the same target, with a failing and a fixed fake summariser. TypeScript peers
 * run in this process, interleaved per transcript (rotating order); Python peers run through
 * python/driver.py in their own pinned venvs. Writes results.md (and .cache/results.json with every row).
 * Exits non-zero when a peer's output cannot be parsed, so no silent zero enters the table.
 *
 * Before writing, every planned run must have one row per transcript or a listed reason (completeness.ts).
 *
 * Env: PEERS_TARGETS (ratios of each transcript's tokens, default "0.25"), PEERS_ROUNDS (timed rounds,
 * default 5; Python peers PEERS_PY_ROUNDS, default 1: with the SDKs' own retries a failing summariser costs
 * seconds of wall time per call), PEERS_ONLY (comma-separated substrings of peer names to run), PEERS_LIMIT
 * (first N transcripts), PEERS_LOCAL (transcripts for the local-model runs, evenly spaced over the sorted
 * list, default 4; 0 skips them, listed as not run).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createTokenCounter } from '@baton/tokens';
import { assertComplete, type PlannedRun, type Unavailable } from './src/completeness.ts';
import { extractFacts, type Facts } from './src/facts.ts';
import { type Message, PeerOutputError, parseModelMessages } from './src/messages.ts';
import { aiSdkPeer } from './src/peers/ai-sdk.ts';
import { batonPeers } from './src/peers/baton.ts';
import { typescriptPeers } from './src/peers/index.ts';
import type { Peer } from './src/peers/types.ts';
import { aggregate, type Row, renderResults } from './src/report.ts';
import { type Score, score } from './src/score.ts';
import {
  FAILURE_MARKER,
  FAILURE_MESSAGE,
  FAKE_SUMMARY,
  type SummarizerMode,
} from './src/summarizers.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const corpusDir = join(root, '..', 'shared', 'corpus', 'transcripts', 'dev');
if (!existsSync(corpusDir)) {
  console.log(`bench:peers: skipped, corpus not found at ${corpusDir}`);
  process.exit(0);
}

const ratios = (process.env.PEERS_TARGETS ?? '0.25').split(',').map(Number);
const rounds = Math.max(1, Number(process.env.PEERS_ROUNDS ?? 5));
const pythonRounds = Math.max(1, Number(process.env.PEERS_PY_ROUNDS ?? 1));
const localCount = Math.max(0, Number(process.env.PEERS_LOCAL ?? 4));
const only = process.env.PEERS_ONLY?.split(',').filter(Boolean);
const selected = (name: string) => !only || only.some((part) => name.includes(part));

const counter = createTokenCounter({ encoding: 'o200k_base' });
const files = readdirSync(corpusDir)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .slice(0, Number(process.env.PEERS_LIMIT ?? Number.POSITIVE_INFINITY));
const transcripts = files.map((file) => {
  const messages = parseModelMessages(
    JSON.parse(readFileSync(join(corpusDir, file), 'utf8')),
    `corpus ${file}`,
  );
  return {
    id: file.replace(/\.json$/, ''),
    messages,
    facts: extractFacts(messages) as Facts,
    tokens: counter.countMessages(messages as never),
  };
});
type Transcript = (typeof transcripts)[number];
const localTranscripts = evenlySpaced(transcripts, localCount);
const LOCAL_RULE = `${localTranscripts.length} of the ${transcripts.length} transcripts, evenly spaced over the list sorted by file name (index ⌊i·${transcripts.length}/${localTranscripts.length}⌋: ${localTranscripts.map((t) => t.id).join(', ')})`;

function evenlySpaced<T>(items: readonly T[], count: number): T[] {
  const k = Math.min(count, items.length);
  return Array.from({ length: k }, (_, i) => items[Math.floor((i * items.length) / k)]!);
}

function version(pkg: string): string {
  return JSON.parse(readFileSync(join(here, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

// PEERS_FROM_RESULTS=1 re-renders results.md from the raw rows of the last run without running anything.
const fromResults = process.env.PEERS_FROM_RESULTS === '1';
const others = await typescriptPeers(version);
const tsPeers: Peer[] = [
  ...batonPeers(version('@baton/compressor')),
  aiSdkPeer(version('ai')),
  ...others.peers,
].filter((peer) => selected(peer.name));

const rows: Row[] = [];
const planned: PlannedRun[] = [];
const unavailable: Unavailable[] = [...others.unavailable];
let localNote: string | undefined;
let runDate = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
const processors = cpus();
let machine = `${processors.length} × ${processors[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${platform()} ${arch()}`;

function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function modesOf(usesSummarizer: boolean): SummarizerMode[] {
  return usesSummarizer ? ['fake', 'failing', 'local'] : ['fake'];
}

function itemsOf(mode: SummarizerMode): Transcript[] {
  return mode === 'local' ? localTranscripts : transcripts;
}

// The local real model: a loopback OpenAI-compatible server in its own process (the Python drivers run
// synchronously, so it cannot share this event loop). Without a model it is listed, not silently skipped.
let localServer: ChildProcess | undefined;
let localUrl: string | undefined;
let localUnavailable: string | undefined;
async function startLocal(): Promise<void> {
  if (localCount === 0) {
    localUnavailable = 'not run: PEERS_LOCAL=0';
    return;
  }
  const child = spawn(process.execPath, [join(here, 'local-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  localServer = child;
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(() => ['{"reason":"local server exited before listening"}']),
  ])) as [string];
  const parsed = JSON.parse(line) as { url?: string; reason?: string };
  if (parsed.url === undefined) {
    localUnavailable = `local model cannot run here: ${parsed.reason ?? 'no reason given'} (fetch it: node packages/local-model/scripts/fetch-model.mjs)`;
    localServer = undefined;
    return;
  }
  localUrl = parsed.url;
}

/** Lists the peer's local-model run as unable to run when the local model is not available; true then. */
function listLocalUnavailable(key: string): boolean {
  if (localUnavailable === undefined) return false;
  unavailable.push({ key, mode: 'local', name: `${key} (local model)`, reason: localUnavailable });
  return true;
}

async function stopLocal(): Promise<void> {
  if (localServer === undefined || localUrl === undefined) return;
  const stats = (await (await fetch(`${localUrl}/stats`)).json()) as {
    calls: number;
    failures: number;
    capped: number;
    modelMs: number;
  };
  localServer.kill('SIGTERM');
  await once(localServer, 'exit');
  localNote = `Subset: ${LOCAL_RULE}. Summariser: SmolLM2-135M-Instruct Q4_1 (\`@baton/local-model\`, node-llama-cpp, 1 thread, context 2,048) behind a loopback OpenAI-compatible server (\`bench/peers/local-server.ts\`) that every peer reaches through its own client; each request is flattened to text and capped the same way for every peer: ${process.env.PEERS_LOCAL_PROMPT_CHARS ?? 1200} characters (instructions at most a quarter; the conversation's head third and tail two thirds), reply ≤ ${process.env.PEERS_LOCAL_MAX_TOKENS ?? 48} tokens. 1 round (CPU ms exclude the model, which runs in the server process). Server: ${stats.calls} calls, ${stats.failures} failed, ${stats.capped} capped, ${(stats.modelMs / 1000).toFixed(0)} s in the model (${stats.calls > 0 ? (stats.modelMs / 1000 / Math.max(1, stats.calls - stats.failures)).toFixed(1) : '–'} s per call).`;
}

if (fromResults) {
  const saved = JSON.parse(readFileSync(join(here, '.cache', 'results.json'), 'utf8'));
  rows.push(...saved.rows);
  planned.push(...saved.planned);
  unavailable.splice(0, unavailable.length, ...saved.unavailable);
  localNote = saved.localNote;
  runDate = saved.date;
  machine = saved.machine;
}
const anyLocal =
  !fromResults &&
  (tsPeers.some((peer) => peer.usesSummarizer) ||
    pythonPeerList().some((peer) => peer.usesSummarizer && selected(peer.name)));
if (anyLocal) await startLocal();

try {
  for (const ratio of fromResults ? [] : ratios) {
    for (const mode of ['fake', 'failing', 'local'] as SummarizerMode[]) {
      const peers = tsPeers.filter((peer) => modesOf(peer.usesSummarizer).includes(mode));
      if (peers.length === 0) continue;
      const items = itemsOf(mode);
      for (const peer of peers) {
        planned.push({ key: peer.name, mode, ratio, transcripts: items.map((t) => t.id) });
        if (mode === 'local') listLocalUnavailable(peer.name);
      }
      if (mode === 'local' && localUnavailable !== undefined) continue;
      // The real model is slow and its time is not the peer's: one round.
      const modeRounds = mode === 'local' ? 1 : rounds;
      for (const [index, transcript] of items.entries()) {
        const targetTokens = Math.max(1, Math.floor(transcript.tokens * ratio));
        const cpu = new Map<Peer, number[]>();
        const outcome = new Map<Peer, { output?: Message[]; error?: string }>();
        for (let round = 0; round < modeRounds; round++) {
          // Rotate the order every transcript and round so no peer always runs first (cold) or last.
          const offset = (index + round) % peers.length;
          const order = [...peers.slice(offset), ...peers.slice(0, offset)];
          for (const peer of order) {
            const input = structuredClone(transcript.messages);
            const start = process.cpuUsage();
            let output: Message[] | undefined;
            let error: string | undefined;
            try {
              output = await peer.compact({
                messages: input,
                targetTokens,
                mode,
                summarizerUrl: localUrl,
              });
            } catch (caught) {
              if (caught instanceof PeerOutputError) throw caught;
              error =
                caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught);
            }
            const spent = cpuMs(start);
            if (round === 0) {
              outcome.set(peer, { output, error });
              cpu.set(peer, []);
            }
            cpu.get(peer)!.push(spent);
          }
        }
        for (const peer of peers) {
          const { output, error } = outcome.get(peer)!;
          rows.push({
            peer: peer.name,
            key: peer.name,
            language: 'TypeScript',
            usesSummarizer: peer.usesSummarizer,
            mode,
            ratio,
            transcript: transcript.id,
            error,
            cpuMs: cpu.get(peer)!,
            score: scoreOf(transcript, output, error !== undefined, targetTokens),
          });
        }
      }
      console.log(`bench:peers: TypeScript peers done (target ${ratio}, ${mode} summariser)`);
    }
  }

  // Python peers: one driver process per peer, summariser mode and target, its transcripts on stdin.
  for (const peer of pythonPeerList().filter((p) => !fromResults && selected(p.name))) {
    const venv = join(here, '.cache', `venv-${peer.venv}`);
    for (const ratio of ratios) {
      for (const mode of modesOf(peer.usesSummarizer)) {
        planned.push({ key: peer.name, mode, ratio, transcripts: itemsOf(mode).map((t) => t.id) });
      }
    }
    if (!existsSync(join(venv, '.ok'))) {
      unavailable.push({
        key: peer.name,
        name: peer.name,
        reason: `cannot install: ${installFailure(venv)}`,
      });
      continue;
    }
    for (const ratio of ratios) {
      for (const mode of modesOf(peer.usesSummarizer)) {
        if (mode === 'local' && listLocalUnavailable(peer.name)) continue;
        runPython(peer, venv, ratio, mode);
      }
    }
  }
} finally {
  await stopLocal();
}

function pythonPeerList(): { name: string; venv: string; usesSummarizer: boolean }[] {
  return JSON.parse(readFileSync(join(here, 'python', 'peers.json'), 'utf8'));
}

function installFailure(venv: string): string {
  const log = join(venv, 'install.log');
  if (!existsSync(log)) return 'venv missing (run bench/peers/setup-python.sh)';
  const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  // pip's last ERROR line names the requirement it could not satisfy; else the log's last line.
  return (
    lines.filter((line) => /ERROR/.test(line)).slice(-1)[0] ??
    lines.slice(-1)[0] ??
    'empty install.log'
  ).slice(0, 400);
}

function runPython(
  peer: { name: string; usesSummarizer: boolean },
  venv: string,
  ratio: number,
  mode: SummarizerMode,
): void {
  const items = itemsOf(mode).map((transcript) => ({
    id: transcript.id,
    messages: transcript.messages,
    targetTokens: Math.max(1, Math.floor(transcript.tokens * ratio)),
  }));
  const child = spawnSync(
    join(venv, 'bin', 'python'),
    [join(here, 'python', 'driver.py'), peer.name],
    {
      input: JSON.stringify({
        mode,
        baseUrl: localUrl,
        items,
        fakeSummary: FAKE_SUMMARY,
        failureMessage: FAILURE_MESSAGE,
        rounds: mode === 'local' ? 1 : pythonRounds,
      }),
      maxBuffer: 1 << 30,
      encoding: 'utf8',
      env: {
        ...process.env,
        PYTHONHASHSEED: '0',
        NO_PROXY: '*',
        OPENAI_API_KEY: 'sk-offline-peers-bench',
      },
      timeout: (mode === 'local' ? 60 : 20) * 60_000,
    },
  );
  if (child.status === 3) {
    // The driver could import or construct nothing: the peer cannot run here; its reason is on stdout.
    const reason = JSON.parse(child.stdout).reason as string;
    unavailable.push({ key: peer.name, mode, name: `${peer.name} (${mode})`, reason });
    return;
  }
  if (child.status !== 0) {
    throw new PeerOutputError(
      peer.name,
      `driver exited ${child.status ?? child.signal}: ${child.stderr.slice(-2000)}`,
    );
  }
  let parsed: {
    version: string;
    results: { id: string; messages?: unknown; error?: string; cpuMs: number[] }[];
  };
  try {
    parsed = JSON.parse(child.stdout);
  } catch {
    throw new PeerOutputError(
      peer.name,
      `driver stdout is not JSON: ${child.stdout.slice(0, 300)}`,
    );
  }
  if (typeof parsed.version !== 'string' || !Array.isArray(parsed.results)) {
    throw new PeerOutputError(peer.name, 'driver output lacks version/results');
  }
  for (const transcript of itemsOf(mode)) {
    const result = parsed.results.find((r) => r.id === transcript.id);
    if (!result || !Array.isArray(result.cpuMs)) {
      throw new PeerOutputError(peer.name, `no result for ${transcript.id}`);
    }
    if (
      result.error !== undefined &&
      (typeof result.error !== 'string' || result.error.trim() === '')
    ) {
      throw new PeerOutputError(peer.name, `${transcript.id}: an error without its text`);
    }
    const output =
      result.error === undefined
        ? parseModelMessages(result.messages, `${peer.name} ${transcript.id}`)
        : undefined;
    const targetTokens = Math.max(1, Math.floor(transcript.tokens * ratio));
    rows.push({
      peer: `${peer.name} (${parsed.version})`,
      key: peer.name,
      language: 'Python',
      usesSummarizer: peer.usesSummarizer,
      mode,
      ratio,
      transcript: transcript.id,
      error: result.error,
      cpuMs: result.cpuMs,
      score: scoreOf(transcript, output, result.error !== undefined, targetTokens),
    });
  }
  console.log(`bench:peers: ${peer.name} done (target ${ratio}, ${mode} summariser)`);
}

function scoreOf(
  transcript: Transcript,
  output: Message[] | undefined,
  threw: boolean,
  targetTokens: number,
): Score {
  return score({
    input: transcript.messages,
    inputFacts: transcript.facts,
    output: threw ? undefined : output,
    threw,
    targetTokens,
    counter,
    failureMarker: FAILURE_MARKER,
    failureMessageLength: FAILURE_MESSAGE.length,
  });
}

// A planned run with neither rows nor a reason, or a row without figures, stops here (non-zero exit).
assertComplete({ planned, rows, unavailable });
if (!fromResults) {
  writeFileSync(
    join(here, '.cache', 'results.json'),
    JSON.stringify({ rows, planned, unavailable, localNote, date: runDate, machine }, null, 1),
  );
}
const markdown = renderResults({
  tables: aggregate(rows),
  unavailable,
  transcripts: transcripts.length,
  ratios,
  rounds,
  pythonRounds,
  node: process.version,
  date: runDate,
  machine,
  localNote,
});
writeFileSync(join(here, 'results.md'), markdown);
console.log(markdown);
