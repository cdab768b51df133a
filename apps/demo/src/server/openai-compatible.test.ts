import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type ChatCompletionRequest,
  createOpenAICompatibleTestServer,
  type OpenAICompatibleTestServer,
} from '@baton/compressor/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoState } from '../shared/demo-types.js';
import { createDemoServer, type DemoServer } from './create-demo-server.js';
import { readDemoConfig } from './read-demo-config.js';

const SUMMARY = [
  '## Goal',
  'Ship the shelf fixes the user described.',
  '## Completed actions',
  '1. Read the notes the user pasted in earlier turns.',
  '## Relevant files',
  '- notes/turns.md',
].join('\n');

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

let provider: OpenAICompatibleTestServer;
let demo: DemoServer;
let dataDirectory: string;
let requests: ChatCompletionRequest[];

beforeAll(async () => {
  // Streams a reply to chats and answers SUMMARY to the summariser's (unstreamed) requests.
  provider = await createOpenAICompatibleTestServer({
    reply: (request) =>
      request.stream ? `Noted, ${request.messages.length} messages in my context.` : SUMMARY,
  });
  requests = provider.requests;
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'baton-demo-compatible-'));
  const environment = {
    OPENAI_COMPATIBLE_BASE_URL: provider.baseURL,
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
  await provider?.close();
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
