import { existsSync, statSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Compaction,
  createSessionStore,
  type Session,
  SessionNotFoundError,
} from '@baton/sessions';
import type { CliIo } from './cli-io.js';
import { formatNumber } from './format-number.js';
import { InputFileError } from './input-file-error.js';
import type { LineageSettings } from './parse-cli-arguments.js';

/** `baton lineage <dataDir> <id>`: the chain root..id with the compaction that ended each session. */
export async function lineageCommand(settings: LineageSettings, io: CliIo): Promise<number> {
  const { dataDir, id } = settings;
  // Opening a folder that is not a store would create one there: check first, so bad input writes nothing.
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) {
    throw new InputFileError({ file: dataDir, message: 'no such directory' });
  }
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new InputFileError({ file: dataDir, message: 'not a PGlite data directory' });
  }
  // Opening a PGlite folder writes to it (pg_control, the write-ahead log) even to read: inspect a
  // throw-away copy so the store itself is never touched. `migrate: false`: an old store is read as it is.
  const copy = await mkdtemp(join(tmpdir(), 'baton-lineage-'));
  let store: Awaited<ReturnType<typeof createSessionStore>>;
  try {
    await cp(dataDir, join(copy, 'store'), { recursive: true });
    store = await createSessionStore({ dataDir: join(copy, 'store'), migrate: false });
  } catch (error) {
    await rm(copy, { recursive: true, force: true });
    throw error;
  }
  try {
    let chain: Session[];
    try {
      chain = await store.lineage(id);
    } catch (error) {
      if (SessionNotFoundError.isInstance(error)) {
        throw new InputFileError({ file: dataDir, message: `no session '${id}'`, cause: error });
      }
      throw error;
    }
    const entries = await Promise.all(
      chain.map(async (session) => ({
        session,
        messages: (await store.getMessages(session.id)).length,
        compaction:
          session.endReason === 'compaction' ? await store.getCompaction(session.id) : undefined,
      })),
    );
    if (settings.json) {
      io.stdout.write(
        `${JSON.stringify({
          dataDir,
          id,
          sessions: entries.map(({ session, messages, compaction }) => ({
            ...session,
            messages,
            compaction: compaction ?? null,
          })),
        })}\n`,
      );
      return 0;
    }
    const lines = [
      `lineage of ${id} (${entries.length} session${entries.length === 1 ? '' : 's'}, oldest first)`,
    ];
    entries.forEach(({ session, messages, compaction }, index) => {
      const state = session.endedAt === null ? 'open' : `ended: ${session.endReason ?? 'closed'}`;
      const details = [
        session.origin,
        `${messages} messages`,
        session.model ? `model ${session.model}` : undefined,
        session.title ? `"${session.title}"` : undefined,
        session.createdAt.toISOString(),
        state,
      ].filter((item) => item !== undefined);
      lines.push(`${index + 1}. ${session.id}  ${details.join(', ')}`);
      if (compaction) lines.push(`   -> ${describeCompaction(compaction)}`);
    });
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await store.close();
    await rm(copy, { recursive: true, force: true });
  }
}

function describeCompaction(compaction: Compaction): string {
  const stages = compaction.stages.length > 1 ? ` (${compaction.stages.join(' -> ')})` : '';
  const fallback = compaction.usedFallback
    ? `, fallback${compaction.fallbackReason ? `: ${compaction.fallbackReason}` : ''}`
    : '';
  return `compacted ${formatNumber(compaction.tokensBefore)} -> ${formatNumber(compaction.tokensAfter)} tokens by ${compaction.strategy}${stages}${fallback}, ${compaction.removedSequences.length} removed, ${compaction.maskedSequences.length} masked`;
}
