/**
 * Speed of redaction and receipts, this build against a baseline build in one process, interleaved
 * rounds. CPU ms (process.cpuUsage) of first calls on never-seen text (memo cleared, text salted
 * per round) and MiB allocated (heap growth with GC off between), min/median/max over rounds.
 * Also checks that both builds return the same output on the same input.
 * Run: pnpm build && BATON_FALLBACK_BASELINE=/path/to/baseline/dist/index.js node --expose-gc bench/speed.ts
 */
import { isDeepStrictEqual } from 'node:util';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { loadTranscripts, median } from '@baton/test-corpus';

interface Build {
  name: string;
  module: typeof import('../dist/index.js');
  clear: () => void;
}

const builds: Build[] = [];
const baseline = process.env.BATON_FALLBACK_BASELINE;
if (baseline) {
  const module = (await import(baseline)) as Build['module'];
  const memo = (await import(baseline.replace(/index\.js$/, 'redact-secrets.js'))) as {
    clearRedactionMemo: () => void;
  };
  builds.push({ name: 'baseline', module, clear: memo.clearRedactionMemo });
}
{
  const module = await import('../dist/index.js');
  const memo = await import('../dist/redact-secrets.js');
  builds.push({ name: 'this build', module, clear: memo.clearRedactionMemo });
}

type Message = { role: string; content: unknown; [key: string]: unknown };

function agentStep(index: number, salt: string): Message {
  if (index % 3 === 0) {
    return {
      role: 'assistant',
      content: [
        { type: 'text', text: `Step ${index}: reading the next file (${salt}).` },
        {
          type: 'tool-call',
          toolCallId: `call-${salt}-${index}`,
          toolName: 'read_file',
          input: { path: `src/area-${index % 97}/file-${index}.ts` },
        },
      ],
    };
  }
  if (index % 3 === 1) {
    const value = Array.from(
      { length: 10 },
      (_, line) => `const value${line}_${index} = compute(${line * index}, '${salt}');`,
    ).join('\n');
    return {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `call-${salt}-${index - 1}`,
          toolName: 'read_file',
          output: { type: 'text', value },
        },
      ],
    };
  }
  return { role: 'user', content: `Continue with item ${index} (${salt}); keep the tests green.` };
}

function agentHistory(size: number, salt: string): Message[] {
  const history: Message[] = [{ role: 'user', content: `Refactor the project (${salt}).` }];
  for (let index = 0; history.length < size; index++) history.push(agentStep(index, salt));
  return history;
}

const protocolFields = new Set(['type', 'role', 'toolCallId', 'toolName', 'mediaType']);
function salted<T>(value: T, salt: string): T {
  if (typeof value === 'string') return (value === '' ? value : `${salt} ${value}`) as T;
  if (Array.isArray(value)) return value.map((item) => salted(item, salt)) as T;
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      copy[key] = protocolFields.has(key) ? inner : salted(inner, salt);
    }
    return copy as T;
  }
  return value;
}

const transcripts = loadTranscripts();
const corpus = transcripts.flatMap((transcript) => transcript.messages) as Message[];
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const cpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

interface Case {
  name: string;
  input: (round: number) => Message[];
  run: (module: Build['module'], messages: ModelMessage[]) => unknown;
}

const cases: Case[] = [
  {
    name: 'redactMessages, 50,000 generated messages',
    input: (round) => agentHistory(50_000, `r${round}`),
    run: (module, messages) => module.redactMessages(messages),
  },
  {
    name: `redactMessages, corpus (${corpus.length} messages)`,
    input: (round) => salted(corpus, `r${round}`),
    run: (module, messages) => module.redactMessages(messages),
  },
  {
    name: 'extractHandoffFacts, 50,000 generated messages',
    input: (round) => agentHistory(50_000, `r${round}`),
    run: (module, messages) => module.extractHandoffFacts(messages),
  },
  {
    name: 'redactMessages then extractHandoffFacts, 50,000 generated',
    input: (round) => agentHistory(50_000, `r${round}`),
    run: (module, messages) =>
      module.extractHandoffFacts(module.redactMessages(messages).messages as ModelMessage[]),
  },
  {
    name: 'redactMessages then extractHandoffFacts, corpus',
    input: (round) => salted(corpus, `r${round}`),
    run: (module, messages) =>
      module.extractHandoffFacts(module.redactMessages(messages).messages as ModelMessage[]),
  },
  {
    name: 'createReceipt, 1,000 generated messages',
    input: (round) => agentHistory(1_000, `r${round}`),
    run: (module, messages) => module.createReceipt(messages),
  },
  {
    name: 'createReceipt, 1,000 corpus messages',
    input: (round) => salted(corpus.slice(0, 1000), `r${round}`),
    run: (module, messages) => module.createReceipt(messages),
  },
];

const rounds = Number(process.env.ROUNDS ?? 5);
const spread = (values: number[]) =>
  `${Math.min(...values).toFixed(0)} / ${median(values).toFixed(0)} / ${Math.max(...values).toFixed(0)}`;
const only = process.env.CASE;
console.log(
  '| case | build | first call CPU ms min/med/max | MiB allocated median | repeat CPU ms median |',
);
console.log('|---|---|---|---|---|');
for (const testCase of cases) {
  if (only && !testCase.name.includes(only)) continue;
  const results = new Map(
    builds.map((build) => [
      build.name,
      { cpu: [] as number[], mib: [] as number[], warm: [] as number[] },
    ]),
  );
  let mismatch = false;
  for (let round = 0; round < rounds; round++) {
    const outputs: unknown[] = [];
    // Alternate which build goes first.
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const build of order) {
      const input = testCase.input(round) as ModelMessage[];
      build.clear();
      gc();
      const heap = process.memoryUsage().heapUsed;
      const start = cpu();
      const output = testCase.run(build.module, input);
      const elapsed = cpu() - start;
      const grown = process.memoryUsage().heapUsed - heap;
      const startWarm = cpu();
      testCase.run(build.module, input);
      const warm = cpu() - startWarm;
      const row = results.get(build.name)!;
      row.cpu.push(elapsed);
      row.mib.push(Math.max(0, grown) / 2 ** 20);
      row.warm.push(warm);
      outputs.push(JSON.parse(JSON.stringify(output)));
    }
    if (outputs.length === 2 && !isDeepStrictEqual(outputs[0], outputs[1])) mismatch = true;
  }
  for (const [name, row] of results) {
    console.log(
      `| ${testCase.name}${mismatch ? ' (OUTPUT DIFFERS)' : ''} | ${name} | ${spread(row.cpu)} | ${median(row.mib).toFixed(1)} | ${median(row.warm).toFixed(0)} |`,
    );
  }
}
