import type { Session } from '@baton/sessions';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawing, groupBy, layoutLineage } from './lineage-tree.js';

type Drawn = Omit<ReturnType<typeof layoutLineage>[number], 'columns' | 'last'> & {
  branch: string;
  under: string;
};

/** The layout with each node's drawing read out, as the recursive drawing kept it. */
function drawn(sessions: readonly Session[], asked: Session): Drawn[] {
  return layoutLineage(sessions, asked).map((node) => {
    const { columns: _, last: __, ...rest } = node;
    return { ...rest, ...drawing(node) };
  });
}

/**
 * A lineage of `parents.length + 1` sessions: session i + 1 hangs under `parents[i]` (an index
 * below it). Creation times may tie, so the id order breaks ties as the command does.
 */
function lineage(parents: readonly number[], times: readonly number[] = []): Session[] {
  const id = (index: number) => `s${String(index).padStart(7, '0')}`;
  const sessions: Session[] = [];
  const childCount = new Map<number, number>();
  for (const parent of parents) childCount.set(parent, (childCount.get(parent) ?? 0) + 1);
  for (let index = 0; index <= parents.length; index++) {
    const parent = index === 0 ? null : parents[index - 1]!;
    const ended = childCount.has(index) && index % 3 !== 2;
    sessions.push({
      id: id(index),
      parentId: parent === null ? null : id(parent),
      rootId: id(0),
      origin: parent === null ? 'root' : index % 5 === 0 ? 'fork' : 'compaction',
      createdAt: new Date(1_700_000_000_000 + (times[index] ?? index)),
      endedAt: ended ? new Date(1_800_000_000_000) : null,
      endReason: ended ? 'compaction' : null,
      model: null,
      title: null,
      metadata: null,
    } as Session);
  }
  return sessions;
}

/** The drawing as the command made it before: recursive, children grouped by copying. */
function reference(sessions: readonly Session[], asked: Session): Drawn[] {
  const byParent = new Map<string | null, Session[]>();
  for (const session of [...sessions].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
  )) {
    const parent = session.id === asked.rootId ? null : session.parentId;
    byParent.set(parent, [...(byParent.get(parent) ?? []), session]);
  }
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const ancestors = new Set<string>();
  for (
    let at: Session | undefined = asked;
    at;
    at = at.parentId ? byId.get(at.parentId) : undefined
  ) {
    ancestors.add(at.id);
    if (at.id === asked.rootId) break;
  }
  const nodes: Drawn[] = [];
  const visit = (session: Session, depth: number, branch: string, under: string) => {
    const children = byParent.get(session.id) ?? [];
    const ids = children.map((child) => child.id);
    const marks = { asked: session.id === asked.id, ancestor: ancestors.has(session.id) };
    const openLeaf = session.endedAt === null && ids.length === 0;
    nodes.push({ ...marks, openLeaf, children: ids, session, depth, branch, under });
    children.forEach((child, index) => {
      const last = index === children.length - 1;
      visit(child, depth + 1, `${under}${last ? '└─ ' : '├─ '}`, `${under}${last ? '   ' : '│  '}`);
    });
  };
  const root = byId.get(asked.rootId);
  if (root) visit(root, 0, '', '');
  return nodes;
}

/** Any tree shape: each session's parent drawn among those before it, biased neither way. */
const shapes = fc
  .integer({ min: 0, max: 60 })
  .chain((size) =>
    fc.tuple(
      fc.tuple(...Array.from({ length: size }, (_, index) => fc.integer({ min: 0, max: index }))),
      fc.array(fc.integer({ min: 0, max: 5 }), { minLength: size + 1, maxLength: size + 1 }),
      fc.integer({ min: 0, max: size }),
    ),
  );

describe('layoutLineage', () => {
  it('draws every tree as the recursive drawing did (order, depth, branches, marks)', () => {
    let forks = 0;
    fc.assert(
      fc.property(fc.noBias(shapes), ([parents, times, askedIndex]) => {
        const sessions = lineage(parents, times);
        const asked = sessions[askedIndex]!;
        if (new Set(parents).size < parents.length) forks++;
        expect(drawn(sessions, asked)).toEqual(reference(sessions, asked));
      }),
      { numRuns: 300 },
    );
    // Premise: trees with a parent of several children (drawn with ├─) were among the cases.
    expect(forks).toBeGreaterThan(30);
  });

  it('control: a chain stays one session per depth, the asked one and its ancestors marked', () => {
    const sessions = lineage([0, 1, 2, 3]);
    const nodes = drawn(sessions, sessions[2]!);
    expect(nodes.map((node) => node.depth)).toEqual([0, 1, 2, 3, 4]);
    expect(nodes.map((node) => node.ancestor)).toEqual([true, true, true, false, false]);
    expect(nodes.map((node) => node.branch)).toEqual([
      '',
      '└─ ',
      '   └─ ',
      '      └─ ',
      '         └─ ',
    ]);
  });
});

/**
 * CPU milliseconds of the fastest sample of each piece of work (a sample runs it `repeat` times),
 * samples interleaved after a warm-up. Sizes that fit in the CPU's caches keep memory effects (which
 * grow with the working set, not with the algorithm) out of the ratio.
 */
function cpuMs(works: Array<() => void>, rounds = 7, repeat = 10): number[] {
  const best = works.map(() => Number.POSITIVE_INFINITY);
  for (let round = -1; round < rounds; round++) {
    works.forEach((work, index) => {
      const start = process.cpuUsage();
      for (let time = 0; time < repeat; time++) work();
      const used = process.cpuUsage(start);
      if (round >= 0) best[index] = Math.min(best[index]!, (used.user + used.system) / 1000);
    });
  }
  return best;
}

/**
 * Growth, not a timed threshold: four times the sessions must cost less than eight times the CPU.
 * Linear work grows 4x (plus the sort's log); a copy per session (the grouping as it was) grows 16x.
 */
describe('lineage work grows linearly with the lineage', () => {
  const small = 1_500;
  const shapesBySize: Record<string, (size: number) => number[]> = {
    'one parent with every other session a fork of it': (size) =>
      Array.from({ length: size }, () => 0),
    'a random tree': (size) =>
      Array.from({ length: size }, (_, index) => Math.floor(Math.random() * (index + 1))),
  };
  for (const [shape, parentsOf] of Object.entries(shapesBySize)) {
    it(`layoutLineage and groupBy: ${shape}`, () => {
      const sizes = [small, small * 4];
      const costs = cpuMs(
        sizes.map((size) => {
          const sessions = lineage(parentsOf(size));
          const asked = sessions.at(-1)!;
          return () => {
            const nodes = layoutLineage(sessions, asked);
            expect(nodes).toHaveLength(size + 1);
            const lineages = groupBy(sessions, (session) => session.rootId);
            expect(lineages.get(asked.rootId)).toHaveLength(size + 1);
          };
        }),
        7,
        // The CPU clock ticks every few ms here: the small size must take tens of ms per round,
        // or a single tick decides the ratio (3.8 -> 30.7 ms failed a CI run at 8.03x).
        100,
      );
      const ratio = costs[1]! / Math.max(costs[0]!, 0.5);
      console.info(`[cli] ${shape}: CPU ms ${costs.map((cost) => cost.toFixed(1)).join(' -> ')}`);
      expect(ratio, `CPU ms ${costs.map((cost) => cost.toFixed(1)).join(' -> ')}`).toBeLessThan(8);
    }, 120_000);
  }
});
