// Compacts a chain on an on-disk PGlite as fast as it can, reporting each commit, until it is killed.
import { createSessionStore } from '../index.js';

const [dataDir, compactedMessages] = process.argv.slice(2) as [string, string];
const store = await createSessionStore({ dataDir });
const root = await store.createSession({ title: 'crash chain' });
await store.appendMessages(
  root.id,
  Array.from({ length: 20 }, (_, index) => ({ role: 'user', content: `raw ${index}` })),
);
let current = root.id;
for (let generation = 1; ; generation++) {
  const count = Number(compactedMessages);
  const { child } = await store.recordCompaction(
    current,
    {
      messages: Array.from({ length: count }, (_, index) => ({
        role: 'assistant',
        content: [{ type: 'text', text: `generation ${generation} message ${index} `.repeat(20) }],
      })),
      summary: `generation ${generation}`,
      strategy: 'summarize',
      usedFallback: false,
      tokensBefore: 1_000,
      tokensAfter: 100,
    },
    { metadata: { expectedMessages: count } },
  );
  current = child.id;
  process.send!({ type: 'committed', generation, childId: child.id });
}
