// Compacts a chain on an on-disk PGlite, reporting each commit. After `commitsBeforeStop` commits it
// stops INSIDE the next compaction's transaction, just before the statement that matches `stopAt`
// runs, writes `markerFile`, and blocks until the test SIGKILLs it.
import { writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { createSessionStore } from '../index.js';

const [dataDir, compactedMessages, commitsBeforeStop, stopAt, markerFile] = process.argv.slice(
  2,
) as [string, string, string, string, string];

let commits = 0;
let blocked = false;
const client = await PGlite.create(dataDir);
// drizzle logs each statement synchronously just before sending it: a hook inside the transaction
// at an exact step, with every earlier statement of the transaction already executed.
const logger = {
  logQuery(query: string) {
    if (blocked || commits < Number(commitsBeforeStop) || !query.startsWith(stopAt)) return;
    blocked = true;
    writeFileSync(markerFile, query);
    // Blocks the whole process (PGlite runs in this thread), so the transaction stays open.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
    process.exit(3);
  },
};
const store = await createSessionStore({ db: drizzle({ client, logger }) });
const root = await store.createSession({ title: 'crash chain' });
await store.appendMessages(
  root.id,
  Array.from({ length: 20 }, (_, index) => ({ role: 'user', content: `raw ${index}` })),
  { startSequence: 0 },
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
  commits++;
  process.send!({ type: 'committed', generation, childId: child.id });
}
