import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { capText, type GenerateModel, startLocalServer, toCappedPrompt } from './local-server.ts';
import { postChat } from './loopback-chat.ts';

describe('capText / toCappedPrompt', () => {
  test('never longer than the cap; keeps the head and the (longer) tail', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.nat({ max: 300 }), (text, max) => {
        const capped = capText(text, max);
        expect(capped.length).toBeLessThanOrEqual(Math.max(max, 0));
        if (text.length <= max) expect(capped).toBe(text);
        else if (max > 7) {
          const [head, tail] = capped.split('\n[...]\n');
          expect(text.startsWith(head!)).toBe(true);
          expect(text.endsWith(tail!)).toBe(true);
          expect(tail!.length).toBeGreaterThanOrEqual(head!.length);
        }
      }),
    );
  });

  test('the same cap for OpenAI and AI SDK shaped requests; tool calls and results go as text', () => {
    const prompt = toCappedPrompt(
      [
        { role: 'system', content: 'Summarise.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ function: { name: 'grep', arguments: '{"q":"x"}' } }],
        },
        {
          role: 'tool',
          content: [{ type: 'tool-result', output: { type: 'text', value: 'found src/a.ts' } }],
        },
      ],
      1_000,
    );
    expect(prompt).toEqual({
      system: 'Summarise.',
      user: 'assistant: grep({"q":"x"})\n\ntool: found src/a.ts',
      capped: false,
    });
    fc.assert(
      fc.property(
        fc.string({ maxLength: 2000 }),
        fc.string({ maxLength: 3000 }),
        (system, user) => {
          const capped = toCappedPrompt(
            [
              { role: 'system', content: system },
              { role: 'user', content: user },
            ],
            1_200,
          );
          expect(capped.system.length + capped.user.length).toBeLessThanOrEqual(1_200);
        },
      ),
    );
  });
});

describe('loopback server', () => {
  test('answers chat completions (plain and streamed) one model call at a time, and 500 on failure', async () => {
    let running = 0;
    let most = 0;
    const prompts: unknown[] = [];
    const model: GenerateModel = {
      async doGenerate(options) {
        running++;
        most = Math.max(most, running);
        prompts.push(options);
        await new Promise((resolve) => setTimeout(resolve, 10));
        running--;
        const text = JSON.stringify(options.prompt);
        if (text.includes('please fail')) throw new Error('LocalContextOverflowError: too long');
        return { content: [{ type: 'text', text: `summary ${options.maxOutputTokens}` }] };
      },
    };
    const server = await startLocalServer(model, { promptChars: 100, maxOutputTokens: 48 });
    try {
      const replies = await Promise.all(
        [1, 2, 3].map(() =>
          postChat(server.url, [{ role: 'user', content: 'x'.repeat(500) }], 1000),
        ),
      );
      expect(replies).toEqual(['summary 48', 'summary 48', 'summary 48']);
      expect(most).toBe(1);
      expect(await postChat(server.url, [{ role: 'user', content: 'short' }], 16)).toBe(
        'summary 16',
      );
      await expect(
        postChat(server.url, [{ role: 'user', content: 'please fail' }]),
      ).rejects.toThrow(/summariser server 500: Error: LocalContextOverflowError/);
      const stream = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], stream: true }),
      });
      const body = await stream.text();
      expect(body).toContain('"content":"summary 48"');
      expect(body.trim().endsWith('data: [DONE]')).toBe(true);
      const bad = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{' });
      expect(bad.status).toBe(400);
      expect(server.stats).toMatchObject({ calls: 6, failures: 1, capped: 3 });
    } finally {
      await server.close();
    }
  });
});
