// One process of a fleet (see compaction-middleware.fleet.test.ts): drives every shared conversation
// through all its steps with generateText + the middleware over one PostgreSQL store, as a second
// server behind a load balancer would, and reports what failed.
import { createSessionStore } from '@baton/sessions';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { compactionMiddleware } from '../compaction-middleware.js';
import { textResult } from './conversation.js';
import { fleetRequest } from './fleet-conversation.js';

const [connectionString, workerText, conversationsText, stepsText] = process.argv.slice(2);
const worker = Number(workerText);
const conversations = Number(conversationsText);
const steps = Number(stepsText);

const store = await createSessionStore({
  connectionString: connectionString!,
  migrate: false,
  maxConnections: 4,
});
const inner = new MockLanguageModelV4({ doGenerate: async () => textResult('ok') });
const failures: string[] = [];
let calls = 0;
let compactions = 0;
// Deterministic per worker, different between workers: they fall behind and overtake each other.
let seed = 7 + worker * 7919;
const jitter = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed % 7;
};

await Promise.all(
  Array.from({ length: conversations }, async (_, conversation) => {
    const model = wrapLanguageModel({
      model: inner,
      middleware: compactionMiddleware({
        store,
        sessionId: `fleet-${conversation}`,
        contextWindow: 6_000,
        strategy: conversation % 2 === 0 ? 'truncate' : 'receipt',
        onCompaction: () => void compactions++,
      }),
    });
    for (let step = 0; step < steps; step++) {
      await new Promise((resolve) => setTimeout(resolve, jitter()));
      try {
        await generateText({ model, messages: fleetRequest(conversation, step) });
        calls++;
      } catch (error) {
        const failure = error as { code?: string; message?: string };
        failures.push(
          `conversation ${conversation} step ${step}: ${failure.code} ${failure.message}`,
        );
      }
    }
  }),
);
await store.close();
process.send!({ worker, calls, compactions, failures });
process.disconnect();
