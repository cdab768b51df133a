import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createOpenAICompatibleTestServer, toolPairProblems } from '@baton/compressor/test';
import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it, onTestFinished } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { agentHistory, fixBugsHandoff } from './test-utils/conversation.js';

describe('compactionMiddleware over real HTTP (OpenAI-compatible server on 127.0.0.1)', () => {
  it('sends the compacted prompt in the request body, tool calls paired, latest ask last', async () => {
    const server = await createOpenAICompatibleTestServer({
      reply: 'compacted and answered',
      usage: { promptTokens: 1_234, completionTokens: 3 },
    });
    onTestFinished(() => server.close());
    const bodies = server.requests;
    const provider = createOpenAICompatible({ name: 'local', baseURL: server.baseURL });
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
    const body = bodies[0]!;
    expect(body.model).toBe('gpt-4o');
    expect(body.messages[0]).toEqual({
      role: 'system',
      content: 'You are a careful coding agent.',
    });
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: latestAsk });
    expect(body.messages.length).toBeLessThan(messages.length);
    expect(JSON.stringify(body.messages)).toContain('Fix the bugs in the files.');
    // Every tool message answers a call of the assistant message before it, and every call is answered.
    expect(body.messages.some((message) => message.role === 'tool')).toBe(true);
    expect(toolPairProblems(body.messages)).toEqual([]);
  });
});
