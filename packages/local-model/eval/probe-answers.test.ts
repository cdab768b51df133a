import { randomBytes } from 'node:crypto';
import {
  createOpenAICompatibleTestServer,
  type OpenAICompatibleTestServer,
} from '@baton/compressor/test';
import { extractHandoffFacts } from '@baton/fallback';
import type { ModelMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { answerProbes, probeModelFromEnv } from './probe-answers.ts';

// Generated per run: a token the redactor must catch whatever its characters.
const token = `ghp_${randomBytes(27)
  .toString('base64')
  .replace(/[^A-Za-z0-9]/g, 'x')
  .slice(0, 36)}`;
const secret = () => token;

function span(): ModelMessage[] {
  return [
    { role: 'user', content: 'Please migrate the billing schema to version two.' },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'read_file',
          input: { path: 'src/db/billing.sql' },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'read_file',
          output: { type: 'text', value: 'Error: relation "invoices" does not exist' },
        },
      ],
    },
  ];
}

let server: OpenAICompatibleTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('probeModelFromEnv', () => {
  it('is undefined without a URL or key, and reads URL, key and model name', () => {
    expect(probeModelFromEnv({})).toBeUndefined();
    expect(probeModelFromEnv({ OPENAI_API_KEY: 'k' })).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'k',
      model: 'gpt-4o-mini',
    });
    expect(
      probeModelFromEnv({
        OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:1/v1/',
        OPENAI_COMPATIBLE_MODEL: 'm',
        BATON_EVAL_PROBE_MODEL: 'probe',
      }),
    ).toEqual({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: undefined, model: 'probe' });
  });
});

describe('answerProbes against a loopback OpenAI-compatible server', () => {
  const facts = extractHandoffFacts(span());

  it('scores an answer holding the removed facts 1 and "unknown" 0, per probe', async () => {
    const answers = [
      'Error: relation "invoices" does not exist',
      'src/db/billing.sql',
      'They asked to migrate the billing schema to version two; next, create the invoices table.',
      'read_file, to inspect the schema.',
    ];
    let call = 0;
    server = await createOpenAICompatibleTestServer({
      reply: () => answers[call++ % answers.length]!,
    });
    const model = { baseUrl: server.baseURL, apiKey: 'test-key', model: 'probe-model' };
    const good = await answerProbes(`context with ${secret()}`, facts, model);
    expect(good).toEqual({
      scores: { recall: 1, artifactTrail: 1, continuation: 1, decision: 1 },
      failed: [],
    });
    const sent = server.requests;
    expect(sent).toHaveLength(4);
    expect(sent.every((body) => body.model === 'probe-model')).toBe(true);
    // The context is redacted before it leaves.
    expect(JSON.stringify(sent)).not.toContain(secret());

    await server.close();
    server = await createOpenAICompatibleTestServer({ reply: 'unknown' });
    const bad = await answerProbes('nothing', facts, { ...model, baseUrl: server.baseURL });
    expect(bad.scores).toEqual({ recall: 0, artifactTrail: 0, continuation: 0, decision: 0 });
  });

  it('skips probes whose class the removed span lacks and reports failed calls', async () => {
    server = await createOpenAICompatibleTestServer({
      reply: { status: 500, message: 'overloaded' },
    });
    const onlyAsk = extractHandoffFacts([
      { role: 'user', content: 'Rename the billing module now.' },
    ]);
    const result = await answerProbes('ctx', onlyAsk, {
      baseUrl: server.baseURL,
      apiKey: undefined,
      model: 'm',
    });
    expect(result).toEqual({ scores: {}, failed: ['continuation'] });
    expect(server.requests).toHaveLength(1);
  });
});
