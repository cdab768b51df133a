// Opens a store on an on-disk PGlite folder from a worker thread of the test's own process and
// reports whether it was refused: worker threads share the process (and its pid) but not its globals.
import { parentPort, workerData } from 'node:worker_threads';
import { createSessionStore } from '../index.js';

// `hold`: keep the store open (the test terminates the thread with it open).
const { dataDir, hold } = workerData as { dataDir: string; hold?: boolean };
try {
  const store = await createSessionStore({ dataDir });
  await store.createSession({ title: 'from a worker thread' });
  if (!hold) await store.close();
  parentPort?.postMessage({ type: 'opened' });
} catch (error) {
  parentPort?.postMessage({
    type: 'refused',
    code: (error as { code?: string }).code,
    reason: (error as { reason?: string }).reason,
  });
}
