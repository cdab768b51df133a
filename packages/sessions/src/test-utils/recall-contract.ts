import { BatonError, InvalidInputError } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  RecallQueryError,
  RecallRangeError,
  recallQueryMaxLength,
  type SessionMessage,
  SessionNotFoundError,
  type SessionStore,
} from '../index.js';

const token = () => crypto.randomUUID().replaceAll('-', '').slice(0, 12);

/** A conversation of `n` ordinary turns; the caller plants what it searches for. */
function chatter(n: number): SessionMessage[] {
  return Array.from({ length: n }, (_, index) =>
    index % 2 === 0
      ? { role: 'user', content: `please continue with step ${index} of the plan` }
      : { role: 'assistant', content: [{ type: 'text', text: `done with step ${index}` }] },
  );
}

function toolTurn(id: string, toolName: string, input: unknown, output: string): SessionMessage[] {
  return [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName, input }],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: id, toolName, output: { type: 'text', value: output } },
      ],
    },
  ];
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to throw');
    },
    (error: unknown) => error,
  );
}

/** Recall cases of the store contract; `getStore` returns the file's shared store. */
export function describeRecallContract(getStore: () => SessionStore) {
  describe('recall', () => {
    /** A root holding `history`, compacted to its first and last two messages; returns both ids. */
    async function compacted(history: SessionMessage[]) {
      const store = getStore();
      const root = await store.createSession();
      await store.appendMessages(root.id, history, { startSequence: 0 });
      const removed = Array.from({ length: history.length - 3 }, (_, index) => index + 1);
      const { child } = await store.recordCompaction(root.id, {
        messages: [history[0]!, { role: 'user', content: 'Summary.' }, ...history.slice(-2)],
        summary: 'Summary.',
        strategy: 'summarize',
        usedFallback: false,
        tokensBefore: 100,
        tokensAfter: 10,
        event: { removedMessageIndexes: removed },
      });
      return { rootId: root.id, childId: child.id };
    }

    it('finds a message a compaction removed, from the child, with its position and tool name', async () => {
      const path = `src/${token()}/handler.ts`;
      const history = [
        ...chatter(6),
        ...toolTurn('c1', 'readFile', { path }, `export const handler = 1; // ${path}`),
        ...chatter(6),
      ];
      const { rootId, childId } = await compacted(history);
      const { matches, searchedSessionIds } = await getStore().recall(childId, { query: path });
      expect(searchedSessionIds).toEqual([rootId, childId]);
      expect(matches.length).toBeGreaterThan(0);
      // The call (its input names the path) and the result both hold it verbatim.
      expect(
        matches
          .slice(0, 2)
          .map((match) => match.sequence)
          .sort(),
      ).toEqual([6, 7]);
      const result = matches.find((match) => match.sequence === 7)!;
      expect(result).toMatchObject({
        sessionId: rootId,
        role: 'tool',
        toolName: 'readFile',
        matchedBy: 'exact',
      });
      expect(result.excerpt).toContain(path);
      const text = `readFile\nexport const handler = 1; // ${path}`;
      expect(result.textLength).toBe(text.length);
      expect(text.slice(result.excerptStart, result.excerptEnd)).toBe(result.excerpt);
    });

    it('full-text search matches words in another order and form; exact matches rank first', async () => {
      const word = `zq${token()}`;
      const history = [
        ...chatter(4),
        {
          role: 'user',
          content: `The ${word} deployment failed because the migrations timed out.`,
        },
        ...chatter(4),
        { role: 'user', content: `${word} migration failed` },
        ...chatter(4),
      ];
      const { childId } = await compacted(history);
      const { matches } = await getStore().recall(childId, { query: `${word} migration failed` });
      expect(matches.map((match) => [match.sequence, match.matchedBy])).toEqual([
        [9, 'exact'],
        [4, 'text'],
      ]);
      expect(matches[1]!.excerpt).toContain(word);
      expect(matches[1]!.rank).toBeGreaterThan(0);
    });

    it('finds identifiers and error codes that text search splits up, verbatim and case-insensitively', async () => {
      const code = `ERR_${token().toUpperCase()}_E2BIG`;
      const identifier = `pkg.${token()}::Resolver<T>#resolve(a_b-c)`;
      const history = [
        ...chatter(4),
        ...toolTurn(
          'c1',
          'bash',
          { command: 'pnpm build' },
          `error ${code}: argument list too long`,
        ),
        ...chatter(2),
        { role: 'assistant', content: [{ type: 'text', text: `calling ${identifier} next` }] },
        ...chatter(4),
      ];
      const { rootId, childId } = await compacted(history);
      const store = getStore();
      const byCode = await store.recall(childId, { query: code.toLowerCase() });
      expect(byCode.matches[0]).toMatchObject({ sessionId: rootId, sequence: 5, toolName: 'bash' });
      const byIdentifier = await store.recall(childId, { query: identifier });
      expect(byIdentifier.matches[0]).toMatchObject({ sequence: 8, matchedBy: 'exact' });
    });

    it('finds a path that text search parses differently inside a longer one (the verbatim scan)', async () => {
      const folder = token();
      const history = [
        ...chatter(3),
        ...toolTurn('c1', 'ls', {}, `/home/dev/repo/src/${folder}/index.ts:12:3 - unused import`),
        ...chatter(3),
      ];
      const { childId } = await compacted(history);
      const { matches } = await getStore().recall(childId, { query: `src/${folder}/index.ts` });
      expect(matches.map((match) => [match.sequence, match.matchedBy])).toEqual([[4, 'exact']]);
    });

    it('finds a line that text search reads as operators, among many other full-text hits', async () => {
      const word = `v${token()}`;
      const history = [
        ...chatter(2),
        // Full-text hits for the query with its leading "- " read as negation: more than a page.
        ...Array.from({ length: 8 }, (_, index) => ({
          role: 'user' as const,
          content: `${word} errors ${index} when the tool fails`,
        })),
        { role: 'user' as const, content: `notes:\n- Tracks ${word} errors if tool fails` },
        ...chatter(2),
      ];
      const { childId } = await compacted(history);
      const { matches } = await getStore().recall(childId, {
        query: `- Tracks ${word} errors if tool fails`,
      });
      expect(matches[0]).toMatchObject({ sequence: 10, matchedBy: 'exact' });
    });

    it('treats LIKE wildcards and backslashes in the query literally', async () => {
      const marker = token();
      const history = [
        ...chatter(3),
        { role: 'user', content: `${marker} 100 percent done` },
        { role: 'user', content: `${marker} 1000Xdone` },
        { role: 'user', content: `${marker} C:\\temp\\${marker}` },
        ...chatter(3),
      ];
      const { childId } = await compacted(history);
      const store = getStore();
      expect((await store.recall(childId, { query: '0%_done' })).matches).toEqual([]);
      const slash = await store.recall(childId, { query: `\\temp\\${marker}` });
      expect(slash.matches.map((match) => [match.sequence, match.matchedBy])).toEqual([
        [5, 'exact'],
      ]);
    });

    it('cuts a bounded excerpt around a match deep inside a large tool output', async () => {
      const needle = `needle-${token()}`;
      const filler = 'lorem ipsum dolor sit amet '.repeat(4_000);
      const output = `${filler}${needle}${filler}`;
      const history = [...chatter(3), ...toolTurn('c1', 'cat', {}, output), ...chatter(3)];
      const { childId } = await compacted(history);
      const { matches } = await getStore().recall(childId, { query: needle, excerptLength: 120 });
      expect(matches[0]!.excerpt.length).toBeLessThanOrEqual(120);
      expect(matches[0]!.excerpt).toContain(needle);
      expect(matches[0]!.excerptStart).toBeGreaterThan(filler.length - 120);
      expect(matches[0]!.textLength).toBe('cat\n'.length + output.length);
    });

    it('returns a sequence range of any session of the lineage, in order, and honours limit', async () => {
      const history = chatter(12);
      const { rootId, childId } = await compacted(history);
      const store = getStore();
      const range = await store.recall(childId, {
        rangeSessionId: rootId,
        fromSequence: 2,
        toSequence: 4,
      });
      expect(range.matches.map((match) => [match.sequence, match.matchedBy])).toEqual([
        [2, 'range'],
        [3, 'range'],
        [4, 'range'],
      ]);
      expect(range.matches[0]!.excerpt).toBe('please continue with step 2 of the plan');
      // A query within a range searches only there.
      const inRange = await store.recall(childId, {
        query: 'step',
        rangeSessionId: rootId,
        fromSequence: 5,
        toSequence: 8,
        limit: 2,
      });
      expect(inRange.matches).toHaveLength(2);
      for (const match of inRange.matches) {
        expect(match.sequence).toBeGreaterThanOrEqual(5);
        expect(match.sequence).toBeLessThanOrEqual(8);
      }
      // A range running past the end is cut at the end.
      const tail = await store.recall(rootId, { fromSequence: 10, toSequence: 99 });
      expect(tail.matches.map((match) => match.sequence)).toEqual([10, 11]);
    });

    it('searches ancestors only: a sibling fork and a descendant are not in the lineage', async () => {
      const store = getStore();
      const word = `w${token()}`;
      const root = await store.createSession();
      await store.appendMessages(root.id, chatter(3));
      const left = await store.fork(root.id);
      const right = await store.fork(root.id);
      await store.appendMessages(left.id, [{ role: 'user', content: `left ${word}` }]);
      await store.appendMessages(right.id, [{ role: 'user', content: `right ${word}` }]);
      const fromLeft = await store.recall(left.id, { query: word });
      expect(fromLeft.matches.map((match) => match.sessionId)).toEqual([left.id]);
      expect((await store.recall(root.id, { query: word })).matches).toEqual([]);
      // The fork's copied messages are searchable as its own.
      const copied = await store.recall(left.id, { query: 'step 2', rangeSessionId: left.id });
      expect(copied.matches[0]).toMatchObject({ sessionId: left.id, sequence: 2 });
    });

    it('keeps NUL characters and lone surrogates in messages searchable', async () => {
      const word = `b${token()}`;
      const history = [
        ...chatter(3),
        ...toolTurn('c1', 'read', {}, `\u0000\ud800binary ${word}\u0000`),
        ...chatter(3),
      ];
      const { childId } = await compacted(history);
      const { matches } = await getStore().recall(childId, { query: word });
      expect(matches[0]).toMatchObject({ sequence: 4, matchedBy: 'exact' });
      expect(matches[0]!.excerpt).not.toContain('\u0000');
    });

    it('refuses bad input with typed errors that never repeat the query', async () => {
      const store = getStore();
      const { rootId, childId } = await compacted(chatter(8));
      const other = await store.createSession();
      const secret = `sk-${token()}${token()}`;
      const cases: [() => Promise<unknown>, (error: unknown) => boolean, string?][] = [
        [() => store.recall(`missing-${token()}`, { query: 'x' }), SessionNotFoundError.isInstance],
        [() => store.recall(childId, { query: '' }), RecallQueryError.isInstance, 'empty'],
        [() => store.recall(childId, { query: ' \n\t ' }), RecallQueryError.isInstance, 'empty'],
        [
          () => store.recall(childId, { query: secret.repeat(recallQueryMaxLength) }),
          RecallQueryError.isInstance,
          'too_long',
        ],
        [() => store.recall(childId, { query: `${secret}\u0000` }), RecallQueryError.isInstance],
        [() => store.recall(childId, {}), RecallQueryError.isInstance, 'missing'],
        [
          () => store.recall(childId, { query: secret, rangeSessionId: other.id, fromSequence: 0 }),
          RecallRangeError.isInstance,
        ],
        [
          () => store.recall(childId, { rangeSessionId: rootId, fromSequence: 8 }),
          RecallRangeError.isInstance,
        ],
        [
          () => store.recall(childId, { rangeSessionId: rootId, fromSequence: 5, toSequence: 2 }),
          RecallRangeError.isInstance,
        ],
        [() => store.recall(childId, { query: secret, limit: 0 }), InvalidInputError.isInstance],
        [
          () => store.recall(childId, { query: secret, fromSequence: -1 }),
          InvalidInputError.isInstance,
        ],
        [
          () => store.recall(childId, null as unknown as { query: string }),
          InvalidInputError.isInstance,
        ],
      ];
      for (const [call, isInstance, problem] of cases) {
        const error = await rejection(call());
        expect(isInstance(error), String(error)).toBe(true);
        expect(String((error as Error).message)).not.toContain(secret);
        if (problem) expect((error as RecallQueryError).problem).toBe(problem);
      }
      const range = (await rejection(
        store.recall(childId, { rangeSessionId: rootId, fromSequence: 8 }),
      )) as RecallRangeError;
      expect(range).toMatchObject({ rangeSessionId: rootId, messageCount: 8 });
    });

    it('any query string returns matches or a typed error, never a driver error', async () => {
      const { childId } = await compacted([
        ...chatter(3),
        { role: 'user', content: 'a & b | !c <-> "d" (e:*) \\ % _ \' ; -- f' },
        ...chatter(3),
      ]);
      const store = getStore();
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ unit: 'binary', maxLength: 40 }),
            fc.stringMatching(/^[a-z&|!<>:*()"'\\%_ -]{1,30}$/),
          ),
          async (query) => {
            const outcome = await store.recall(childId, { query }).then(
              (result) => result,
              (error: unknown) => error,
            );
            if (outcome instanceof Error) {
              expect(BatonError.isInstance(outcome), String(outcome)).toBe(true);
            } else {
              expect((outcome as { matches: unknown[] }).matches.length).toBeLessThanOrEqual(5);
            }
          },
        ),
        { numRuns: 60 },
      );
    }, 60_000);
  });
}
