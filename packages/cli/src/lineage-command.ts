import { type Compaction, type Session, SessionNotFoundError } from '@baton/sessions';
import type { CliIo } from './cli-io.js';
import { formatNumber } from './format-number.js';
import { InputFileError } from './input-file-error.js';
import { allSessions, withStoreCopy } from './open-store-copy.js';
import type { LineageSettings } from './parse-cli-arguments.js';
import { printableText } from './printable-text.js';
import { redactedStoredText } from './redacted-stored-text.js';
import { withheldValue } from './safe-error-text.js';

/** Shortest id prefix accepted (the demo shows 8 characters). */
const MIN_PREFIX = 4;

interface TreeEntry {
  session: Session;
  depth: number;
  messages: number;
  compaction: Compaction | undefined;
  children: string[];
  /** On the path from the root to the session asked for. */
  ancestor: boolean;
  asked: boolean;
  /** An open session with no children: where the conversation goes on. */
  openLeaf: boolean;
  /** Tree drawing before the session's line, and before the lines under it. */
  branch: string;
  under: string;
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
    const byParent = new Map<string | null, Session[]>();
    for (const session of [...sessions].sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
    )) {
      const parent = session.id === asked.rootId ? null : session.parentId;
      byParent.set(parent, [...(byParent.get(parent) ?? []), session]);
    }
    const ancestors = new Set<string>();
    const byId = new Map(sessions.map((session) => [session.id, session]));
    for (
      let at: Session | undefined = asked;
      at;
      at = at.parentId ? byId.get(at.parentId) : undefined
    ) {
      ancestors.add(at.id);
      if (at.id === asked.rootId) break;
    }
    const entries: TreeEntry[] = [];
    const visit = async (session: Session, depth: number, branch: string, under: string) => {
      const children = byParent.get(session.id) ?? [];
      entries.push({
        branch,
        under,
        session,
        depth,
        messages: (await store.getMessages(session.id)).length,
        compaction:
          session.endReason === 'compaction' ? await store.getCompaction(session.id) : undefined,
        children: children.map((child) => child.id),
        ancestor: ancestors.has(session.id),
        asked: session.id === asked.id,
        openLeaf: session.endedAt === null && children.length === 0,
      });
      for (const [index, child] of children.entries()) {
        const last = index === children.length - 1;
        await visit(
          child,
          depth + 1,
          `${under}${last ? '└─ ' : '├─ '}`,
          `${under}${last ? '   ' : '│  '}`,
        );
      }
    };
    const root = byId.get(asked.rootId);
    if (root) await visit(root, 0, '', '');

    if (settings.json) {
      io.stdout.write(
        `${JSON.stringify({
          dataDir,
          id: asked.id,
          rootId: asked.rootId,
          chain: entries.filter((entry) => entry.ancestor).map((entry) => entry.session.id),
          sessions: entries.map(({ session, compaction, branch: _, under: __, ...entry }) => ({
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
      lines.push(`${entry.branch}${entry.asked ? '>> ' : ''}${session.id}  ${details.join(', ')}`);
      if (entry.compaction) {
        const pipe = entry.children.length > 0 ? '│  ' : '   ';
        lines.push(`${entry.under}${pipe}${describeCompaction(entry.compaction)}`);
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
