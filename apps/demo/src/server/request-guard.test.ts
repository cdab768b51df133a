import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, requestGuard } from './request-guard.js';

describe('requestGuard', () => {
  it('knows the loopback names, and nothing that merely looks like one', () => {
    for (const name of ['localhost', 'app.localhost', '127.0.0.1', '127.255.0.9', '[::1]']) {
      expect(isLoopbackHost(name), name).toBe(true);
    }
    for (const name of [
      '127.0.0.1.attacker.example',
      'localhost.attacker.example',
      'attacker.example',
      '128.0.0.1',
      '127.0.0.256',
      '0.0.0.0',
      '[::]',
      '[::ffff:7f00:1]',
      '',
    ]) {
      expect(isLoopbackHost(name), name).toBe(false);
    }
  });

  it('lets through hosts named in allowedHosts, and their own origin only', async () => {
    const logged: string[] = [];
    const app = new Hono();
    app.use('*', requestGuard({ allowedHosts: ['demo.lan'], log: (line) => logged.push(line) }));
    app.get('/x', (context) => context.text('ok'));
    const status = async (headers: Record<string, string>) =>
      (await app.request('http://demo.lan:8080/x', { headers })).status;
    expect(await status({ host: 'demo.lan:8080' })).toBe(200);
    expect(await status({ host: 'DEMO.LAN:8080', origin: 'http://demo.lan:8080' })).toBe(200);
    expect(await status({ host: 'demo.lan:8080', origin: 'http://other.lan:8080' })).toBe(403);
    expect(await status({ host: 'other.lan:8080' })).toBe(403);
    expect(await status({ host: 'bad host' })).toBe(403);
    expect(logged).toHaveLength(3);
  });
});
