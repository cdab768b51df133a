// One process of a fleet (see compaction-middleware.fleet.test.ts) over one PostgreSQL store. Mode
// `drive`: drives every shared conversation through all its steps with generateText + the middleware
// (duplicated traffic: every process sends every request, at its own pace) and reports what failed.
// Mode `serve`: serves the steps the parent sends it, one reply per step (a load balancer hands
// consecutive steps of a conversation to different processes).
import { createSessionStore } from '@baton/sessions';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { compactionMiddleware } from '../compaction-middleware.js';
import { textResult } from './conversation.js';
import { fleetRequest } from './fleet-conversation.js';

const [
  connectionString,
  workerText,
  conversationsText,
  stepsText,
  mode = 'drive',
  prefix = 'fleet-',
] = process.argv.slice(2);
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

const modelFor = (conversation: number) =>
  wrapLanguageModel({
    model: inner,
    middleware: compactionMiddleware({
      store,
      sessionId: `${prefix}${conversation}`,
      contextWindow: 6_000,
      strategy: conversation % 2 === 0 ? 'truncate' : 'receipt',
      onCompaction: () => void compactions++,
    }),
  });

if (mode === 'serve') {
  const models = new Map<number, ReturnType<typeof modelFor>>();
  process.on(
    'message',
    async (command: { type: 'step'; conversation: number; step: number } | { type: 'close' }) => {
      if (command.type === 'close') {
        await store.close();
        process.send!({ type: 'closed', worker, calls, compactions, failures });
        process.disconnect();
        return;
      }
      const { conversation, step } = command;
      let model = models.get(conversation);
      if (model === undefined) {
        model = modelFor(conversation);
        models.set(conversation, model);
      }
      try {
        await generateText({ model, messages: fleetRequest(conversation, step) });
        calls++;
        process.send!({ type: 'done', conversation, step, ok: true });
      } catch (error) {
        const failure = error as { code?: string; message?: string };
        const text = `conversation ${conversation} step ${step}: ${failure.code} ${failure.message}`;
        failures.push(text);
        process.send!({ type: 'done', conversation, step, ok: false, error: text });
      }
    },
  );
  process.send!({ type: 'ready' });
} else {
  await drive();
}

async function drive() {
  await Promise.all(
    Array.from({ length: conversations }, async (_, conversation) => {
      const model = modelFor(conversation);
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
  process.send!({ type: 'closed', worker, calls, compactions, failures });
  process.disconnect();
}
