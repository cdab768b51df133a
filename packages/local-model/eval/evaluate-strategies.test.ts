import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import {
  type ChatCompletionRequest,
  createOpenAICompatibleTestServer,
  type OpenAICompatibleTestServer,
  type TestServerReply,
} from '@baton/compressor/test';
import { corpusSkipReason } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusWindows } from '../src/test-utils/corpus-windows.ts';
import {
  type EvalStrategy,
  type EvalWindow,
  evaluateWindow,
  isCompactable,
  summarizerFailures,
  survivalRows,
  userSummarizerFromEnv,
} from './evaluate-strategies.ts';

const here = dirname(fileURLToPath(import.meta.url));
const counter = createTokenCounter({ model: 'gpt-4o' });
const nonce = () => Math.random().toString(36).slice(2, 10);

/** A generated session: asks, file reads with long outputs, an error, all named after a nonce. */
function generatedWindow(): EvalWindow {
  const id = nonce();
  const messages: ModelMessage[] = [
    { role: 'user', content: `Fix the parser in src/${id}/parse.ts.` },
  ];
  for (let index = 0; index < 16; index++) {
    const callId = `call-${id}-${index}`;
    const path = `src/${id}/module-${index}.ts`;
    messages.push(
      {
        role: 'assistant',
        content: [
          { type: 'text', text: `Reading ${path}.` },
          { type: 'tool-call', toolCallId: callId, toolName: 'read_file', input: { path } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: callId,
            toolName: 'read_file',
            output: {
              type: 'text',
              value: `${index === 2 ? `Error: cannot resolve ${id}-token in ${path}\n` : ''}${`export const value${index} = compute(${index});\n`.repeat(20)}`,
            },
          },
        ],
      },
    );
    if (index === 3) messages.push({ role: 'user', content: `Also keep the ${id} tests passing.` });
  }
  messages.push({ role: 'user', content: 'Now write the changelog entry.' });
  return { name: `generated-${id}`, messages, tokens: counter.countMessages(messages) };
}

/**
 * A handoff built from what the request holds (paths and error lines it quotes), so that the reply
 * is about the span; probe questions get a short answer.
 */
