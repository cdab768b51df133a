import { randomBytes } from 'node:crypto';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import {
  createOpenAICompatibleTestServer,
  type OpenAICompatibleTestServer,
  type TestServerReply,
} from '@baton/compressor/test';
import { extractHandoffFacts } from '@baton/fallback';
import { createTokenCounter } from '@baton/tokens';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type EvalWindow,
  evaluateWindow,
  summarizerFailures,
  survivalRows,
  userSummarizerFromEnv,
} from './evaluate-strategies.ts';
import { answerProbes } from './probe-answers.ts';

const counter = createTokenCounter({ model: 'gpt-4o' });
const nonce = () => randomBytes(6).toString('hex');
/** A key of no known vendor shape: only knowing the value can keep it out of the output. */
const plainKey = () => `key${nonce()}${nonce()}`;

function generatedWindow(): EvalWindow {
  const id = nonce();
  const messages: ModelMessage[] = [
    { role: 'user', content: `Fix the parser in src/${id}/parse.ts.` },
  ];
  for (let index = 0; index < 12; index++) {
    const callId = `call-${id}-${index}`;
    const path = `src/${id}/module-${index}.ts`;
    messages.push(
      {
        role: 'assistant',
        content: [
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
            output: { type: 'text', value: `export const v${index} = ${index};\n`.repeat(24) },
          },
        ],
      },
    );
  }
  messages.push({ role: 'user', content: 'Now write the changelog entry.' });
  return { name: `generated-${id}`, messages, tokens: counter.countMessages(messages) };
}

let server: OpenAICompatibleTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The shared loopback model server, answering each request as `answer` says from its key. */
async function serve(answer: (authorization: string) => TestServerReply): Promise<string> {
  server = await createOpenAICompatibleTestServer({
    reply: (_request, _index, headers) => answer(headers.authorization ?? ''),
  });
  return server.baseURL;
}

async function failuresAgainst(baseURL: string, key: string) {
  const user = userSummarizerFromEnv({
    OPENAI_COMPATIBLE_BASE_URL: baseURL,
    OPENAI_API_KEY: key,
    BATON_EVAL_SUMMARIZER_MODEL: `m-${nonce()}`,
  })!;
  const strategy = {
    name: `summarize, verified (user model \`${user.modelId}\`)`,
    strategy: 'summarize' as const,
    summarizer: { model: user.model, name: user.modelId, options: { timeoutMs: 5_000 } },
  };
  const outcomes = await evaluateWindow(generatedWindow(), [strategy], { counter });
  return {
    outcomes,
    printed: [...summarizerFailures(outcomes), ...survivalRows([strategy], outcomes)].join('\n'),
  };
}

describe('pnpm eval against a hostile or broken model server', () => {
  it('a server whose error echoes the API key: the failure is reported, the key never printed', async () => {
    for (let round = 0; round < 3; round++) {
      const key = plainKey();
      const baseURL = await serve((authorization) => ({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({
          error: {
            message: `Incorrect API key provided: ${authorization.replace(/^Bearer /, '')}`,
          },
        }),
      }));
      const { outcomes, printed } = await failuresAgainst(baseURL, key);
      expect(outcomes[0]!.outcome).toBe('call failed');
      expect(printed).toContain('call failed');
      expect(printed).not.toContain(key);
      await server!.close();
      server = undefined;
    }
  });

  it('a 200 whose body is not JSON (and quotes the key): a failed call, never a score, key not printed', async () => {
    const key = plainKey();
    const baseURL = await serve((authorization) => ({
      body: `<html>proxy error for ${authorization}</html>`,
    }));
    const { outcomes, printed } = await failuresAgainst(baseURL, key);
    expect(outcomes[0]!.scores).toBeUndefined();
    expect(outcomes[0]!.failure).toBeDefined();
    expect(printed).not.toContain(key);
  });

  it('a base URL holding credentials: the failure is reported, the password never printed', async () => {
    const password = plainKey();
    const { outcomes, printed } = await failuresAgainst(
      `http://eval:${password}@127.0.0.1:9/v1`,
      plainKey(),
    );
    expect(outcomes[0]!.outcome).toBe('call failed');
    expect(printed).not.toContain(password);
  });

  it('a probe model that never answers: each probe times out and is counted as failed', async () => {
    const baseURL = await serve(() => ({ hang: true }));
    const messages: ModelMessage[] = [
      { role: 'user', content: `Please fix src/${nonce()}/a.ts` },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'c',
            toolName: 'read_file',
            input: { path: 'src/x.ts' },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 'read_file',
            output: { type: 'text', value: 'Error: cannot open src/x.ts' },
          },
        ],
      },
    ];
    const started = performance.now();
    const result = await answerProbes(
      'a compacted context',
      extractHandoffFacts(messages),
      { baseUrl: baseURL, apiKey: plainKey(), model: 'm' },
      { timeoutMs: 300 },
    );
    expect(result.failed.length).toBeGreaterThan(0);
    expect(Object.keys(result.scores)).toEqual([]);
    // Four probes at most, each bounded by its timeout (wide margin for a loaded machine).
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});
