// A separate OS process whose store loses its PostgreSQL server mid-write (see store-outage.test.ts).
// Nothing here handles 'uncaughtException': an unhandled driver error must show as a dead process.
import { createSessionStore } from '../index.js';

type Command = { type: 'append' } | { type: 'retry' } | { type: 'close' };

const store = await createSessionStore({
  connectionString: process.argv[2]!,
  maxConnections: 3,
});
const session = await store.createSession();
for (const index of [0, 1, 2]) {
  await store.appendMessages(session.id, [{ role: 'user', content: `warm ${index}` }]);
}
// Warm the pool: idle clients that the outage breaks too.
await Promise.all([0, 1, 2].map(() => store.getMessages(session.id)));

function describe(error: unknown) {
  const failure = error as { name?: string; code?: string; message?: string };
  return { name: failure?.name, code: failure?.code, message: failure?.message };
}

process.on('message', async (command: Command) => {
  if (command.type === 'append') {
    const appending = store.appendMessages(session.id, [
      { role: 'user', content: 'written while the server goes away' },
    ]);
    process.send!({ type: 'appending' });
    try {
      await appending;
      process.send!({ type: 'append-result', ok: true });
    } catch (error) {
      process.send!({ type: 'append-result', ok: false, ...describe(error) });
    }
  } else if (command.type === 'retry') {
    try {
      const appended = await store.appendMessages(session.id, [
        { role: 'user', content: 'after the server came back' },
      ]);
      const stored = await store.getMessages(session.id);
      process.send!({
        type: 'retry-result',
        ok: true,
        appended: appended.appended,
        contents: stored.map((row) => (row.message as { content: string }).content),
      });
    } catch (error) {
      process.send!({ type: 'retry-result', ok: false, ...describe(error) });
    }
  } else {
    await store.close();
    process.disconnect();
  }
});

process.send!({ type: 'ready', sessionId: session.id });
