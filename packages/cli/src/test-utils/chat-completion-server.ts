import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback OpenAI-compatible chat-completions server for tests. */
export interface ChatCompletionServer {
  /** `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** Request bodies received, in order. */
  bodies: string[];
  close(): Promise<void>;
}

/**
 * Starts the server: each request gets `reply()`'s text as the assistant message, or a 500 error when
 * `reply()` returns `{ error }`.
 */
export async function startChatCompletionServer(
  reply: () => string | { error: string },
): Promise<ChatCompletionServer> {
  const bodies: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      bodies.push(body);
      const answer = reply();
      if (typeof answer !== 'string') {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: answer.error, type: 'server_error' } }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'mock',
          choices: [
            { index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 100, completion_tokens: 60, total_tokens: 160 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
