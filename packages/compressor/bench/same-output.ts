/**
 * Speed work must not change what the summariser is sent or what `compress()` returns: this build
 * against a baseline build of the package, on every dev transcript, mixed corpus histories of 50,
 * 500 and 3,000 messages, and generated agent histories of 2,000 and 50,000 messages; two budgets,
 * the summarize, auto and receipt strategies, and three reply kinds (a fixed record, one echoing
 * the transcript, a rejected one that exhausts the retries). Every summariser request and every
 * result (or error) must be deep-equal, timings and timestamps left out.
 * Run: pnpm build && BATON_BENCH_BASELINE=<baseline>/packages/compressor/dist/index.js node bench/same-output.ts
 * `--self-check` runs this build one token below the baseline's budget: every case must differ.
 */
import { isDeepStrictEqual } from 'node:util';
import { loadTranscripts, withToolCallIdSuffix } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import * as current from '../dist/index.js';
import { agentHistory, benchSummary } from './cold-and-large.ts';

const baselinePath = process.env.BATON_BENCH_BASELINE;
if (!baselinePath) {
  console.error('set BATON_BENCH_BASELINE to the dist/index.js of a baseline build');
  process.exit(1);
}
const baseline = (await import(baselinePath)) as typeof current;
const selfCheck = process.argv.includes('--self-check');

type Message = { role: string; content: unknown; [key: string]: unknown };
const counter = createTokenCounter({ encoding: 'o200k_base' });
const recordKey = new Uint8Array(32).fill(7);

/** `value` without the fields that differ from run to run (durations, timestamps, the signal). */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (typeof value !== 'object' || value === null) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (/duration|Ms$|At$|abortSignal/i.test(key)) continue;
    kept[key] = stable(inner);
  }
  return kept;
}

const replies: Record<string, (prompt: string) => string> = {
  fixed: () => benchSummary,
  echo: (prompt) =>
    `## Goal\nContinue.\n## Completed actions\n1. READ ${prompt.slice(200, 400).replace(/\s+/g, ' ')} — ok [tool: read_file]\n## Remaining work\nNone`,
  rejected: () => 'ok',
};

async function outcome(
  build: typeof current,
  messages: Message[],
  options: { targetTokens: number; strategy: string },
  reply: string,
): Promise<{ requests: unknown[]; result: unknown }> {
  const requests: unknown[] = [];
  const compressor = new build.ContextCompressor({
    counter,
    recordKey,
    retryDelayMs: 0,
    summarizer: async (request) => {
      requests.push(stable(JSON.parse(JSON.stringify(request))));
      return replies[reply]!(request.prompt);
    },
  });
  let result: unknown;
  try {
    result = await compressor.compress(messages as never, options as never);
  } catch (error) {
    result = { error: (error as Error).message, result: (error as { result?: unknown }).result };
  }
  return { requests, result: stable(JSON.parse(JSON.stringify(result ?? null))) };
}

const transcripts = loadTranscripts();
const cases: Array<[string, Message[]]> = transcripts.map((t) => [t.name, t.messages]);
const pool = transcripts.flatMap((t, index) => withToolCallIdSuffix(t.messages, `p${index}`));
for (const size of [50, 500, 3_000]) cases.push([`mixed-${size}`, pool.slice(0, size)]);
cases.push(
  ['agent-2k', agentHistory(2_000, 'same-2k')],
  ['agent-50k', agentHistory(50_000, 'same-50k')],
);

let compared = 0;
let different = 0;
let requests = 0;
for (const [name, messages] of cases) {
  const tokens = counter.countMessages(messages as never);
  const large = messages.length >= 10_000;
  for (const fraction of large ? [0.5] : [0.5, 0.25]) {
    for (const strategy of large ? ['summarize'] : ['summarize', 'auto', 'receipt']) {
      const kinds = large
        ? ['fixed', 'echo']
        : strategy === 'receipt'
          ? ['fixed']
          : Object.keys(replies);
      for (const reply of kinds) {
        const options = { targetTokens: Math.max(200, Math.floor(tokens * fraction)), strategy };
        const before = await outcome(baseline, messages, options, reply);
        const after = await outcome(
          current,
          messages,
          selfCheck ? { ...options, targetTokens: options.targetTokens - 1 } : options,
          reply,
        );
        compared++;
        requests += after.requests.length;
        if (!isDeepStrictEqual(before, after)) {
          different++;
          if (!selfCheck) console.log('different:', name, fraction, strategy, reply);
        }
      }
    }
  }
}
console.log(`${compared} cases (${requests} summariser requests), ${different} different`);
process.exit(selfCheck ? (different === compared ? 0 : 1) : different === 0 ? 0 : 1);