function handoffFor(request: ChatCompletionRequest): string {
  const text = request.messages
    .map((message) =>
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    )
    .join('\n');
  const paths = [...new Set(text.match(/[\w./-]+\/[\w.-]+\.[a-z]{1,4}\b/g) ?? [])].slice(0, 2);
  const errors = [...new Set(text.match(/Error: [^\n"\\]{5,80}/g) ?? [])].slice(0, 2);
  return [
    '## Goal',
    `Continue the work on ${paths[0] ?? 'the session'}.`,
    '## Completed actions',
    ...paths.map((path, index) => `${index + 1}. READ ${path} — read it`),
    '## Blockers and errors',
    ...(errors.length > 0 ? errors.map((error) => `- ${error}`) : ['- none']),
    '## Remaining work',
    '- Finish the task.',
  ].join('\n');
}

const strategyFor = (baseURL: string, modelId: string, apiKey?: string): EvalStrategy => {
  const user = userSummarizerFromEnv({
    OPENAI_COMPATIBLE_BASE_URL: baseURL,
    BATON_EVAL_SUMMARIZER_MODEL: modelId,
    ...(apiKey ? { OPENAI_API_KEY: apiKey } : {}),
  })!;
  return {
    name: `summarize, verified (user model \`${user.modelId}\` at ${user.host})`,
    strategy: 'summarize',
    summarizer: { model: user.model, name: user.modelId, options: { timeoutMs: 20_000 } },
  };
};

/** Two generated windows, and two compactable corpus windows when the corpus is here. */
async function windows(): Promise<EvalWindow[]> {
  const list = [generatedWindow(), generatedWindow()];
  expect(await isCompactable(list[0]!, { counter })).toBe(true);
  if (corpusSkipReason !== undefined) return list;
  let corpus = 0;
  for (const window of corpusWindows(Number.POSITIVE_INFINITY, 1_000, counter)) {
    if (corpus === 2) break;
    if (!(await isCompactable(window, { counter }))) continue;
    list.push(window);
    corpus++;
  }
  return list;
}

let server: OpenAICompatibleTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('pnpm eval: a user-supplied OpenAI-compatible model as a summariser strategy', () => {
  it('is undefined without OPENAI_COMPATIBLE_BASE_URL or OPENAI_API_KEY, and names the model and host otherwise', () => {
    expect(userSummarizerFromEnv({})).toBeUndefined();
    const model = `model-${nonce()}`;
    const user = userSummarizerFromEnv({
      OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:9/v1/',
      OPENAI_COMPATIBLE_MODEL: model,
    })!;
    expect(user.modelId).toBe(model);
    expect(user.host).toBe('127.0.0.1:9');
    const openai = userSummarizerFromEnv({ OPENAI_API_KEY: `sk-${nonce()}` })!;
    expect(openai.host).toBe('api.openai.com');
    expect(openai.modelId).toBe('gpt-4o-mini');
  });

  it('compacts each window with the model as summariser, verifies and scores it, and the rows name the model', async () => {
    server = await createOpenAICompatibleTestServer({ reply: (request) => handoffFor(request) });
    const modelId = `eval-model-${nonce()}`;
    const strategy = strategyFor(server.baseURL, modelId);
    const receipt: EvalStrategy = { name: 'receipt', strategy: 'receipt' };
    const list = await windows();
    const outcomes = [];
    for (const window of list) {
      outcomes.push(
        ...(await evaluateWindow(window, [receipt, strategy], {
          counter,
          summaryTargetTokens: 300,
        })),
      );
    }
    const mine = outcomes.filter((outcome) => outcome.strategy === strategy.name);
    expect(mine).toHaveLength(list.length);
    expect(summarizerFailures(outcomes)).toEqual([]);
    // Every window reached the model, which was asked by its id.
    expect(server.requests.length).toBeGreaterThanOrEqual(list.length);
    for (const request of server.requests) expect(request.model).toBe(modelId);
    for (const outcome of mine) {
      expect(outcome.failure).toBeUndefined();
      expect(outcome.outcome).toMatch(/^(summarize|receipt: (empty|garbage|too_long): )/);
      expect(outcome.scores).toBeDefined();
      expect(outcome.replyAloneScores).toBeDefined();
      // Baton's top-up only adds: the verified context keeps at least what the reply alone kept.
      for (const key of ['toolNames', 'weightedPaths', 'errorLines', 'userAsks'] as const) {
        if (outcome.scores![key] !== undefined) {
          expect(outcome.scores![key]!).toBeGreaterThanOrEqual(outcome.replyAloneScores![key]!);
        }
      }
    }
    // The generated windows' replies are about their span: accepted, not the receipt.
    expect(mine.slice(0, 2).map((outcome) => outcome.outcome)).toEqual(['summarize', 'summarize']);
    const rows = survivalRows([receipt, strategy], outcomes);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain(`\`${modelId}\``);
    expect(rows[1]).toMatch(/\d+ %/);
    expect(rows[2]).toContain("reply alone, before Baton's top-up");
    expect(rows.join('\n')).not.toContain('call failed');
  });

  for (const [label, reply] of [
    ['a 500', { status: 500, message: 'upstream exploded' }],
    ['a 401', { status: 401, message: 'bad key' }],
    ['a 429', { status: 429, message: 'slow down' }],
  ] as Array<[string, TestServerReply]>) {
    it(`reports ${label} from the model as a failed call, never as a score (the receipt fallback is not counted under the model)`, async () => {
      server = await createOpenAICompatibleTestServer({ reply });
      const key = `sk-test-${nonce()}${nonce()}`;
      const strategy = strategyFor(server.baseURL, `eval-model-${nonce()}`, key);
      const list = (await windows()).slice(0, 2);
      const outcomes = [];
      for (const window of list) {
        outcomes.push(...(await evaluateWindow(window, [strategy], { counter })));
      }
      expect(server.requests.length).toBe(list.length);
      expect(outcomes.map((outcome) => outcome.outcome)).toEqual(list.map(() => 'call failed'));
      for (const outcome of outcomes) {
        expect(outcome.scores).toBeUndefined();
        expect(outcome.failure).toMatch(/^(error|rate_limited): /);
      }
      const failures = summarizerFailures(outcomes);
      expect(failures).toHaveLength(list.length);
      const rows = survivalRows([strategy], outcomes).join('\n');
      expect(rows).toContain(`call failed ×${list.length}`);
      expect(rows).not.toMatch(/\d+ %/);
      expect(`${rows}\n${failures.join('\n')}`).not.toContain(key);
    });
  }

  it.skipIf(corpusSkipReason !== undefined)(
    '`pnpm eval` exits 1 and says so when the user model fails, and writes the table naming the model when it answers',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'baton-eval-'));
      try {
        const run = (baseURL: string, modelId: string) =>
          new Promise<{ code: number; stderr: string; table: string }>((resolve) => {
            const out = join(folder, `${modelId}.md`);
            execFile(
              process.execPath,
              [join(here, 'run.ts')],
              {
                env: {
                  ...process.env,
                  // No local model here: only the deterministic strategies and the user model run.
                  BATON_CACHE_DIR: folder,
                  OPENAI_COMPATIBLE_BASE_URL: baseURL,
                  OPENAI_API_KEY: '',
                  BATON_EVAL_SUMMARIZER_MODEL: modelId,
                  BATON_EVAL_WINDOWS: '2',
                  BATON_EVAL_OUT: out,
                },
                timeout: 120_000,
              },
              (error, _stdout, stderr) => {
                let table = '';
                try {
                  table = readFileSync(out, 'utf8');
                } catch {
                  // No table written.
                }
                resolve({
                  code: error ? ((error as { code?: number }).code ?? 1) : 0,
                  stderr,
                  table,
                });
              },
            );
          });
        server = await createOpenAICompatibleTestServer({
          reply: (request) =>
            request.messages.some(
              (message) =>
                typeof message.content === 'string' &&
                message.content.startsWith('You answer questions'),
            )
              ? 'unknown'
              : handoffFor(request),
        });
        const good = `eval-model-${nonce()}`;
        const ok = await run(server.baseURL, good);
        expect(ok.stderr).not.toMatch(/summariser calls failed/);
        expect(ok.code).toBe(0);
        expect(ok.table).toContain(`| summarize, verified (user model \`${good}\` at 127.0.0.1:`);
        expect(ok.table).toContain(`User model: \`${good}\``);
        expect(ok.table).toMatch(/\| receipt \| \d+ %/);
        await server.close();

        server = await createOpenAICompatibleTestServer({
          reply: { status: 503, message: 'down' },
        });
        const bad = `eval-model-${nonce()}`;
        const failed = await run(server.baseURL, bad);
        expect(failed.code).toBe(1);
        expect(failed.stderr).toMatch(/eval: 2 summariser calls failed/);
        expect(failed.table).toContain('call failed ×2');
        expect(failed.table).toContain('**2 summariser calls failed** (not scored)');
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
    240_000,
  );
});
