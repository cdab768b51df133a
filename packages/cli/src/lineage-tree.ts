import type { Session } from '@baton/sessions';

/** Items grouped by a key, each group in the items' order: one pass, no copy per item. */
export function groupBy<T, K>(items: Iterable<T>, key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [item]);
    else group.push(item);
  }
  return groups;
}

/** A session's place in the drawn tree of its lineage. */
export interface TreeNode {
  session: Session;
  depth: number;
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
 * The sessions of `asked`'s lineage in drawing order (depth first from the root, children oldest
 * first), each with its tree drawing. Linear in the sessions (plus the sort of them): children are
 * grouped in one pass and the walk is iterative, so a lineage of thousands of compactions, one long
 * chain or one parent with thousands of forks, costs no copy per session and no deep recursion.
 */
export function layoutLineage(sessions: readonly Session[], asked: Session): TreeNode[] {
  const byParent = groupBy(
    [...sessions].sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
    ),
    (session) => (session.id === asked.rootId ? null : session.parentId),
  );
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const ancestors = new Set<string>();
  for (
    let at: Session | undefined = asked;
    at && !ancestors.has(at.id);
    at = at.parentId ? byId.get(at.parentId) : undefined
  ) {
    ancestors.add(at.id);
    if (at.id === asked.rootId) break;
  }
  const nodes: TreeNode[] = [];
  const root = byId.get(asked.rootId);
  if (root === undefined) return nodes;
  const visited = new Set<string>();
  // A stack of what is left to draw; children pushed last-first so the oldest is drawn first.
  const stack: Array<{ session: Session; depth: number; branch: string; under: string }> = [
    { session: root, depth: 0, branch: '', under: '' },
  ];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { session, depth, branch, under } = next;
    if (visited.has(session.id)) continue; // a cycle in damaged data: draw each session once
    visited.add(session.id);
    const children = byParent.get(session.id) ?? [];
    nodes.push({
      session,
      depth,
      branch,
      under,
      children: children.map((child) => child.id),
      ancestor: ancestors.has(session.id),
      asked: session.id === asked.id,
      openLeaf: session.endedAt === null && children.length === 0,
    });
    for (let index = children.length - 1; index >= 0; index--) {
      const last = index === children.length - 1;
      stack.push({
        session: children[index]!,
        depth: depth + 1,
        branch: `${under}${last ? '└─ ' : '├─ '}`,
        under: `${under}${last ? '   ' : '│  '}`,
      });
    }
  }
  return nodes;
}
