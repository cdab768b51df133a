import type { SessionStore } from '@baton/sessions';

/**
 * The session a conversation goes on in: `resume` follows compactions, then, where the middleware
 * ended that head for a branch, the fork it opened (`metadata.baton.branchOf`), and so on. `resume`
 * alone stops at the ended head, which lacks every message sent since the branch.
 */
export async function currentHead(
  store: SessionStore,
  sessionId: string,
): Promise<{ id: string; branches: number }> {
  let head = (await store.resume(sessionId)).session;
  let branches = 0;
  while (head.endReason === 'branched') {
    const sessions = await store.listSessions({
      rootId: head.rootId,
      includeEnded: true,
      limit: 10_000,
    });
    const branch = sessions.find(
      (session) =>
        session.parentId === head.id &&
        (session.metadata?.baton as { branchOf?: unknown } | undefined)?.branchOf === head.id,
    );
    if (branch === undefined) break;
    head = (await store.resume(branch.id)).session;
    branches++;
  }
  return { id: head.id, branches };
}
