// Overhead of compactionMiddleware's transformParams under the threshold, for a ~200k-token prompt.
// Run with `pnpm bench` (node --expose-gc bench/run.ts) after `pnpm build`.
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { median } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { compactionMiddleware } from '../dist/index.js';
import { backgroundLatencySection } from './background-latency.ts';

type Prompt = Array<Record<string, unknown>>;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

let seed = 12345;
function random(): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}

const vocabulary = [
  'const',
  'return',
  'await',
  'function',
  'import',
  'export',
  'value',
  'result',
  'error',
  'message',
  'handler',
  'request',
  'response',
  'the',
  'and',
  'of',
  'to',
  'in',
  'file',
  'path',
];

/** Code-and-prose-like text; a share of identifiers are fresh so tokenizer caches cannot hold it all. */
function text(words: number): string {
  const parts: string[] = [];
  for (let index = 0; index < words; index++) {
    const roll = random();
    if (roll < 0.25)
      parts.push(
        `${vocabulary[Math.floor(random() * vocabulary.length)]}_${Math.floor(random() * 1e6).toString(36)}`,
      );
    else if (roll < 0.3) parts.push(`${Math.floor(random() * 10_000)};\n  `);
    else parts.push(vocabulary[Math.floor(random() * vocabulary.length)] as string);
  }
  return parts.join(' ');
}

/** An agent transcript in the V4 provider-prompt shape, `turns` turns of about 1k tokens each. */
function buildPrompt(turns: number): Prompt {
  const prompt: Prompt = [{ role: 'system', content: 'You are a careful coding agent.' }];
  for (let turn = 0; turn < turns; turn++) {
    prompt.push({
      role: 'user',
      content: [{ type: 'text', text: `Please look at src/module-${turn}.ts. ${text(30)}` }],
    });
    prompt.push({
      role: 'assistant',
      content: [
        { type: 'text', text: text(40) },
        {
          type: 'tool-call',
          toolCallId: `call-${turn}`,
          toolName: 'readFile',
          input: { path: `src/module-${turn}.ts` },
        },
      ],
    });
    prompt.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `call-${turn}`,
          toolName: 'readFile',
          output: { type: 'text', value: text(500) },
        },
      ],
    });
    prompt.push({ role: 'assistant', content: [{ type: 'text', text: text(60) }] });
  }
  return prompt;
}

/** Fresh message and part objects around the same strings: what the AI SDK hands over on each step. */
function freshCopy(prompt: Prompt): Prompt {
  return prompt.map((message) => ({
    ...message,
    content: Array.isArray(message.content)
      ? (message.content as Array<Record<string, unknown>>).map((part) => ({ ...part }))
      : message.content,
  }));
}

const tools = [
  {
    type: 'function',
    name: 'readFile',
    description: 'Reads a file of the repository',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
];

interface Row {
  scenario: string;
  model: string;
  milliseconds: number;
  runs: number;
}

async function measure(
  label: string,
  model: { provider: string; modelId: string },
  contextWindow: number | undefined,
  runs: number,
  makeParams: () => { prompt: Prompt; tools: typeof tools },
  fresh: boolean,
): Promise<Row> {
  let middleware = compactionMiddleware(contextWindow === undefined ? {} : { contextWindow });
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    if (fresh)
      middleware = compactionMiddleware(contextWindow === undefined ? {} : { contextWindow });
    const params = makeParams();
    gc();
    const started = performance.now();
    const result = await middleware.transformParams?.({
      type: 'generate',
      params: params as never,
      model: model as never,
    });
    times.push(performance.now() - started);
    if (result !== (params as unknown))
      throw new Error(`${label}: expected a passthrough under the threshold`);
  }
  return { scenario: label, model: model.modelId, milliseconds: median(times), runs };
}

const exactModel = { provider: 'openai.chat', modelId: 'gpt-4.1' };
const heuristicModel = { provider: 'local', modelId: 'local-model' };
const turns = 190;
const prompt = buildPrompt(turns);
const rows: Row[] = [];
// First call of the process: loads the WASM encoder and tokenizes everything.
{
  const started = performance.now();
  const result = await compactionMiddleware().transformParams?.({
    type: 'generate',
    params: { prompt, tools } as never,
    model: exactModel as never,
  });
  if (result === undefined) throw new Error('no result');
  rows.push({
    scenario: 'first call in the process (encoder load + cold count)',
    model: exactModel.modelId,
    milliseconds: performance.now() - started,
    runs: 1,
  });
}
const exactTokens = createTokenCounter({ model: 'gpt-4.1' }).countMessages(prompt as never, {
  tools: tools as never,
});
const heuristicTokens = createTokenCounter({ model: 'local-model' }).countMessages(
  prompt as never,
  { tools: tools as never },
);
const promptBytes = JSON.stringify(prompt).length;

for (const [model, contextWindow] of [
  [exactModel, undefined],
  [heuristicModel, 1_000_000],
] as const) {
  // Cold: a new middleware (new counter, empty message caches) and a prompt never seen before (the
  // encoder's process-wide cache of short pieces stays warm, as it would in a server).
  rows.push(
    await measure(
      'cold: new middleware, unseen prompt',
      model,
      contextWindow,
      5,
      () => ({ prompt: buildPrompt(turns), tools }),
      true,
    ),
  );
  // Next step of a tool loop: same content, fresh objects (content-keyed memo).
  const base = buildPrompt(turns);
  rows.push(
    await measure(
      'warm by content: same messages, fresh objects (next tool-loop step)',
      model,
      contextWindow,
      20,
      () => ({ prompt: freshCopy(base), tools }),
      false,
    ),
  );
  // Warm: the very same params (identity memo).
  const same = { prompt: base, tools };
  rows.push(
    await measure('warm: same params object', model, contextWindow, 200, () => same, false),
  );
}

