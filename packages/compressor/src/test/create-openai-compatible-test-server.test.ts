import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatibleTestServer, type OpenAICompatibleTestServer } from './index.js';

describe('createOpenAICompatibleTestServer', () => {
  let server: OpenAICompatibleTestServer;
  beforeAll(async () => {
    server = await createOpenAICompatibleTestServer({
      reply: (request, index) =>
        request.model === 'broken'
          ? { status: 500, message: 'model overloaded' }
          : `reply ${index} to ${request.messages.length} messages`,
      usage: { promptTokens: 7, completionTokens: 3 },
    });
  });
  afterAll(() => server.close());
  const provider = () => createOpenAICompatible({ name: 'local', baseURL: server.baseURL });

  it('answers and records requests, as JSON and as a stream', async () => {
    server.requests.length = 0;
    const plain = await generateText({ model: provider().chatModel('m'), prompt: 'hi' });
    expect(plain.text).toBe('reply 0 to 1 messages');
    expect(plain.usage.inputTokens).toBe(7);
    const streamed = streamText({
      model: provider().chatModel('m'),
      system: 'be brief',
      prompt: 'hello there',
    });
    expect(await streamed.text).toBe('reply 1 to 2 messages');
    expect(server.requests.map((request) => [request.model, request.stream ?? false])).toEqual([
      ['m', false],
      ['m', true],
    ]);
  });

  it('answers an error reply with an OpenAI-style error the client reports', async () => {
    await expect(
      generateText({ model: provider().chatModel('broken'), prompt: 'hi', maxRetries: 0 }),
    ).rejects.toThrow(/model overloaded/);
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      body: 'not json',
    });
    expect(response.status).toBe(400);
  });

  it('sends raw bodies, hangs on request and shows the request headers to the reply', async () => {
    const seen: string[] = [];
    const raw = await createOpenAICompatibleTestServer({
      reply: (request, _index, headers) => {
        seen.push(String(headers.authorization));
        if (request.model === 'html') return { body: '<html>bad gateway</html>', status: 502 };
        return { hang: true };
      },
    });
    try {
      const key = `k${Math.random().toString(36).slice(2)}`;
      const client = createOpenAICompatible({ name: 'raw', baseURL: raw.baseURL, apiKey: key });
      await expect(
        generateText({ model: client.chatModel('html'), prompt: 'hi', maxRetries: 0 }),
      ).rejects.toThrow();
      await expect(
        generateText({
          model: client.chatModel('slow'),
          prompt: 'hi',
          maxRetries: 0,
          abortSignal: AbortSignal.timeout(200),
        }),
      ).rejects.toThrow();
      expect(seen).toEqual([`Bearer ${key}`, `Bearer ${key}`]);
    } finally {
      await raw.close();
    }
  });
});
