import { describe, expect, it } from 'vitest';
import type { DemoServer } from './create-demo-server.js';
import {
  type OfflineDemoServer,
  openOfflineDemoServer,
} from './test-utils/open-offline-demo-server.js';

/**
 * Attack (outside): a `/api/chat` body whose message id is already in the conversation. The
 * server skipped such a message (meant for a client re-sending the same message) whatever it said:
 * a new ask under a used id (a client that reuses ids, a stale tab, an id copied from the reply
 * stream) was dropped silently, and the turn ran anyway with 200, answering the previous ask or
 * continuing the assistant message whose id was taken. The latest real user ask was lost.
 * A re-sent identical message is still a retry; a different message under a used id is refused.
 */
const body = (message: unknown) => JSON.stringify({ message });
const userMessage = (id: string, text: string) => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});

async function withServer(attack: (server: DemoServer) => Promise<void>): Promise<void> {
  const opened: OfflineDemoServer = await openOfflineDemoServer('baton-demo-id-reuse-');
  try {
    await attack(opened.server);
  } finally {
    await opened.dispose();
  }
}

async function post(server: DemoServer, message: unknown) {
  const response = await server.app.request('/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body(message),
  });
  const text = await response.text();
  // The turn ends after the stream was read; wait for it before the next request.
  for (let attempt = 0; attempt < 400 && (await server.state()).busy; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { status: response.status, text };
}

const userTexts = async (server: DemoServer) =>
  (await server.state()).messages
    .filter((message) => message.role === 'user')
    .map((message) =>
      message.parts.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join(''),
    );

describe('attack: a chat message under an id the conversation already holds', () => {
  it('a different ask under a used user message id is refused, not dropped', () =>
    withServer(async (server) => {
      expect((await post(server, userMessage('ask-1', 'List the files, please.'))).status).toBe(
        200,
      );
      const reused = await post(server, userMessage('ask-1', 'Now run the tests.'));
      // Either the ask is in the conversation, or the client was told it was not taken.
      const texts = await userTexts(server);
      if (reused.status === 200) expect(texts).toContain('Now run the tests.');
      else expect(reused.status).toBe(409);
      expect(texts).toEqual(['List the files, please.']);
    }));

  it("an ask under the id of the assistant's reply is refused, and the reply is left as it was", () =>
    withServer(async (server) => {
      await post(server, userMessage('ask-1', 'List the files, please.'));
      const before = await server.state();
      const reply = before.messages.find((message) => message.role === 'assistant');
      expect(reply).toBeDefined();
      const reused = await post(server, userMessage(reply!.id, 'Now run the tests.'));
      expect(reused.status).toBe(409);
      const after = await server.state();
      expect(after.messages).toEqual(before.messages);
    }));

  it('control: the same message sent again is a retry, and runs the turn', () =>
    withServer(async (server) => {
      await post(server, userMessage('ask-1', 'List the files, please.'));
      const again = await post(server, userMessage('ask-1', 'List the files, please.'));
      expect(again.status).toBe(200);
      expect(await userTexts(server)).toEqual(['List the files, please.']);
    }));
});
