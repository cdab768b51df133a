// Compacts one parent and reports; the crash-safety test SIGKILLs it while the transaction is open.
import { createSessionStore } from '../index.js';

const [connectionString, parentId, childId, messageCount] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const store = await createSessionStore({ connectionString, migrate: false, maxConnections: 1 });
const messages = Array.from({ length: Number(messageCount) }, (_, index) => ({
  role: 'user',
  content: `compacted message ${index}`,
}));
process.send!({ type: 'started' });
await store.recordCompaction(
  parentId,
  {
    messages,
    summary: 'summary',
    strategy: 'summarize',
    usedFallback: false,
    tokensBefore: 1_000,
    tokensAfter: 100,
  },
  { childId },
);
process.send!({ type: 'committed' });
await store.close();
