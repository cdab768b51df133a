import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createPlainServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DemoState } from '../shared/demo-types.js';
import { createDemoServer, type DemoServer } from './create-demo-server.js';
import { readDemoConfig } from './read-demo-config.js';

/** The demo served over real HTTP on loopback, as `pnpm start` serves it. */
interface Served {
  demo: DemoServer;
  server: ServerType;
  port: number;
  logged: string[];
}

interface Reply {
  status: number;
  body: string;
}

let dataDirectory: string;
const served: Served[] = [];
const MAX_BODY_BYTES = 64 * 1024;

async function serveDemo(name: string): Promise<Served> {
  const logged: string[] = [];
  const config = {
    ...readDemoConfig({}, '/unused'),
    dataDirectory: path.join(dataDirectory, name),
    stepDelayMs: 0,
    maxBodyBytes: MAX_BODY_BYTES,
  };
  const demo = await createDemoServer({
    config,
    environment: { DEMO_LOCAL_MODEL: 'off' },
    log: (line) => logged.push(line),
  });
  const server = await new Promise<ServerType>((resolve) => {
    const started = serve({ fetch: demo.app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(started),
    );
  });
  const port = (server.address() as AddressInfo).port;
  const entry = { demo, server, port, logged };
  served.push(entry);
  return entry;
}

/** One request with raw headers (Host included), as a browser or an attacker's page would send it. */
function send(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        setHost:
          !options.headers || !Object.keys(options.headers).some((key) => /^host$/i.test(key)),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

function chatBody(id: string, parts: unknown[]): string {
  return JSON.stringify({ message: { id, role: 'user', parts } });
}

function streamParts(body: string): Record<string, unknown>[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}

async function apiState(port: number): Promise<DemoState> {
  const reply = await send(port, { path: '/api/state' });
  expect(reply.status).toBe(200);
  return JSON.parse(reply.body) as DemoState;
}

function expectOneLineEach(logged: string[]): void {
  for (const line of logged) {
    expect(line).not.toMatch(/[\r\n]/);
    expect(line).not.toMatch(/\bat .*\(.*:\d+:\d+\)/);
  }
}

beforeAll(async () => {
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'baton-demo-http-'));
});

afterAll(async () => {
  for (const entry of served.splice(0)) {
    await new Promise<void>((resolve) => entry.server.close(() => resolve()));
    const { workspace } = await entry.demo.state();
    await entry.demo.close();
    await rm(workspace, { recursive: true, force: true });
  }
  await rm(dataDirectory, { recursive: true, force: true });
});

