import { type Compaction, type Session, SessionNotFoundError } from '@baton/sessions';
import type { CliIo } from './cli-io.js';
import { formatNumber } from './format-number.js';
import { InputFileError } from './input-file-error.js';
import { drawing, layoutLineage, type TreeNode } from './lineage-tree.js';
import { allSessions, withStoreCopy } from './open-store-copy.js';
import type { LineageSettings } from './parse-cli-arguments.js';
import { printableText } from './printable-text.js';
import { redactedStoredText } from './redacted-stored-text.js';
import { withheldValue } from './safe-error-text.js';
import { shownFileName } from './shown-file-name.js';

/** Shortest id prefix accepted (the demo shows 8 characters). */
const MIN_PREFIX = 4;

interface TreeEntry extends TreeNode {
  messages: number;
  compaction: Compaction | undefined;
}

/**
 * `baton lineage <dataDir> <id>`: the whole tree of the lineage around `id` (a full id or a unique
 * prefix): its ancestors, its descendants and the other branches, forks marked, the open leaf
 * highlighted, with the compaction that ended each compacted session.
 */
export async function lineageCommand(settings: LineageSettings, io: CliIo): Promise<number> {
  const { dataDir } = settings;
  return withStoreCopy(dataDir, async (store) => {
    const asked = await findSession(store, settings.id, dataDir);
    const sessions = await allSessions(store, asked.rootId);
    const entries: TreeEntry[] = [];
    for (const node of layoutLineage(sessions, asked)) {
      const { session } = node;
      // Keys in the order `--json` has always printed them.
      entries.push({
        columns: node.columns,
        last: node.last,
        session,
        depth: node.depth,
        messages: (await store.getMessages(session.id)).length,
        compaction:
          session.endReason === 'compaction' ? await store.getCompaction(session.id) : undefined,
        children: node.children,
        ancestor: node.ancestor,
        asked: node.asked,
        openLeaf: node.openLeaf,
      });
    }

    if (settings.json) {
      io.stdout.write(
        `${JSON.stringify({
          dataDir: shownFileName(dataDir),
          id: asked.id,
          rootId: asked.rootId,
          chain: entries.filter((entry) => entry.ancestor).map((entry) => entry.session.id),
          sessions: entries.map(({ session, compaction, columns: _, last: __, ...entry }) => ({
            ...session,
            title: redactedStoredText(session.title),
            model: redactedStoredText(session.model),
            ...entry,
            fork: session.origin === 'fork',
            compaction:
              compaction === undefined
                ? null
                : { ...compaction, fallbackReason: redactedStoredText(compaction.fallbackReason) },
          })),
        })}\n`,
      );
      return 0;
    }
    const open = entries.filter((entry) => entry.openLeaf).length;
    const lines = [
      `lineage of ${asked.id}: ${entries.length} session${entries.length === 1 ? '' : 's'} from root ${asked.rootId}, ${open} open ${open === 1 ? 'leaf' : 'leaves'} (>> marks the session asked for, * the open leaf)`,
    ];
    for (const entry of entries) {
      const { session } = entry;
      const state =
        session.endedAt === null
          ? entry.openLeaf
            ? '* OPEN LEAF'
            : 'open'
          : `ended: ${session.endReason ?? 'closed'}`;
      const details = [
        session.origin === 'fork' ? 'FORK' : session.origin,
        `${entry.messages} message${entry.messages === 1 ? '' : 's'}`,
        session.model ? `model ${printableText(redactedStoredText(session.model), 80)}` : undefined,
        session.title ? `"${printableText(redactedStoredText(session.title), 80)}"` : undefined,
        session.createdAt.toISOString(),
        state,
      ].filter((item) => item !== undefined);
      // As wide as the session is deep: drawn line by line, never kept for the whole tree.
      const { branch, under } = drawing(entry);
      lines.push(`${branch}${entry.asked ? '>> ' : ''}${session.id}  ${details.join(', ')}`);
      if (entry.compaction) {
        const pipe = entry.children.length > 0 ? '│  ' : '   ';
        lines.push(`${under}${pipe}${describeCompaction(entry.compaction)}`);
      }
    }
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  });
}

/** The session with this id, or the one session whose id starts with it (also used by `recall`). */
export async function findSession(
  store: Parameters<Parameters<typeof withStoreCopy>[1]>[0],
  id: string,
  dataDir: string,
): Promise<Session> {
  try {
    return await store.getSession(id);
  } catch (error) {
    if (!SessionNotFoundError.isInstance(error)) throw error;
  }
  const matches =
    id.length >= MIN_PREFIX
      ? (await allSessions(store)).filter((session) => session.id.startsWith(id))
      : [];
  if (matches.length === 1) return matches[0]!;
  throw new InputFileError({
    file: dataDir,
    message:
      matches.length > 1
        ? `${matches.length} sessions start with the id given (${withheldValue(id)}): give more characters`
        : `no session has the id given or starts with it (${withheldValue(id)}${id.length < MIN_PREFIX ? `; a prefix needs ${MIN_PREFIX} characters or more` : ''})`,
  });
}

function describeCompaction(compaction: Compaction): string {
  const stages = compaction.stages.length > 1 ? ` (${compaction.stages.join(' -> ')})` : '';
  const fallback = compaction.usedFallback
    ? `, fallback${compaction.fallbackReason ? `: ${printableText(redactedStoredText(compaction.fallbackReason), 120)}` : ''}`
    : '';
  return `compacted ${formatNumber(compaction.tokensBefore)} -> ${formatNumber(compaction.tokensAfter)} tokens by ${compaction.strategy}${stages}${fallback}, ${compaction.removedSequences.length} removed, ${compaction.maskedSequences.length} masked`;
}
