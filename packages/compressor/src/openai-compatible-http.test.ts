import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createTokenCounter } from '@baton/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContextCompressor, validateToolPairs } from './index.js';
import { deepFreeze } from './test-utils/deep-freeze.js';
import { assistant, toolTurn, user } from './test-utils/history.js';
import { structuredSummary } from './test-utils/structured-summary.js';

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  max_tokens?: number;
}

const bodies: ChatBody[] = [];
/** Status codes to answer with, in order; 200 once the list is empty. */
const plannedStatuses: number[] = [];
let server: Server;
let baseURL: string;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request)) as ChatBody;
    bodies.push(body);
    const status = plannedStatuses.shift() ?? 200;
    if (status !== 200) {
      response.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' });
      response.end(
        JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit' } }),
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-test',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: structuredSummary() },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const secret = () => 'sk-proj-' + 'T3stOnlyK3y9aZ' + 'x81QmPw4LrV6nB2cD7eF';

function history(): ModelMessage[] {
  const output = (label: string) => `${label}\n${'compiler output line with details\n'.repeat(80)}`;
  return deepFreeze([
    { role: 'system', content: 'You are a coding agent.' },
    user('Make the build pass.'),
    assistant('I will run the build.'),
    ...toolTurn('bash', output('build one')),
    ...toolTurn('read', `OPENAI_API_KEY=${secret()}\n${output('config file')}`),
    ...toolTurn('edit', output('patch')),
    ...toolTurn('bash', output('build two')),
    user('Also run the linter.'),
    assistant('The linter is clean.'),
  ]);
}

describe('summariser over real HTTP (OpenAI-compatible server on 127.0.0.1)', () => {
  const counter = createTokenCounter({ encoding: 'o200k_base' });
  const provider = () => createOpenAICompatible({ name: 'local', baseURL });

  it('sends a redacted, structured request within the input budget', async () => {
    bodies.length = 0;
    const inputBudget = 8_000;
    const compressor = new ContextCompressor({
      counter,
      summarizer: provider().chatModel('summarizer-1'),
      summarizerInputBudget: inputBudget,
      protectLastNTokens: 100,
    });
    const messages = history();
    const target = Math.floor(counter.countMessages(messages) / 3);
    const result = await compressor.compress(messages, {
      targetTokens: target,
      strategy: 'summarize',
    });

    expect(result.strategy).toBe('summarize');
    expect(result.event.summarizerModel).toBe('summarizer-1');
    expect(bodies).toHaveLength(1);
    const body = bodies[0]!;
    const raw = JSON.stringify(body);
    expect(raw).not.toContain(secret());
    expect(raw).toContain('[REDACTED');
    expect(body.messages.map((message) => message.role)).toEqual(['system', 'user']);
    const system = body.messages[0]!;
    const request = body.messages[1]!;
    for (const heading of [
      '## Goal',
      '## Completed actions',
      '## Blockers and errors',
      '## Relevant files',
      '## Remaining work',
    ]) {
      expect(system.content).toContain(heading);
    }
    expect(request.content).toMatch(/^<transcript>\n<message index="\d+" role="assistant">/);
    expect(request.content).toContain('</transcript>');
    const sentTokens = counter.count(system.content) + counter.countMessages(body.messages);
    expect(sentTokens).toBeLessThanOrEqual(inputBudget);
    expect(body.max_tokens).toBeGreaterThan(0);
    expect(result.tokensAfter).toBeLessThanOrEqual(target);
    expect(validateToolPairs(result.messages).valid).toBe(true);
  });

  it('retries a 429 and succeeds', async () => {
    bodies.length = 0;
    plannedStatuses.push(429);
    const compressor = new ContextCompressor({
      counter,
      summarizer: provider().chatModel('summarizer-1'),
      protectLastNTokens: 100,
      retryDelayMs: 1,
    });
    const messages = history();
    const target = Math.floor(counter.countMessages(messages) / 3);
    const result = await compressor.compress(messages, {
      targetTokens: target,
      strategy: 'summarize',
    });
    expect(result.strategy).toBe('summarize');
    expect(result.event.summarizerAttempts).toBe(2);
    expect(bodies).toHaveLength(2);
  });
});