describe('demo server over HTTP: requests from other sites', () => {
  let demo: Served;
  beforeAll(async () => {
    demo = await serveDemo('origins');
  });

  it('refuses a text/plain cross-site POST to /api/chat and /api/reset, and does nothing', async () => {
    const before = await apiState(demo.port);
    const foreignOrigins = [
      'http://attacker.example',
      'null',
      // Another local web app (another port) is another origin too.
      `http://127.0.0.1:${demo.port + 1}`,
      `https://127.0.0.1:${demo.port}`,
    ];
    for (const origin of foreignOrigins) {
      demo.logged.length = 0;
      const chat = await send(demo.port, {
        method: 'POST',
        path: '/api/chat',
        headers: { 'content-type': 'text/plain;charset=UTF-8', origin },
        body: chatBody(`cross-${randomInt(1e9)}`, [{ type: 'text', text: 'rm -rf' }]),
      });
      expect(chat.status, origin).toBe(403);
      expect(chat.body).not.toContain('data:');
      const reset = await send(demo.port, {
        method: 'POST',
        path: '/api/reset',
        headers: { 'content-type': 'text/plain', origin },
        body: '',
      });
      expect(reset.status, origin).toBe(403);
      const state = await send(demo.port, { path: '/api/state', headers: { origin } });
      expect(state.status, origin).toBe(403);
      expect(state.body).not.toContain('rootSessionId');
      // One line per refusal.
      expect(demo.logged, origin).toHaveLength(3);
      expectOneLineEach(demo.logged);
    }
    // Browsers that send no Origin on a no-cors request still say where it came from.
    const fetchSite = await send(demo.port, {
      method: 'POST',
      path: '/api/reset',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(fetchSite.status).toBe(403);
    const fetchSiteState = await send(demo.port, {
      path: '/api/state',
      headers: { 'sec-fetch-site': 'same-site' },
    });
    expect(fetchSiteState.status).toBe(403);
    const after = await apiState(demo.port);
    expect(after.rootSessionId).toBe(before.rootSessionId);
    expect(after.messages).toEqual([]);
    expect(after.meterHistory).toEqual([]);
  });

  it('refuses a foreign Host header (DNS rebinding) on every route, state included', async () => {
    const hosts = [
      `attacker.example:${demo.port}`,
      'attacker.example',
      `127.0.0.1.attacker.example:${demo.port}`,
      `localhost.attacker.example:${demo.port}`,
      `192.168.1.20:${demo.port}`,
    ];
    for (const host of hosts) {
      const state = await send(demo.port, { path: '/api/state', headers: { host } });
      expect(state.status, host).toBe(403);
      expect(state.body).not.toContain('rootSessionId');
      expect(state.body).not.toContain('workspace');
      // Same-origin for the rebound name is still refused: the Host itself is foreign.
      const reset = await send(demo.port, {
        method: 'POST',
        path: '/api/reset',
        headers: { host, origin: `http://${host}` },
      });
      expect(reset.status, host).toBe(403);
    }
  });

  it("answers the demo's own page, on every loopback name, and clients that send no Origin", async () => {
    const own = [
      `127.0.0.1:${demo.port}`,
      `localhost:${demo.port}`,
      `[::1]:${demo.port}`,
      `127.1.2.3:${demo.port}`,
    ];
    for (const host of own) {
      const reply = await send(demo.port, {
        path: '/api/state',
        headers: { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' },
      });
      expect(reply.status, host).toBe(200);
      expect(JSON.parse(reply.body)).toHaveProperty('rootSessionId');
    }
    // curl and the tests: no Origin, no Sec-Fetch-Site.
    expect((await send(demo.port, { path: '/api/state' })).status).toBe(200);
    // Typing the URL in the address bar.
    expect(
      (await send(demo.port, { path: '/api/state', headers: { 'sec-fetch-site': 'none' } })).status,
    ).toBe(200);
  });
});

describe('demo server over HTTP: request bodies', () => {
  let demo: Served;
  beforeAll(async () => {
    demo = await serveDemo('bodies');
  });

  it('answers 413 to a body over the limit announced by Content-Length', async () => {
    demo.logged.length = 0;
    const text = 'x'.repeat(MAX_BODY_BYTES);
    const reply = await send(demo.port, {
      method: 'POST',
      path: '/api/chat',
      headers: { 'content-type': 'application/json' },
      body: chatBody('too-big', [{ type: 'text', text }]),
    });
    expect(reply.status).toBe(413);
    expect(reply.body).not.toContain('\n');
    expect((JSON.parse(reply.body) as { error: string }).error).toContain(String(MAX_BODY_BYTES));
    expect(demo.logged).toHaveLength(1);
    expectOneLineEach(demo.logged);
    expect((await apiState(demo.port)).messages).toEqual([]);
  });

  it('stops reading a chunked body once it passes the limit, without buffering the rest', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'a');
    // Far more than the limit; the client stops writing as soon as the answer comes.
    const endless = 512 * 1024 * 1024;
    const result = await new Promise<{ status: number; written: number }>((resolve, reject) => {
      let written = 0;
      let answered = false;
      const outgoing = httpRequest(
        {
          host: '127.0.0.1',
          port: demo.port,
          method: 'POST',
          path: '/api/chat',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (response) => {
          answered = true;
          response.resume();
          resolve({ status: response.statusCode ?? 0, written });
          outgoing.destroy();
        },
      );
      outgoing.on('error', (error) => {
        if (!answered) reject(error);
      });
      const pump = () => {
        while (!answered && written < endless) {
          written += chunk.length;
          if (!outgoing.write(chunk)) {
            outgoing.once('drain', pump);
            return;
          }
        }
        if (!answered) outgoing.end();
      };
      outgoing.write('{"message":{"id":"chunked","role":"user","parts":[{"type":"text","text":"');
      pump();
    });
    expect(result.status).toBe(413);
    // Socket buffers hold a few MB at most: the server answered long before the body ended.
    expect(result.written).toBeLessThan(endless / 8);
    // The server is still serving.
    expect((await apiState(demo.port)).messages).toEqual([]);
  });

  it('accepts a body exactly at the limit', async () => {
    const body = chatBody('under-limit', [{ type: 'text', text: 'continue' }]);
    // JSON allows whitespace after the value: a body at the limit around a short message.
    const padded = `${body}${' '.repeat(MAX_BODY_BYTES - body.length)}`;
    expect(Buffer.byteLength(padded)).toBe(MAX_BODY_BYTES);
    const reply = await send(demo.port, {
      method: 'POST',
      path: '/api/chat',
      headers: { 'content-type': 'application/json' },
      body: padded,
    });
    expect(reply.status).toBe(200);
    expect(streamParts(reply.body).some((part) => part.type === 'text-delta')).toBe(true);
  });
});

describe('demo server over HTTP: a file part that cannot be fetched', () => {
  it('fails that turn only, with one redacted log line, and later turns work', async () => {
    const demo = await serveDemo('file-part');
    // A port nothing listens on.
    const closed = createPlainServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const password = () =>
      Array.from({ length: 24 }, () => alphabet[randomInt(alphabet.length)]).join('');
    const cases = [
      // Not a URL at all: the AI SDK's error message quotes it whole.
      (secret: string) => `http://alice:${secret}@exa mple.test/diagram.png`,
      // Refused by the download's address check, and nothing listens there anyway.
      (secret: string) => `http://alice:${secret}@127.0.0.1:${closedPort}/diagram.png`,
    ];
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      let turn = 0;
      for (const [index, makeUrl] of cases.entries()) {
        const secret = password();
        demo.logged.length = 0;
        const failed = await send(demo.port, {
          method: 'POST',
          path: '/api/chat',
          headers: { 'content-type': 'application/json' },
          body: chatBody(`with-file-${index}`, [
            { type: 'text', text: `look at diagram ${index}` },
            { type: 'file', mediaType: 'image/png', url: makeUrl(secret) },
          ]),
        });
        expect(failed.status).toBe(200);
        const errors = streamParts(failed.body).filter((part) => part.type === 'error');
        expect(errors, `case ${index}`).toHaveLength(1);
        expect(failed.body).not.toContain(secret);

        expect(demo.logged, `case ${index}`).toHaveLength(1);
        expectOneLineEach(demo.logged);
        expect(demo.logged.join('\n')).not.toContain(secret);
        expect(consoleError).not.toHaveBeenCalled();

        // The next turns go through: the failure belonged to that turn only.
        for (let next = 0; next < 2; next++) {
          const id = `after-${turn++}`;
          const reply = await send(demo.port, {
            method: 'POST',
            path: '/api/chat',
            headers: { 'content-type': 'application/json' },
            body: chatBody(id, [{ type: 'text', text: 'continue' }]),
          });
          expect(reply.status).toBe(200);
          const parts = streamParts(reply.body);
          expect(
            parts.filter((part) => part.type === 'error'),
            id,
          ).toEqual([]);
          expect(
            parts.some((part) => part.type === 'text-delta'),
            id,
          ).toBe(true);
        }
        expect(demo.logged, demo.logged.join('\n')).toHaveLength(1);
        const state = await apiState(demo.port);
        // The user's message stays in the chat (nothing typed is lost), in its redacted copy.
        expect(JSON.stringify(state.messages)).toContain(`look at diagram ${index}`);
        expect(JSON.stringify(state.messages)).not.toContain(secret);
        expect(state.busy).toBe(false);
      }
    } finally {
      consoleError.mockRestore();
    }
  }, 90_000);
});
