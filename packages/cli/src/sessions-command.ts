import type { CliIo } from './cli-io.js';
import { groupBy } from './lineage-tree.js';
import { allSessions, withStoreCopy } from './open-store-copy.js';
import type { SessionsSettings } from './parse-cli-arguments.js';
import { printableText } from './printable-text.js';
import { redactedStoredText } from './redacted-stored-text.js';
import { shownFileName } from './shown-file-name.js';

/** One conversation: a lineage, named by its root. */
export interface ConversationRow {
  rootId: string;
  /** The newest title in the lineage (a compaction child may carry a newer one). */
  title: string | null;
  model: string | null;
  /** Sessions in the lineage. */
  sessions: number;
  /** Messages stored across the lineage (raw history and each compacted child's messages). */
  messages: number;
  compactions: number;
  forks: number;
  /** Open sessions without children: heads where the conversation goes on. */
  openLeaves: string[];
  /** The newest of session creation, end and message times. */
  lastActivity: string;
}

/** `baton sessions <dataDir>`: one row per conversation, newest activity first. */
export async function sessionsCommand(settings: SessionsSettings, io: CliIo): Promise<number> {
  return withStoreCopy(settings.dataDir, async (store) => {
    const sessions = await allSessions(store);
    const lineages = groupBy(sessions, (session) => session.rootId);
    const rows: ConversationRow[] = [];
    for (const [rootId, members] of lineages) {
      const parents = new Set(members.map((session) => session.parentId));
      let messages = 0;
      let last = 0;
      for (const session of members) {
        const stored = await store.getMessages(session.id);
        messages += stored.length;
        last = Math.max(
          last,
          session.createdAt.getTime(),
          session.endedAt?.getTime() ?? 0,
          stored.at(-1)?.createdAt.getTime() ?? 0,
        );
      }
      const newestFirst = [...members].sort(
        (a, b) => b.createdAt.getTime() - a.createdAt.getTime(),
      );
      rows.push({
        rootId,
        title: redactedStoredText(
          newestFirst.find((session) => session.title !== null)?.title ?? null,
        ),
        model: redactedStoredText(
          newestFirst.find((session) => session.model !== null)?.model ?? null,
        ),
        sessions: members.length,
        messages,
        compactions: members.filter((session) => session.endReason === 'compaction').length,
        forks: members.filter((session) => session.origin === 'fork').length,
        openLeaves: members
          .filter((session) => session.endedAt === null && !parents.has(session.id))
          .map((session) => session.id),
        lastActivity: new Date(last).toISOString(),
      });
    }
    rows.sort((a, b) => b.lastActivity.localeCompare(a.lastActivity));
    if (settings.json) {
      io.stdout.write(
        `${JSON.stringify({ dataDir: shownFileName(settings.dataDir), conversations: rows })}\n`,
      );
      return 0;
    }
    if (rows.length === 0) {
      io.stdout.write('no conversations in this store\n');
      return 0;
    }
    const header = [
      'root id',
      'title',
      'model',
      'messages',
      'compactions',
      'forks',
      'last activity',
    ];
    const table = rows.map((row) => [
      row.rootId,
      row.title === null ? '-' : printableText(row.title, 40),
      row.model === null ? '-' : printableText(row.model, 40),
      String(row.messages),
      String(row.compactions),
      String(row.forks),
      row.lastActivity,
    ]);
    const widths = header.map((title, column) =>
      Math.max(title.length, ...table.map((cells) => cells[column]!.length)),
    );
    const numeric = new Set([3, 4, 5]);
    const format = (cells: string[]) =>
      cells
        .map((cell, column) =>
          numeric.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
        )
        .join('  ')
        .trimEnd();
    io.stdout.write(
      `${[format(header), ...table.map(format), `${rows.length} conversation${rows.length === 1 ? '' : 's'}; see one with baton lineage ${shownFileName(settings.dataDir)} <root id or prefix>`].join('\n')}\n`,
    );
    return 0;
  });
}
