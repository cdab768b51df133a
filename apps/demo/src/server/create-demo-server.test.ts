import { randomInt } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { resolveModel } from '@baton/tokens';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DemoState } from '../shared/demo-types.js';
import { createDemoServer, type DemoServer } from './create-demo-server.js';
import { readDemoConfig } from './read-demo-config.js';

let dataDirectory: string;
const opened: DemoServer[] = [];

async function open(
  directory = dataDirectory,
  log: (message: string) => void = () => undefined,
): Promise<DemoServer> {
  const config = {
    ...readDemoConfig({}, '/unused'),
    dataDirectory: directory,
    stepDelayMs: 0,
  };
  // No local model: these tests exercise the receipt path (local-summarizer.test.ts covers the model).
  const server = await createDemoServer({ config, environment: { DEMO_LOCAL_MODEL: 'off' }, log });
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
    // One set of figures: the card's prompt is the meter's reading of the very call that compacted.
    const prompt = compaction!.prompt!;
    expect(prompt.toolDefinitionTokens).toBeGreaterThan(0);
    expect(
      afterCompaction.meterHistory.some(
        (reading) =>
          reading.tokensRequested === prompt.tokensBefore &&
          reading.tokensSent === prompt.tokensAfter &&
          reading.toolDefinitionTokens === prompt.toolDefinitionTokens,
      ),
    ).toBe(true);
    // The middleware's own event counts the same prompt (tool definitions included).
    expect(compaction!.event.tokensBefore).toBe(prompt.tokensBefore);
    expect(compaction!.event.tokensAfter).toBe(prompt.tokensAfter);
    expect(prompt.tokensBefore).toBeGreaterThan(afterCompaction.threshold);
    expect(prompt.tokensAfter).toBeLessThan(prompt.tokensBefore);
    // What the model now sees: head, then the handoff once, then the tail with the latest ask.
    const view = afterCompaction.modelView!;
    const sections = view.messages.map((message) => message.section);
    expect(sections.filter((section) => section === 'handoff')).toHaveLength(1);
    const handoffAt = sections.indexOf('handoff');
    expect(sections.slice(0, handoffAt).every((section) => section === 'head')).toBe(true);
    expect(sections.slice(handoffAt + 1).every((section) => section === 'tail')).toBe(true);
    expect(sections[0]).toBe('head');
    expect(view.messages[handoffAt]!.text).toContain('Baton handoff');
    expect(view.messages.slice(handoffAt + 1).some((message) => message.role === 'user')).toBe(
      true,
    );
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

  it('answers malformed chat requests with 400 and a one-line JSON error, no stack trace', async () => {
    const logged: string[] = [];
    const server = await open(path.join(dataDirectory, 'malformed'), (line) => logged.push(line));
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const bodies = [
        'not json',
        '{"message": ',
        'null',
        '[]',
        '{"message": {"role": "user", "parts": "hello"}}',
        '{"message": {"id": "x", "role": "user", "parts": [{"type": "text"}]}}',
        '{"message": {"id": "x", "role": "user", "parts": [null]}}',
      ];
      for (const body of bodies) {
        const response = await server.app.request('/api/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        expect(response.status, body).toBe(400);
        const text = await response.text();
        expect(text).not.toContain('\n');
        const parsed = JSON.parse(text) as { error: unknown };
        expect(typeof parsed.error).toBe('string');
        expect(parsed.error).not.toMatch(/\bat .*\(/);
      }
      expect(consoleError).not.toHaveBeenCalled();
      expect(logged.join('\n')).not.toMatch(/\n\s+at /);
      expect((await server.state()).messages).toEqual([]);
    } finally {
      consoleError.mockRestore();
    }
  });

  it('never writes a secret typed in the chat to the data directory in the clear', async () => {
    const directory = path.join(dataDirectory, 'secret');
    const server = await open(directory);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const token = `ghp_${Array.from({ length: 36 }, () => alphabet[randomInt(alphabet.length)]).join('')}`;
    await send(server, 'secret-turn', `deploy with this token please: ${token}`);
    await server.close();
    opened.splice(opened.indexOf(server), 1);

    const stored = await readFile(path.join(directory, 'conversation.json'), 'utf8');
    expect(stored).not.toContain(token);
    expect(stored).toContain('[REDACTED:');
    expect(stored).toContain('deploy with this token please:');

    // After a restart the page gets the redacted chat back, and the turn is still there.
    const restarted = await open(directory);
    const resumed = await state(restarted);
    const shown = JSON.stringify(resumed.messages);
    expect(shown).not.toContain(token);
    expect(shown).toContain('deploy with this token please: [REDACTED:');
  });

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
