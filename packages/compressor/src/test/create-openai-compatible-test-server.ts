import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat completion request as the test server received it (the parsed JSON body). */
export interface ChatCompletionRequest {
  model: string;
  stream?: boolean;
  max_tokens?: number;
  messages: Array<{
    role: string;
    content: unknown;
    tool_calls?: Array<{ id: string; function?: { name: string; arguments: string } }>;
    tool_call_id?: string;
  }>;
  [key: string]: unknown;
}

/**
 * What the server answers one request with: a string is the assistant's reply text (streamed as
 * server-sent events when the request asks for a stream); an object with a `status` other than 200
 * is an OpenAI-style error response.
 */
export type TestServerReply =
  | string
  | { status: number; message?: string }
  /** A body sent as it is (a proxy's HTML page, a broken JSON): for clients' error paths. */
  | { status?: number; body: string; contentType?: string }
  /** Never answered: the connection stays open until the client gives up or the server closes. */
  | { hang: true };

export interface OpenAICompatibleTestServerOptions {
  /**
   * The reply to each request, or a function of the request, its 0-based position among all
   * requests received and the request's headers (`authorization` included). Default: the text `ok`.
   */
  reply?:
    | TestServerReply
    | ((
        request: ChatCompletionRequest,
        index: number,
        headers: IncomingHttpHeaders,
      ) => TestServerReply);
  /** `usage` reported with every successful reply. Default: 100 prompt and 50 completion tokens. */
  usage?: { promptTokens: number; completionTokens: number };
}

export interface OpenAICompatibleTestServer {
  /** Base URL for an OpenAI-compatible provider, ending in `/v1`. */
  baseURL: string;
  /** Every request received, in arrival order. Clear it with `requests.length = 0`. */
  requests: ChatCompletionRequest[];
  /** Stops the server. */
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendError(response: ServerResponse, status: number, message: string): void {
  // `retry-after: 0` so that a client's retry of a 429 or 5xx does not slow the test down.
  response.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' });
  const type = status === 429 ? 'rate_limit' : status >= 500 ? 'server_error' : 'invalid_request';
  response.end(JSON.stringify({ error: { message, type } }));
}

function sendStream(
  response: ServerResponse,
  request: ChatCompletionRequest,
  text: string,
  usage: object,
): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const created = Math.floor(Date.now() / 1000);
  const event = (delta: object, finish: string | null, withUsage: boolean) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-test',
      object: 'chat.completion.chunk',
      created,
      model: request.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...(withUsage ? { usage } : {}),
    })}\n\n`;
  // Two deltas, so that a client that only shows the first one is caught.
  const middle = Math.ceil(text.length / 2);
  response.write(event({ role: 'assistant', content: text.slice(0, middle) }, null, false));
  response.write(event({ content: text.slice(middle) }, null, false));
  response.write(event({}, 'stop', true));
  response.end('data: [DONE]\n\n');
}

/**
 * Starts an OpenAI-compatible chat completions server on 127.0.0.1 (a free port) for tests: it
 * records every request and answers with the configured reply, as JSON or as a stream.
 */
export async function createOpenAICompatibleTestServer(
  options: OpenAICompatibleTestServerOptions = {},
): Promise<OpenAICompatibleTestServer> {
  const requests: ChatCompletionRequest[] = [];
  const { promptTokens = 100, completionTokens = 50 } = options.usage ?? {};
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  const server = createServer(async (message, response) => {
    let request: ChatCompletionRequest;
    try {
      request = JSON.parse(await readBody(message)) as ChatCompletionRequest;
    } catch {
      sendError(response, 400, 'request body is not JSON');
      return;
    }
    const index = requests.push(request) - 1;
    const configured = options.reply ?? 'ok';
    const reply =
      typeof configured === 'function' ? configured(request, index, message.headers) : configured;
    if (typeof reply !== 'string') {
      if ('hang' in reply) return;
      if ('body' in reply) {
        response.writeHead(reply.status ?? 200, {
          'content-type': reply.contentType ?? 'text/html',
        });
        response.end(reply.body);
        return;
      }
      if (reply.status !== 200) {
        sendError(response, reply.status, reply.message ?? 'test server error');
        return;
      }
    }
    const text = typeof reply === 'string' ? reply : (reply.message ?? '');
    if (request.stream === true) {
      sendStream(response, request, text, usage);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-test',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: request.model,
        choices: [
          { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
        ],
        usage,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
