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
  /** The tree drawing: read it with `drawing(node)`. */
  columns: Columns | undefined;
  /** The last child of its parent (drawn └─, else ├─). */
  last: boolean;
}

/**
 * The columns drawn left of a node's children, innermost first, shared with every node below (a
 * linked list, one cell per node): a deep lineage costs one cell per session, not a string as wide
 * as its depth.
 */
interface Columns {
  cell: '   ' | '│  ';
  outer: Columns | undefined;
}

/** Tree drawing before a node's line (`branch`) and before the lines under it (`under`). */
export function drawing(node: TreeNode): { branch: string; under: string } {
  const cells: string[] = [];
  for (let at = node.columns; at !== undefined; at = at.outer) cells.push(at.cell);
  const outer = cells.reverse().join('');
  if (node.depth === 0) return { branch: '', under: '' };
  return {
    branch: `${outer}${node.last ? '└─ ' : '├─ '}`,
    under: `${outer}${node.last ? '   ' : '│  '}`,
  };
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
  const stack: Array<{
    session: Session;
    depth: number;
    columns: Columns | undefined;
    last: boolean;
  }> = [{ session: root, depth: 0, columns: undefined, last: true }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { session, depth, columns, last } = next;
    if (visited.has(session.id)) continue; // a cycle in damaged data: draw each session once
    visited.add(session.id);
    const children = byParent.get(session.id) ?? [];
    nodes.push({
      session,
      depth,
      columns,
      last,
      children: children.map((child) => child.id),
      ancestor: ancestors.has(session.id),
      asked: session.id === asked.id,
      openLeaf: session.endedAt === null && children.length === 0,
    });
    // The children's columns: this node's own, plus its cell when it is below the root.
    const inner: Columns | undefined =
      depth === 0 ? undefined : { cell: last ? '   ' : '│  ', outer: columns };
    for (let index = children.length - 1; index >= 0; index--) {
      stack.push({
        session: children[index]!,
        depth: depth + 1,
        columns: inner,
        last: index === children.length - 1,
      });
    }
  }
  return nodes;
}
