import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoServer } from './create-demo-server.js';
import {
  type OfflineDemoServer,
  openOfflineDemoServer,
} from './test-utils/open-offline-demo-server.js';

// Attack (issue 17 item 6, STANDARDS "request bodies never crash the process"): one ~200 KB body,
// far under the 1 MiB limit, whose message part nests arrays 100,000 deep. The message is kept in
// the conversation, then every save (JSON.stringify) and every later turn and GET /api/state fail
// with "Maximum call stack size exceeded" until /api/reset. Expected: that request is refused (400)
// or fails alone; the next ordinary turn and /api/state work.
let opened: OfflineDemoServer;
let server: DemoServer;

beforeAll(async () => {
  opened = await openOfflineDemoServer('baton-demo-attack-');
  server = opened.server;
});
afterAll(async () => {
  await opened?.dispose();
});

function post(body: string) {
  return server.app.request('/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
}

describe('attack: deeply nested JSON in a chat body', () => {
  it('does not break later turns or /api/state', async () => {
    const depth = 100_000;
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const hostile = `{"message":{"id":"deep","role":"user","parts":[{"type":"text","text":"hi","providerMetadata":{"x":${deep}}}]}}`;
    expect(hostile.length).toBeLessThan(1_048_576);
    const refused = await post(hostile);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/nested deeper than/) });

    const next = await post(
      JSON.stringify({
        message: { id: 'after', role: 'user', parts: [{ type: 'text', text: 'hello' }] },
      }),
    );
    const text = await next.text();
    expect(text).not.toContain('Maximum call stack size exceeded');
    const state = await server.app.request('/api/state');
    expect(state.status).toBe(200);
  });

  it('refuses a body just over the nesting limit and keeps nothing of it; accepts one at the limit', async () => {
    // The limit counts the body's own levels: { message: { parts: [ { providerMetadata: { x: … } } ] } }.
    const body = (extra: number, id: string) =>
      `{"message":{"id":"${id}","role":"user","parts":[{"type":"text","text":"hi","providerMetadata":{"x":${'['.repeat(extra)}${']'.repeat(extra)}}}]}}`;
    const atLimit = 64 - 5;
    const over = await post(body(atLimit + 1, 'over-limit'));
    expect(over.status).toBe(400);
    await over.text();
    const stateAfter = (await (await server.app.request('/api/state')).json()) as unknown;
    expect(JSON.stringify(stateAfter)).not.toContain('over-limit');
    const at = await post(body(atLimit, 'at-limit'));
    expect(at.status).toBe(200);
    await at.text();
    const state = await server.app.request('/api/state');
    expect(state.status).toBe(200);
    expect(await state.text()).toContain('at-limit');
  });
});
