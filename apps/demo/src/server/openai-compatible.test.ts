import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoState } from '../shared/demo-types.js';
import { createDemoServer, type DemoServer } from './create-demo-server.js';
import { readDemoConfig } from './read-demo-config.js';

interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: Array<{ role: string; content: unknown }>;
}

const SUMMARY = [
  '## Goal',
  'Ship the shelf fixes the user described.',
  '## Completed actions',
  '1. Read the notes the user pasted in earlier turns.',
  '## Relevant files',
  '- notes/turns.md',
].join('\n');

/** A small OpenAI-compatible server: streams a fixed reply to chats, returns SUMMARY to summaries. */
function startFakeProvider(requests: ChatRequest[]): Promise<Server> {
  const server = createServer(async (request: IncomingMessage, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const parsed = JSON.parse(body) as ChatRequest;
    requests.push(parsed);
    const created = Math.floor(Date.now() / 1000);
    if (parsed.stream) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null, usage?: object) =>
        `data: ${JSON.stringify({
          id: 'chatcmpl-demo',
          object: 'chat.completion.chunk',
          created,
          model: parsed.model,
          choices: [{ index: 0, delta, finish_reason: finish }],
          ...(usage ? { usage } : {}),
        })}\n\n`;
      response.write(chunk({ role: 'assistant', content: 'Noted, ' }, null));
      response.write(chunk({ content: `${parsed.messages.length} messages in my context.` }, null));
      response.write(
        chunk({}, 'stop', { prompt_tokens: 100, completion_tokens: 8, total_tokens: 108 }),
      );
      response.end('data: [DONE]\n\n');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-summary',
        object: 'chat.completion',
        created,
        model: parsed.model,
        choices: [
          { index: 0, message: { role: 'assistant', content: SUMMARY }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 100, completion_tokens: 40, total_tokens: 140 },
      }),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const words = [
  'inventory',
  'pricing',
  'rounding',
  'category',
  'ledger',
  'report',
  'parser',
  'stock',
];
function longMessage(turn: number): string {
  const sentences = Array.from(
    { length: 40 },
    (_, index) =>
      `Note ${turn}.${index}: check the ${words[(turn + index) % words.length]} code path ${turn * 100 + index}.`,
  );
  return sentences.join(' ');
}

let provider: Server;
let demo: DemoServer;
let dataDirectory: string;
const requests: ChatRequest[] = [];

beforeAll(async () => {
  provider = await startFakeProvider(requests);
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'baton-demo-compatible-'));
  const { port } = provider.address() as AddressInfo;
  const environment = {
    OPENAI_COMPATIBLE_BASE_URL: `http://127.0.0.1:${port}/v1`,
    DEMO_MODEL: 'fake-chat',
    DEMO_SUMMARIZER_MODEL: 'fake-summarizer',
    DEMO_CONTEXT_WINDOW: '6000',
    DEMO_MAX_OUTPUT_TOKENS: '500',
  };
  demo = await createDemoServer({
    config: { ...readDemoConfig(environment, '/unused'), dataDirectory },
    environment,
    log: () => undefined,
  });
});

afterAll(async () => {
  if (demo) {
    const { workspace } = await demo.state();
    await demo.close();
    await rm(workspace, { recursive: true, force: true });
  }
  await new Promise((resolve) => provider?.close(resolve));
  await rm(dataDirectory, { recursive: true, force: true });
});

describe('demo with a model configured by environment', () => {
  it('talks to an OpenAI-compatible server and summarises with the configured summariser', async () => {
    const initial = (await (await demo.app.request('/api/state')).json()) as DemoState;
    expect(initial.model).toMatchObject({
      provider: 'openai-compatible',
      modelId: 'fake-chat',
      offline: false,
    });

    // A token-shaped value built at run time (placeholders such as a repeated letter are left alone).
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const secret =
      'ghp_' + Array.from({ length: 36 }, (_, index) => alphabet[(index * 37 + 11) % 62]).join('');
    let state = initial;
    for (let turn = 0; turn < 12 && state.compactions.length === 0; turn++) {
      const text = turn === 1 ? `${longMessage(turn)} The token is ${secret}.` : longMessage(turn);
      const response = await demo.app.request('/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          message: { id: `turn-${turn}`, role: 'user', parts: [{ type: 'text', text }] },
        }),
      });
      expect(response.status).toBe(200);
      await response.text();
      state = (await (await demo.app.request('/api/state')).json()) as DemoState;
    }
    expect(state.compactions).toHaveLength(1);
    const { event } = state.compactions[0]!;
    expect(event.strategy).toBe('summarize');
    expect(event.usedFallback).toBe(false);
    expect(event.summarizerModel).toContain('fake-summarizer');
    expect(event.summary).toContain('Ship the shelf fixes');

    const summaryRequests = requests.filter((request) => !request.stream);
    expect(summaryRequests.length).toBeGreaterThan(0);
    expect(summaryRequests[0]!.model).toBe('fake-summarizer');
    // The middle went to the summariser redacted.
    expect(JSON.stringify(summaryRequests)).not.toContain(secret);

    // The chat call after the compaction carried the summary instead of the dropped turns.
    const lastChat = requests.filter((request) => request.stream).at(-1)!;
    const sent = JSON.stringify(lastChat.messages);
    expect(sent).toContain('Ship the shelf fixes');
    expect(lastChat.messages.length).toBeLessThan(state.messages.length);
    expect(state.lineage.map((entry) => entry.endReason)).toEqual(['compaction', null]);
  }, 60_000);
});
