import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createTokenCounter } from '@baton/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContextCompressor, validateToolPairs } from './index.js';
import {
  type ChatCompletionRequest,
  createOpenAICompatibleTestServer,
  type OpenAICompatibleTestServer,
} from './test/index.js';
import { deepFreeze } from './test-utils/deep-freeze.js';
import { assistant, toolTurn, user } from './test-utils/history.js';
import { structuredSummary } from './test-utils/structured-summary.js';

/** Status codes to answer with, in order; the summary once the list is empty. */
const plannedStatuses: number[] = [];
let server: OpenAICompatibleTestServer;
let bodies: ChatCompletionRequest[];

beforeAll(async () => {
  server = await createOpenAICompatibleTestServer({
    reply: () => {
      const status = plannedStatuses.shift();
      return status === undefined ? structuredSummary() : { status, message: 'Rate limit reached' };
    },
  });
  bodies = server.requests;
});

afterAll(() => server.close());

const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const pseudoRandom = (length: number, seed: number) =>
  Array.from({ length }, (_, index) => letters[(index * 11 + seed * 17 + index * index) % 62]).join(
    '',
  );
/** Fake secrets of several kinds, built at run time. */
const secrets = {
  openaiKey: () => 'sk-proj-' + 'T3stOnlyK3y9aZ' + 'x81QmPw4LrV6nB2cD7eF',
  githubToken: () => 'ghp_' + pseudoRandom(36, 1),
  bearer: () => 'eyJhbGciOiJIUzI1NiJ9.' + pseudoRandom(40, 2) + '.' + pseudoRandom(43, 3),
  databasePassword: () => pseudoRandom(18, 4),
};

function history(): ModelMessage[] {
  const output = (label: string) => `${label}\n${'compiler output line with details\n'.repeat(80)}`;
  return deepFreeze([
    { role: 'system', content: 'You are a coding agent.' },
    user('Make the build pass.'),
    assistant('I will run the build.'),
    ...toolTurn('bash', output('build one')),
    // A KEY=value line in a text output.
    ...toolTurn('read', `OPENAI_API_KEY=${secrets.openaiKey()}\n${output('config file')}`),
    // A vendor token inside JSON output, under a `data` key.
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'gh1', toolName: 'gh_api', input: { path: '/user' } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'gh1',
          toolName: 'gh_api',
          output: {
            type: 'json',
            value: { data: { login: 'dev', token: secrets.githubToken(), scopes: ['repo'] } },
          },
        },
      ],
    },
    // A bearer header inside a tool-call input, and a connection string in assistant text.
    {
      role: 'assistant',
      content: [
        {
          type: 'text',
          text: `Connecting with postgres://admin:${secrets.databasePassword()}@db.internal:5432/app to check the schema.`,
        },
        {
          type: 'tool-call',
          toolCallId: 'http1',
          toolName: 'http_request',
          input: {
            url: 'https://api.internal/v1/builds',
            headers: { Authorization: `Bearer ${secrets.bearer()}` },
          },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'http1',
          toolName: 'http_request',
          output: { type: 'text', value: output('builds listed') },
        },
      ],
    },
    // JSON-escaped output full of \", \\ and \n: the estimate under-reads it, the exact count does not.
    ...toolTurn('read', JSON.stringify({ fixture: 'q"\\\n'.repeat(600) })),
    ...toolTurn('edit', output('patch')),
    ...toolTurn('bash', output('build two')),
    user('Also run the linter.'),
    assistant('The linter is clean.'),
  ]);
}

/** Whether any 8-character piece of `secret` shows up in `text`. */
function leaks(text: string, secret: string): boolean {
  for (let start = 0; start + 8 <= secret.length; start++) {
    if (text.includes(secret.slice(start, start + 8))) return true;
  }
  return false;
}

describe('summariser over real HTTP (OpenAI-compatible server on 127.0.0.1)', () => {
  const counter = createTokenCounter({ encoding: 'o200k_base' });
  const provider = () => createOpenAICompatible({ name: 'local', baseURL: server.baseURL });

  it('sends redacted, structured requests, each within a budget that forces chunking', async () => {
    bodies.length = 0;
    const messages = history();
    const inputBudget = 1_400;
    // The middle alone is over the budget: the budget can fail.
    expect(counter.countMessages(messages)).toBeGreaterThan(2 * inputBudget);
    const compressor = new ContextCompressor({
      counter,
      summarizer: provider().chatModel('summarizer-1'),
      summarizerInputBudget: inputBudget,
      summaryTargetTokens: 300,
      protectLastNTokens: 100,
    });
    const target = Math.floor(counter.countMessages(messages) / 3);
    const result = await compressor.compress(messages, {
      targetTokens: target,
      strategy: 'summarize',
    });

    expect(result.strategy).toBe('summarize');
    expect(result.event.summarizerModel).toBe('summarizer-1');
    expect(bodies.length).toBeGreaterThan(1);
    const raw = JSON.stringify(bodies);
    for (const [kind, secret] of Object.entries(secrets)) {
      const value = secret();
      const piece =
        kind === 'openaiKey' ? value.slice(8) : kind === 'githubToken' ? value.slice(4) : value;
      expect(leaks(raw, piece), kind).toBe(false);
    }
    expect(raw).toContain('[REDACTED');
    // The messages carrying them did reach the server (the secrets were redacted, not dropped).
    for (const carrier of ['OPENAI_API_KEY', 'login', 'Authorization', 'db.internal']) {
      expect(raw).toContain(carrier);
    }
    for (const [position, body] of bodies.entries()) {
      expect(body.messages.map((message) => message.role)).toEqual(['system', 'user']);
      const system = body.messages[0]! as { content: string };
      const request = body.messages[1]! as { content: string };
      for (const heading of [
        '## Goal',
        '## Completed actions',
        '## Blockers and errors',
        '## Relevant files',
        '## Remaining work',
      ]) {
        expect(system.content).toContain(heading);
      }
      expect(request.content).toMatch(
        position === 0 ? /^<transcript>\n<message index="\d+"/ : /^<previous-summary>\n/,
      );
      expect(request.content).toContain('</transcript>');
      // Counted from the body the server received, as it received it.
      expect(counter.countMessages(body.messages)).toBeLessThanOrEqual(inputBudget);
      expect(body.max_tokens).toBeGreaterThan(0);
    }
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
