import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveModel } from '@baton/tokens';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoState } from '../shared/demo-types.js';
import { createDemoServer, type DemoServer } from './create-demo-server.js';
import { readDemoConfig } from './read-demo-config.js';

let dataDirectory: string;
const opened: DemoServer[] = [];

async function open(): Promise<DemoServer> {
  const config = {
    ...readDemoConfig({}, '/unused'),
    dataDirectory,
    stepDelayMs: 0,
  };
  const server = await createDemoServer({ config, environment: {}, log: () => undefined });
  opened.push(server);
  return server;
}

async function state(server: DemoServer): Promise<DemoState> {
  return (await (await server.app.request('/api/state')).json()) as DemoState;
}

/** Sends one user message and returns the stream's parts. */
async function send(server: DemoServer, id: string, text: string) {
  const response = await server.app.request('/api/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: { id, role: 'user', parts: [{ type: 'text', text }] } }),
  });
  expect(response.status).toBe(200);
  const body = await response.text();
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>);
}

beforeAll(async () => {
  dataDirectory = await mkdtemp(path.join(tmpdir(), 'baton-demo-server-'));
});

afterAll(async () => {
  for (const server of opened.splice(0)) {
    const { workspace } = await server.state();
    await server.close();
    await rm(workspace, { recursive: true, force: true });
  }
  await rm(dataDirectory, { recursive: true, force: true });
});

describe('demo server', () => {
  it('compacts through the middleware, reports it beside the chat, and resumes after a restart', async () => {
    const first = await open();
    const initial = await state(first);
    expect(initial.model.offline).toBe(true);
    expect(initial.warnings).toEqual([]);
    expect(initial.lineage.map((entry) => entry.id)).toEqual([initial.rootSessionId]);

    const bad = await first.app.request('/api/chat', { method: 'POST', body: '{}' });
    expect(bad.status).toBe(400);

    let compactionParts: Record<string, unknown>[] = [];
    let turn = 0;
    while (compactionParts.length === 0) {
      expect(turn, 'no compaction after 10 turns').toBeLessThan(10);
      const parts = await send(first, `user-${turn}`, 'continue');
      turn++;
      expect(parts.filter((part) => part.type === 'data-meter').length).toBeGreaterThan(0);
      compactionParts = parts.filter((part) => part.type === 'data-compaction');
      // Compaction stays out of the chat text: it travels as transient data parts only.
      for (const part of parts) {
        if (part.type === 'text-delta') expect(String(part.delta)).not.toContain('Baton handoff');
        if (String(part.type).startsWith('data-')) expect(part.transient).toBe(true);
      }
    }

    const afterCompaction = await state(first);
    expect(afterCompaction.compactions).toHaveLength(compactionParts.length);
    const [compaction] = afterCompaction.compactions;
    expect(compaction!.event.strategy).toBe('receipt');
    expect(compaction!.event.tokensAfter).toBeLessThan(compaction!.event.tokensBefore);
    expect(compaction!.parentSessionId).toBe(afterCompaction.rootSessionId);
    expect(compaction!.childSessionId).toBe(afterCompaction.currentSessionId);
    expect(afterCompaction.lineage.map((entry) => entry.endReason)).toEqual(['compaction', null]);
    expect(afterCompaction.meter!.tokensSent).toBeLessThan(afterCompaction.meter!.tokensRequested);
    expect(afterCompaction.meter!.tokensSent).toBeLessThan(afterCompaction.threshold);
    const persistedText = JSON.stringify(afterCompaction.messages);
    expect(persistedText).not.toContain('Baton handoff');

    await first.close();
    opened.splice(opened.indexOf(first), 1);

    const second = await open();
    const resumed = await state(second);
    expect(resumed.serverStarts).toBe(2);
    expect(resumed.rootSessionId).toBe(afterCompaction.rootSessionId);
    expect(resumed.lineage).toEqual(afterCompaction.lineage);
    expect(resumed.messages).toEqual(afterCompaction.messages);

    // The next turn is sent from the compacted child, not re-compacted from the raw history.
    const parts = await send(second, 'after-restart', 'continue');
    expect(parts.some((part) => part.type === 'text-delta')).toBe(true);
    const next = await state(second);
    expect(next.meter!.tokensSent).toBeLessThan(next.meter!.tokensRequested);
    expect(next.lineage[0]!.id).toBe(afterCompaction.rootSessionId);
    // Resumed from the stored compaction: no second compaction, same chain.
    expect(next.compactions).toHaveLength(afterCompaction.compactions.length);
    expect(next.lineage.map((entry) => entry.id)).toEqual(
      afterCompaction.lineage.map((entry) => entry.id),
    );

    const reset = await second.app.request('/api/reset', { method: 'POST' });
    const fresh = (await reset.json()) as DemoState;
    expect(fresh.rootSessionId).not.toBe(afterCompaction.rootSessionId);
    expect(fresh.messages).toEqual([]);
    expect(fresh.compactions).toEqual([]);
    expect(fresh.workspace).not.toBe(afterCompaction.workspace);
  }, 90_000);

  it("uses the model's own window when DEMO_CONTEXT_WINDOW is 0", async () => {
    const environment = {
      OPENAI_API_KEY: 'test-key',
      DEMO_MODEL: 'gpt-4o',
      DEMO_CONTEXT_WINDOW: '0',
    };
    const server = await createDemoServer({
      config: {
        ...readDemoConfig(environment, '/unused'),
        dataDirectory: path.join(dataDirectory, 'window'),
      },
      environment,
      log: () => undefined,
    });
    opened.push(server);
    const current = await state(server);
    expect(current.model).toMatchObject({ provider: 'openai', modelId: 'gpt-4o', offline: false });
    expect(current.contextWindow).toBe(resolveModel('gpt-4o').contextWindow);
    expect(current.contextWindow).toBeGreaterThan(100_000);
  });
});
