/**
 * Peers benchmark: every transcript of ../shared/corpus/transcripts/dev through Baton and the compaction of
 * the systems it replaces, at the same target, with a failing and a fixed fake summariser. TypeScript peers
 * run in this process, interleaved per transcript (rotating order); Python peers run through
 * python/driver.py in their own pinned venvs. Writes results.md (and .cache/results.json with every row).
 * Exits non-zero when a peer's output cannot be parsed, so no silent zero enters the table.
 *
 * Env: PEERS_TARGETS (ratios of each transcript's tokens, default "0.25"), PEERS_ROUNDS (timed rounds,
 * default 5; Python peers PEERS_PY_ROUNDS, default 1: with the SDKs' own retries a failing summariser costs seconds of wall time per call), PEERS_ONLY (comma-separated substrings of peer names to run), PEERS_LIMIT (first N transcripts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTokenCounter } from '@baton/tokens';
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
const unavailable: { name: string; reason: string }[] = [...others.unavailable];

function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

if (fromResults) {
  const saved = JSON.parse(readFileSync(join(here, '.cache', 'results.json'), 'utf8'));
  rows.push(...saved.rows);
  unavailable.splice(0, unavailable.length, ...saved.unavailable);
}
for (const ratio of fromResults ? [] : ratios) {
  for (const mode of ['fake', 'failing'] as SummarizerMode[]) {
    const peers = tsPeers.filter((peer) => mode === 'fake' || peer.usesSummarizer);
    for (const [index, transcript] of transcripts.entries()) {
      const targetTokens = Math.max(1, Math.floor(transcript.tokens * ratio));
      const cpu = new Map<Peer, number[]>();
      const outcome = new Map<Peer, { output?: Message[]; error?: string }>();
      for (let round = 0; round < rounds; round++) {
        // Rotate the order every transcript and round so no peer always runs first (cold) or last.
        const offset = (index + round) % peers.length;
        const order = [...peers.slice(offset), ...peers.slice(0, offset)];
        for (const peer of order) {
          const input = structuredClone(transcript.messages);
          const start = process.cpuUsage();
          let output: Message[] | undefined;
          let error: string | undefined;
          try {
            output = await peer.compact({ messages: input, targetTokens, mode });
          } catch (caught) {
            if (caught instanceof PeerOutputError) throw caught;
            error = caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught);
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

function scoreOf(
  transcript: (typeof transcripts)[number],
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

// Python peers: one driver process per peer, summariser mode and target, all transcripts on stdin.
const pythonPeers = JSON.parse(readFileSync(join(here, 'python', 'peers.json'), 'utf8')) as {
  name: string;
  venv: string;
  usesSummarizer: boolean;
}[];
for (const peer of pythonPeers.filter((p) => !fromResults && selected(p.name))) {
  const venv = join(here, '.cache', `venv-${peer.venv}`);
  if (!existsSync(join(venv, '.ok'))) {
    const log = join(venv, 'install.log');
    const last = existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => /ERROR/.test(line))
          .slice(-1)[0]
      : 'venv missing (run bench/peers/setup-python.sh)';
    unavailable.push({ name: peer.name, reason: `cannot install: ${last ?? 'see install.log'}` });
    continue;
  }
  for (const ratio of ratios) {
    for (const mode of ['fake', 'failing'] as SummarizerMode[]) {
      if (mode === 'failing' && !peer.usesSummarizer) continue;
      const items = transcripts.map((transcript) => ({
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
            items,
            fakeSummary: FAKE_SUMMARY,
            failureMessage: FAILURE_MESSAGE,
            rounds: pythonRounds,
          }),
          maxBuffer: 1 << 30,
          encoding: 'utf8',
          env: {
            ...process.env,
            PYTHONHASHSEED: '0',
            NO_PROXY: '*',
            OPENAI_API_KEY: 'sk-offline-peers-bench',
          },
          timeout: 20 * 60_000,
        },
      );
      if (child.status === 3) {
        // The driver could import or construct nothing: the peer cannot run here; its reason is on stdout.
        const reason = JSON.parse(child.stdout).reason as string;
        unavailable.push({ name: `${peer.name} (${mode})`, reason });
        continue;
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
      for (const transcript of transcripts) {
        const result = parsed.results.find((r) => r.id === transcript.id);
        if (!result || !Array.isArray(result.cpuMs)) {
          throw new PeerOutputError(peer.name, `no result for ${transcript.id}`);
        }
        const output =
          result.error === undefined
            ? parseModelMessages(result.messages, `${peer.name} ${transcript.id}`)
            : undefined;
        const targetTokens = Math.max(1, Math.floor(transcript.tokens * ratio));
        rows.push({
          peer: `${peer.name} (${parsed.version})`,
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
  }
}

if (!fromResults) {
  writeFileSync(
    join(here, '.cache', 'results.json'),
    JSON.stringify({ rows, unavailable }, null, 1),
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
});
writeFileSync(join(here, 'results.md'), markdown);
console.log(markdown);
