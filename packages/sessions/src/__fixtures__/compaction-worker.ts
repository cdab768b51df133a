// A separate OS process that compacts on command (see compaction-concurrency.test.ts).
import { createSessionStore } from '../index.js';

interface CompactCommand {
  type: 'compact';
  round: number;
  parentId: string;
}

const store = await createSessionStore({
  connectionString: process.argv[2]!,
  migrate: false,
  maxConnections: 2,
});

process.on('message', async (command: CompactCommand | { type: 'close' }) => {
  if (command.type === 'close') {
    await store.close();
    process.disconnect();
    return;
  }
  const startedAt = performance.timeOrigin + performance.now();
  try {
    const { child } = await store.recordCompaction(command.parentId, {
      messages: [
        { role: 'user', content: `summary written by worker ${process.pid}` },
        { role: 'user', content: 'latest ask' },
      ],
      summary: `summary written by worker ${process.pid}`,
      strategy: 'summarize',
      usedFallback: false,
      tokensBefore: 100,
      tokensAfter: 20,
    });
    process.send!({
      round: command.round,
      ok: true,
      childId: child.id,
      startedAt,
      endedAt: performance.timeOrigin + performance.now(),
    });
  } catch (error) {
    const failure = error as { code?: string; childSessionId?: string; message?: string };
    process.send!({
      round: command.round,
      ok: false,
      code: failure.code,
      childSessionId: failure.childSessionId,
      message: failure.message,
      startedAt,
      endedAt: performance.timeOrigin + performance.now(),
    });
  }
});

process.send!({ type: 'ready', pid: process.pid });
