import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { agentHistory, fixBugsHandoff } from './test-utils/conversation.js';

interface ChatBody {
  model: string;
  messages: Array<{
    role: string;
    content: unknown;
    tool_calls?: Array<{ id: string }>;
    tool_call_id?: string;
  }>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('compactionMiddleware over real HTTP (OpenAI-compatible server on 127.0.0.1)', () => {
  let server: Server;
  let baseURL: string;
  const bodies: ChatBody[] = [];

  beforeAll(async () => {
    server = createServer(async (request, response) => {
      const body = JSON.parse(await readBody(request)) as ChatBody;
      bodies.push(body);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1_700_000_000,
          model: body.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'compacted and answered' },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 1_234, completion_tokens: 3, total_tokens: 1_237 },
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
  });

  it('sends the compacted prompt in the request body, tool calls paired, latest ask last', async () => {
    const provider = createOpenAICompatible({ name: 'local', baseURL });
    const model = wrapLanguageModel({
      model: provider.chatModel('gpt-4o'),
      middleware: compactionMiddleware({
        contextWindow: 16_000,
        summarizer: async () => fixBugsHandoff,
      }),
    });
    const latestAsk = 'Which files did you change?';
    const messages: ModelMessage[] = [
      ...agentHistory(30, 30, 350),
      { role: 'user', content: latestAsk },
    ];
    const result = await generateText({
      model,
      instructions: 'You are a careful coding agent.',
      messages,
    });

    expect(result.text).toBe('compacted and answered');
    expect(result.providerMetadata?.baton).toMatchObject({ compacted: true, exactCount: true });
    expect(bodies).toHaveLength(1);
    const body = bodies[0] as ChatBody;
    expect(body.model).toBe('gpt-4o');
    expect(body.messages[0]).toEqual({
      role: 'system',
      content: 'You are a careful coding agent.',
    });
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: latestAsk });
    expect(body.messages.length).toBeLessThan(messages.length);
    expect(JSON.stringify(body.messages)).toContain('Fix the bugs in the files.');
    // Every tool message answers a call made earlier in the body, and every call is answered.
    const calls = new Set(
      body.messages.flatMap((message) => message.tool_calls?.map((call) => call.id) ?? []),
    );
    const answered = body.messages
      .filter((message) => message.role === 'tool')
      .map((message) => message.tool_call_id);
    expect(new Set(answered)).toEqual(calls);
  });
});
