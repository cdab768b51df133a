// A long-lived process that opens an on-disk PGlite store on command (see pglite-lock-attack.test.ts):
// `open` at a given wall-clock instant (so two processes race for the folder at the same moment),
// `write` batches of messages until killed, `close`. Every reply carries what the test checks.
import { createSessionStore, type SessionStore } from '../index.js';

type Command =
  | { type: 'open'; dataDir: string; at: number; title: string }
  | { type: 'write'; batch: number }
  | { type: 'close' }
  | { type: 'exit' };

let store: SessionStore | undefined;

function send(message: object): Promise<void> {
  return new Promise((resolve) => process.send!(message, () => resolve()));
}

process.on('message', async (command: Command) => {
  try {
    if (command.type === 'open') {
      // Sleep to just before the instant, then spin: both processes call at the same millisecond.
      const wait = command.at - Date.now() - 5;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      while (Date.now() < command.at) {}
      const startedAt = Date.now();
      try {
        store = await createSessionStore({ dataDir: command.dataDir });
      } catch (error) {
        const failure = error as {
          code?: string;
          reason?: string;
          name?: string;
          message?: string;
        };
        await send({
          type: 'refused',
          startedAt,
          code: failure.code,
          reason: failure.reason,
          name: failure.name,
          message: failure.message,
        });
        return;
      }
      const session = await store.createSession({ title: command.title });
      await store.appendMessages(session.id, [{ role: 'user', content: command.title }], {
        startSequence: 0,
      });
      await send({ type: 'opened', startedAt, sessionId: session.id });
    } else if (command.type === 'write') {
      // Sessions of `batch` messages, each batch one call: a kill lands inside one of them.
      const open = store!;
      await send({ type: 'writing' });
      for (let round = 0; ; round++) {
        const session = await open.createSession({ title: `batch ${round}` });
        const messages = Array.from({ length: command.batch }, (_, index) => ({
          role: 'user' as const,
          content: `message ${index} of batch ${round} ${'x'.repeat(200)}`,
        }));
        await open.appendMessages(session.id, messages, { startSequence: 0 });
        await open.appendMessages(session.id, messages, { startSequence: command.batch });
        process.send!({ type: 'wrote', round });
      }
    } else if (command.type === 'close') {
      await store?.close();
      store = undefined;
      await send({ type: 'closed' });
    } else {
      await store?.close();
      process.disconnect();
    }
  } catch (error) {
    await send({ type: 'failed', message: String(error) });
  }
});

process.send!({ type: 'ready' });
