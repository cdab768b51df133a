/**
 * A loopback OpenAI-compatible chat-completions server backed by a local model (`@baton/local-model`), so
 * every summarising peer, Python or TypeScript, reaches the same real model through the client it already
 * has (a `base_url`). The 135M model reads ~100 prompt tokens/s on one core, so the server caps every
 * request the same way for every peer: the request is flattened to text, the instructions (system text)
 * and the conversation each get a share of `promptChars`, the conversation keeping its head and, larger,
 * its tail; the reply is capped at `maxOutputTokens`. One model call at a time, in arrival order.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';

/** The slice of an AI SDK language model the server calls (LanguageModelV4 `doGenerate`). */
export interface GenerateModel {
  doGenerate(options: {
    prompt: Array<
      | { role: 'system'; content: string }
      | { role: 'user'; content: Array<{ type: 'text'; text: string }> }
    >;
    maxOutputTokens?: number;
  }): PromiseLike<{ content: Array<{ type: string; text?: string }> }>;
}

export interface LocalServerOptions {
  /** Characters of flattened request text the model sees. Default 1,200. */
  promptChars?: number;
  /** Reply cap in model tokens (a smaller `max_tokens` in the request wins). Default 48. */
  maxOutputTokens?: number;
}

export interface LocalServerStats {
  calls: number;
  failures: number;
  /** Requests whose text was longer than the cap and was cut. */
  capped: number;
  /** Wall time spent in the model, summed over calls. */
  modelMs: number;
}

/** Text of a message in either OpenAI chat or AI SDK shape: text parts, tool calls and results as text. */
export function flattenContent(message: Record<string, unknown>): string {
  const pieces: string[] = [];
  const content = message.content;
  if (typeof content === 'string') pieces.push(content);
  else if (Array.isArray(content)) {
    for (const part of content as Array<Record<string, unknown>>) {
      if (typeof part === 'string') pieces.push(part);
      else if (typeof part?.text === 'string') pieces.push(part.text);
      else if (part?.type === 'tool-call') {
        pieces.push(`${String(part.toolName)}(${JSON.stringify(part.input ?? null)})`);
      } else if (part?.type === 'tool-result') {
        const value = (part.output as { value?: unknown } | undefined)?.value;
        pieces.push(typeof value === 'string' ? value : JSON.stringify(value ?? null));
      }
    }
  }
  for (const call of (message.tool_calls as Array<Record<string, unknown>> | undefined) ?? []) {
    const fn = (call.function ?? {}) as { name?: unknown; arguments?: unknown };
    pieces.push(`${String(fn.name)}(${String(fn.arguments ?? '')})`);
  }
  return pieces.join('\n');
}

/** Keeps `max` characters of `text`: its head and (twice as much) its tail, with a cut marker. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = '\n[...]\n';
  if (max <= marker.length) return text.slice(text.length - Math.max(0, max));
  const room = Math.max(0, max - marker.length);
  const head = Math.floor(room / 3);
  return text.slice(0, head) + marker + text.slice(text.length - (room - head));
}

/**
 * The model prompt for a chat request: system texts as the system message (at most a quarter of the cap),
 * the other messages as one user message of `role: text` blocks (the rest of the cap).
 */
export function toCappedPrompt(
  messages: readonly Record<string, unknown>[],
  promptChars: number,
): { system: string; user: string; capped: boolean } {
  const system = messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map(flattenContent)
    .join('\n\n');
  const body = messages
    .filter((message) => message.role !== 'system' && message.role !== 'developer')
    .map((message) => `${String(message.role)}: ${flattenContent(message)}`)
    .join('\n\n');
  const systemCap = Math.min(system.length, Math.floor(promptChars / 4));
  const cappedSystem = capText(system, systemCap);
  const cappedUser = capText(body, promptChars - cappedSystem.length);
  return {
    system: cappedSystem,
    user: cappedUser,
    capped: cappedSystem.length < system.length || cappedUser.length < body.length,
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startLocalServer(
  model: GenerateModel,
  options: LocalServerOptions = {},
): Promise<{ url: string; stats: LocalServerStats; close(): Promise<void> }> {
  const promptChars = options.promptChars ?? 1200;
  const maxOutputTokens = options.maxOutputTokens ?? 48;
  const stats: LocalServerStats = { calls: 0, failures: 0, capped: 0, modelMs: 0 };
  let queue: Promise<unknown> = Promise.resolve();

  const generate = (request: Record<string, unknown>): Promise<string> => {
    const messages = Array.isArray(request.messages)
      ? (request.messages as Record<string, unknown>[])
      : [];
    const prompt = toCappedPrompt(messages, promptChars);
    if (prompt.capped) stats.capped++;
    const asked = Number(request.max_completion_tokens ?? request.max_tokens);
    const cap =
      Number.isFinite(asked) && asked > 0 ? Math.min(asked, maxOutputTokens) : maxOutputTokens;
    const run = queue.then(async () => {
      const start = performance.now();
      try {
        const result = await model.doGenerate({
          prompt: [
            ...(prompt.system ? [{ role: 'system' as const, content: prompt.system }] : []),
            { role: 'user' as const, content: [{ type: 'text' as const, text: prompt.user }] },
          ],
          maxOutputTokens: cap,
        });
        return result.content.map((part) => part.text ?? '').join('');
      } finally {
        stats.modelMs += performance.now() - start;
      }
    });
    queue = run.catch(() => undefined);
    return run;
  };

  const server: Server = createServer(async (request, response) => {
    const send = (status: number, body: string, type = 'application/json') => {
      response.writeHead(status, {
        'content-type': type,
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    };
    if (request.method === 'GET') {
      if (request.url?.endsWith('/stats')) return send(200, JSON.stringify(stats));
      return send(
        200,
        JSON.stringify({ object: 'list', data: [{ id: 'local-summarizer', object: 'model' }] }),
      );
    }
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(await readBody(request)) as Record<string, unknown>;
    } catch {
      return send(400, JSON.stringify({ error: { message: 'body is not JSON', code: 400 } }));
    }
    stats.calls++;
    let text: string;
    try {
      text = await generate(parsed);
    } catch (error) {
      stats.failures++;
      const message = error instanceof Error ? `${error.name}: ${error.message}` : 'model failed';
      return send(500, JSON.stringify({ error: { message, type: 'server_error', code: 500 } }));
    }
    const model = typeof parsed.model === 'string' ? parsed.model : 'local-summarizer';
    const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    if (parsed.stream === true) {
      const chunk = (delta: Record<string, unknown>, finish: string | null) =>
        `data: ${JSON.stringify({
          id: 'local',
          object: 'chat.completion.chunk',
          created: 0,
          model,
          choices: [{ index: 0, delta, finish_reason: finish }],
          ...(finish ? { usage } : {}),
        })}\n\n`;
      return send(
        200,
        chunk({ role: 'assistant', content: text }, null) + chunk({}, 'stop') + 'data: [DONE]\n\n',
        'text/event-stream',
      );
    }
    return send(
      200,
      JSON.stringify({
        id: 'local',
        object: 'chat.completion',
        created: 0,
        model,
        choices: [
          { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
        ],
        usage,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no loopback port');
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