// Over the threshold: compaction (receipt, no summariser model) and the steps after it, which splice
// the compacted history onto the new raw messages (a content hash of the covered prefix per step).
{
  const smallWindow = { provider: 'openai.chat', modelId: 'gpt-4o' };
  const compactions: number[] = [];
  const splices: number[] = [];
  for (let run = 0; run < 3; run++) {
    const middleware = compactionMiddleware();
    const history = buildPrompt(turns);
    gc();
    let started = performance.now();
    const compacted = await middleware.transformParams?.({
      type: 'generate',
      params: { prompt: history, tools } as never,
      model: smallWindow as never,
    });
    compactions.push(performance.now() - started);
    if (compacted === undefined || compacted.prompt.length >= history.length)
      throw new Error('expected a compaction');
    for (let step = 0; step < 5; step++) {
      const next = [
        ...freshCopy(history),
        { role: 'assistant', content: [{ type: 'text', text: `step ${step}` }] },
        { role: 'user', content: [{ type: 'text', text: 'continue' }] },
      ];
      gc();
      started = performance.now();
      const spliced = await middleware.transformParams?.({
        type: 'generate',
        params: { prompt: next, tools } as never,
        model: smallWindow as never,
      });
      splices.push(performance.now() - started);
      if (spliced === undefined || spliced.prompt.length >= next.length)
        throw new Error('expected a splice');
    }
  }
  rows.push({
    scenario: 'over the threshold: compaction (mask + receipt, no summariser model)',
    model: smallWindow.modelId,
    milliseconds: median(compactions),
    runs: compactions.length,
  });
  rows.push({
    scenario: 'next steps after a compaction: splice onto the compacted history',
    model: smallWindow.modelId,
    milliseconds: median(splices),
    runs: splices.length,
  });
}

// Peers measured in this run: counting alone (no middleware) and the common chars/4 guess.
const peerTimes: Record<string, number[]> = { count: [], chars: [] };
const peerCounter = createTokenCounter({ model: 'gpt-4.1' });
const peerPrompt = buildPrompt(turns);
peerCounter.countMessages(peerPrompt as never, { tools: tools as never });
for (let run = 0; run < 200; run++) {
  const fresh = freshCopy(peerPrompt);
  gc();
  let started = performance.now();
  peerCounter.countMessages(fresh as never, { tools: tools as never });
  peerTimes.count?.push(performance.now() - started);
  gc();
  started = performance.now();
  Math.ceil(JSON.stringify(fresh).length / 4);
  peerTimes.chars?.push(performance.now() - started);
}
const countOnly = median(peerTimes.count as number[]);
const charsOnly = median(peerTimes.chars as number[]);
const warmByContent =
  rows.find((row) => row.model === 'gpt-4.1' && row.scenario.startsWith('warm by content'))
    ?.milliseconds ?? Number.NaN;
const warmByContentHeuristic =
  rows.find((row) => row.model !== 'gpt-4.1' && row.scenario.startsWith('warm by content'))
    ?.milliseconds ?? Number.NaN;
const warm =
  rows.find((row) => row.model === 'gpt-4.1' && row.scenario.startsWith('warm: same'))
    ?.milliseconds ?? Number.NaN;

const format = (value: number) =>
  value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toFixed(3);
const lines = [
  '## @baton/ai-sdk-middleware',
  '',
  `\`transformParams\` under the threshold (passthrough) for a ${exactTokens.toLocaleString('en-US')}-token prompt (o200k, exact; ${heuristicTokens.toLocaleString('en-US')} by the heuristic), ${prompt.length} messages, ${(promptBytes / 1e6).toFixed(2)} MB of JSON, one tool definition. Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}). Medians.`,
  '',
  '| Scenario | Model (counter) | Median ms | Runs |',
  '| --- | --- | ---: | ---: |',
  ...rows.map(
    (row) =>
      `| ${row.scenario} | ${row.model} (${row.model.startsWith('gpt-') ? 'o200k exact' : 'heuristic'}) | ${format(row.milliseconds)} | ${row.runs} |`,
  ),
  '',
  'Peers in the same run (same prompt, fresh objects as on a tool-loop step):',
  '',
  '| Peer | Median ms | Middleware warm-by-content / peer | Middleware warm / peer |',
  '| --- | ---: | ---: | ---: |',
  `| \`counter.countMessages\` alone (memoised, no middleware) | ${format(countOnly)} | ${(warmByContent / countOnly).toFixed(2)}x | ${(warm / countOnly).toFixed(2)}x |`,
  `| \`JSON.stringify(prompt).length / 4\` (a common guess) | ${format(charsOnly)} | ${(warmByContent / charsOnly).toFixed(2)}x | ${(warm / charsOnly).toFixed(2)}x |`,
  '',
  // The realistic warm case is the next step of a tool loop: same content, fresh objects.
  `Target: under 2 ms warm. Next tool-loop step (same messages as fresh objects): ${format(warmByContent)} ms (o200k) / ${format(warmByContentHeuristic)} ms (heuristic); same params object: ${format(warm)} ms.`,
  '',
];
lines.push(...(await backgroundLatencySection()));
await mkdir(new URL('../bench-results/', import.meta.url), { recursive: true });
await writeFile(new URL('../bench-results/results.md', import.meta.url), lines.join('\n'));
console.log(lines.join('\n'));
