import { randomInt } from 'node:crypto';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createSessionStore } from '@baton/sessions';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { filler, usage } from './test-utils/conversation.js';

/**
 * Attack (reviewer): two credentials the redactor misses reach places the standards forbid.
 * - a Sourcegraph token in its documented `sgp_<40 hex>` form reaches the stored rows;
 * - a password inside a JSON string value that is itself JSON (a structured log line in a tool
 *   output) reaches the summariser request.
 */
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const pick = (set: string, length: number) =>
  Array.from({ length }, () => set[randomInt(set.length)]).join('');

it('no generated secret reaches the summariser or the session store', async () => {
  const sourcegraph = `sgp_${pick('0123456789abcdef', 40)}`;
  const password = `${pick(alnum, 10)}!${pick(alnum, 6)}`;
  const history: ModelMessage[] = [
    { role: 'user', content: `Index the repo, authenticating with ${sourcegraph} please.` },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'c1',
          toolName: 'bash',
          input: { command: 'tail app.log' },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'bash',
          output: {
            type: 'text',
            value: `${JSON.stringify({ msg: 'login', body: JSON.stringify({ user: 'bob', password }) })}\n${filler(900)}`,
          },
        },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'c2', toolName: 'bash', input: { command: 'ls' } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c2',
          toolName: 'bash',
          output: { type: 'text', value: filler(900, 3) },
        },
      ],
    },
    { role: 'user', content: 'Now deploy it.' },
  ];
  const store = await createSessionStore();
  const sent: string[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'ok' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usage(),
      warnings: [],
    }),
  });
  const wrapped = wrapLanguageModel({
    model,
    middleware: compactionMiddleware({
      contextWindow: 2_000,
      reservedOutputTokens: 300,
      strategy: 'summarize',
      store,
      sessionId: 'attack-secret-reach',
      summarizer: async (request) => {
        sent.push(JSON.stringify(request));
        return '## Goal\nDeploy\n## Completed actions\n1. read the log\n## Active state\nok\n## Remaining work\nNone';
      },
    }),
  });
  await generateText({ model: wrapped, instructions: 'Deploy bot.', messages: history });
  const rows: string[] = [];
  const ids = new Set<string>();
  for (const open of await store.listSessions())
    for (const session of await store.lineage(open.id)) ids.add(session.id);
  for (const session of [...ids].map((id) => ({ id }))) {
    rows.push(JSON.stringify(session), JSON.stringify(await store.getMessages(session.id)));
    rows.push(JSON.stringify((await store.getCompaction(session.id)) ?? null));
  }
  await store.close();
  expect(sent.length, 'the summariser ran').toBeGreaterThan(0);
  const stored = rows.join('\n');
  const request = sent.join('\n');
  expect({
    sourcegraphStored: stored.includes(sourcegraph.slice(4)),
    sourcegraphSent: request.includes(sourcegraph.slice(4)),
    passwordSent: request.includes(password),
    passwordStored: stored.includes(password),
  }).toEqual({
    sourcegraphStored: false,
    sourcegraphSent: false,
    passwordSent: false,
    passwordStored: false,
  });
}, 60_000);
