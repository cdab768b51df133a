import type { SessionStore } from '@baton/sessions';
import { expect } from 'vitest';

/** What identifies a message across the stored (JSON, redacted) form. */
export function signature(message: unknown): string {
  const { role, content } = message as { role: string; content: unknown };
  // A string is one text part: the AI SDK hands a middleware its parts, and the store keeps either.
  const parts = (
    typeof content === 'string' ? [{ type: 'text', text: content }] : content
  ) as Record<string, unknown>[];
  const shown = parts.map((part) =>
    [part.type, part.text, part.toolCallId, JSON.stringify(part.output)].join('|'),
  );
  return `${role}:${shown.join(',')}`;
}

/** The raw history along the lineage of the open head: each session's raw part, cut where the next one's compaction starts. */
export async function storedRawHistory(store: SessionStore, rootId: string): Promise<string[]> {
  const open = (await store.listSessions({ rootId, limit: 1_000 })).filter(
    (session) => session.endedAt === null,
  );
  expect(open).toHaveLength(1);
  const raw: string[] = [];
  for (const session of await store.lineage(open[0]?.id as string)) {
    const baton = (session.metadata?.baton ?? {}) as Record<string, unknown>;
    const covered = session.id === rootId ? 0 : Number(baton.coveredRawCount ?? 0);
    const compacted = session.id === rootId ? 0 : Number(baton.compactedMessageCount ?? 0);
    raw.length = Math.min(raw.length, covered);
    expect(raw).toHaveLength(covered);
    const rows = await store.getMessages(session.id, { fromSequence: compacted });
    raw.push(...rows.map((row) => signature(row.message)));
  }
  return raw;
}

export async function expectOneChildPerParent(store: SessionStore, rootId: string): Promise<void> {
  const all = await store.listSessions({ rootId, includeEnded: true, limit: 1_000 });
  const byParent = new Map<string, number>();
  for (const session of all) {
    if (session.parentId === null) continue;
    byParent.set(session.parentId, (byParent.get(session.parentId) ?? 0) + 1);
  }
  for (const count of byParent.values()) expect(count).toBe(1);
}
