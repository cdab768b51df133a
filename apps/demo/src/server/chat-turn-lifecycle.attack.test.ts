import { describe, expect, it } from 'vitest';
import type { DemoServer } from './create-demo-server.js';
import {
  type OfflineDemoServer,
  openOfflineDemoServer,
} from './test-utils/open-offline-demo-server.js';

/**
 * Found by an outside attack: the "agent is still working" check ran before the body was read, so
 * two requests sent at once both passed it and ran two turns on one conversation (interleaved
 * streams; the first turn's end cleared the busy flag while the second still ran). Also covered: a
 * client that hangs up mid-stream must not leave the conversation busy for good.
 */
const userMessage = (id: string) =>
  JSON.stringify({ message: { id, role: 'user', parts: [{ type: 'text', text: 'hello' }] } });

/** Runs `attack` against a fresh server (so no test sees another's busy flag), then disposes it. */
async function withServer(attack: (server: DemoServer) => Promise<void>): Promise<void> {
  const opened: OfflineDemoServer = await openOfflineDemoServer('baton-demo-lifecycle-');
  try {
    await attack(opened.server);
  } finally {
    await opened.dispose();
  }
}

const post = (server: DemoServer, body: string) =>
  server.app.request('/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });

async function untilIdle(server: DemoServer): Promise<boolean> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (!(await server.state()).busy) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

describe('attack: chat turn lifecycle', () => {
  it('a client that hangs up mid-stream does not leave the conversation busy', () =>
    withServer(async (server) => {
      const response = await post(server, userMessage('abort-1'));
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      await reader.read();
      await reader.cancel();
      expect(await untilIdle(server)).toBe(true);
      const next = await post(server, userMessage('after-abort'));
      expect(next.status).toBe(200);
      await next.text();
    }));

  it('two concurrent requests never run two turns at once', () =>
    withServer(async (server) => {
      const [a, b] = await Promise.all([
        post(server, userMessage('race-a')),
        post(server, userMessage('race-b')),
      ]);
      await Promise.all([a.text(), b.text()]);
      // Control: one of them did start a turn, so the refusal is the busy check, not a broken body.
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      expect(await untilIdle(server)).toBe(true);
      const { messages } = await server.state();
      expect(messages.filter((message) => message.role === 'user')).toHaveLength(1);
    }));
});
