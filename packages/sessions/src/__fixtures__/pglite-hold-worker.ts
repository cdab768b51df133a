// Opens a store on an on-disk PGlite folder, writes one session, reports it and holds the folder
// open until told to close (or until it is killed). A refused open is reported with its error code.
import { createSessionStore } from '../index.js';

const [dataDir, title] = process.argv.slice(2) as [string, string];
try {
  const store = await createSessionStore({ dataDir });
  const session = await store.createSession({ title });
  await store.appendMessages(session.id, [{ role: 'user', content: title }], { startSequence: 0 });
  process.send?.({ type: 'ready', sessionId: session.id });
  process.on('message', async (message: { type: string }) => {
    if (message.type !== 'close') return;
    await store.close();
    process.send?.({ type: 'closed' });
    process.disconnect();
  });
} catch (error) {
  process.send?.({
    type: 'refused',
    code: (error as { code?: string }).code,
    reason: (error as { reason?: string }).reason,
  });
  process.disconnect();
}
