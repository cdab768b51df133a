import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { CompressionStrategy, ContextManager } from '@baton/compressor';
import {
  contentFingerprint,
  fingerprintMessages,
  hashMessage,
  hashMessageContent,
} from '@baton/compressor/test';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactions, messages as messageRows, type SessionStore, sessions } from './index.js';
import * as restart from './test-utils/restart-attack.js';

/**
 * Attack on what a compaction stores for restarts: the sampled prefix fingerprint hashes short
 * messages whole, so stored bare it lets anyone who reads the store test guesses of a password the
 * redactor took out of a short ask (`my password is …`), offline. Under a record key every stored
 * hash must be sealed by it: the rows of the lineage hold no unkeyed hash of any prefix of the
 * history nor of any message. A restart with the same key still splices the compaction; one with
 * another key (or none) cannot check the seal and must send what a fresh process sends. Rows
 * stored before the seal (a bare fingerprint) still restore. Control: without a key the bare
 * fingerprint is what is stored, and the check above finds it.
 */

/** The store only; every process gets its key (or none) here, not from the helper. */
const startRun = restart.restartStore('stored-fp');

const alnum = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** A weak password, drawn at test time: short enough for an offline guess. */
const password = fc
  .string({ unit: fc.constantFrom(...alnum), minLength: 6, maxLength: 14 })
  .filter((text) => /[a-z]/i.test(text) && /\d/.test(text));

const turns = fc.array(fc.integer({ min: 150, max: 300 }), { minLength: 4, maxLength: 7 });

const newKey = (): Uint8Array => crypto.getRandomValues(new Uint8Array(32));

interface Compacted {
  running: ContextManager;
  history: ModelMessage[];
  /** The raw history the (last) compaction covered. */
  covered: ModelMessage[];
}

/** An app that tells the model a password in a short ask, then runs tool turns until it compacts. */
async function compactWith(
  make: () => ContextManager,
  secret: string,
  sizes: number[],
): Promise<Compacted | undefined> {
  const history: ModelMessage[] = [
    { role: 'system', content: 'You are a git agent.' },
    { role: 'user', content: `my password is ${secret}` },
  ];
  const running = make();
  let covered: ModelMessage[] = [];
  for (const [index, size] of sizes.entries()) {
    history.push({ role: 'user', content: `Push branch ${index}` });
    history.push(...restart.toolTurn(`c${index}`, size, ` done ${index}`));
    const prepared = await running.prepare(history);
    if (prepared.report.compacted) covered = history.slice();
  }
  if (covered.length > 0) return { running, history, covered };
  await running.close();
  return undefined;
}

/** Every row of the lineage rooted at `rootId` (sessions, messages, compactions), as JSON text. */
async function storedRows(store: SessionStore, rootId: string): Promise<string> {
  const lineage = await store.db.select().from(sessions).where(eq(sessions.rootId, rootId));
  const rows: unknown[] = [...lineage];
  for (const session of lineage) {
    rows.push(
      ...(await store.db.select().from(messageRows).where(eq(messageRows.sessionId, session.id))),
      ...(await store.db
        .select()
        .from(compactions)
        .where(eq(compactions.parentSessionId, session.id))),
    );
  }
  return JSON.stringify(rows);
}

/** Each unkeyed hash Baton computes that covers a message of `history`: any prefix, any one message. */
function unkeyedHashes(history: readonly ModelMessage[]): string[] {
  const hashes: string[] = [];
  for (let count = 1; count <= history.length; count++) {
    hashes.push(fingerprintMessages(history, count), contentFingerprint(history, count));
  }
  for (const message of history) {
    hashes.push(
      hashMessage(message),
      hashMessageContent(message),
      fingerprintMessages([message]),
      contentFingerprint([message]),
    );
  }
  return hashes;
}

/** The open head of the lineage: the compaction's child, whose metadata a restart reads. */
async function head(store: SessionStore, rootId: string) {
  const lineage = await store.db.select().from(sessions).where(eq(sessions.rootId, rootId));
  const open = lineage.filter((session) => session.endedAt === null);
  expect(open).toHaveLength(1);
  return open[0]!;
}

const sentText = (sent: { messages: ModelMessage[] }) =>
  sent.messages.map((message) => JSON.stringify(message));

describe('the stored prefix fingerprint under a record key', () => {
  const outcomes: Record<string, number> = {};
  it('stores no unkeyed hash; the same key restores, another key or none starts afresh', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.noBias(turns),
        password,
        restart.anyStrategy,
        fc.constantFrom<'other key' | 'no key'>('other key', 'no key'),
        async (sizes, secret, strategy: CompressionStrategy, other) => {
          const count = (name: string) => restart.tally(outcomes, name);
          const { store, sessionId } = startRun(strategy);
          const key = newKey();
          const make = (with_?: Uint8Array) =>
            restart.restartableManager(store, sessionId, strategy, with_);
          const compacted = await compactWith(() => make(key), secret, sizes);
          if (compacted === undefined) return;
          count('compacted');
          const { running, history, covered } = compacted;
          // (a) Nothing stored can be tested against a guess without the key.
          const rows = await storedRows(store, sessionId);
          if (!rows.includes(secret)) count('secret redacted');
          expect(rows).toContain('prefixFingerprint');
          const leaked = unkeyedHashes(covered).filter((hash) => rows.includes(hash));
          expect(leaked).toEqual([]);
          // (b) The same key: the restarted process splices the compaction, no fork.
          const answered = await restart.answerAfterRestart(
            running,
            () => make(key),
            history,
            outcomes,
            'Done.',
          );
          await running.close();
          if (answered === undefined) return;
          expect(answered.fresh.report.usedCompactedContext).toBe(true);
          expect(sentText(answered.fresh)).toEqual(sentText(answered.kept));
          const lineage = await store.db
            .select()
            .from(sessions)
            .where(eq(sessions.rootId, sessionId));
          expect(lineage.filter((session) => session.endReason === 'branched')).toEqual([]);
          count('restored with the same key');
          // (c) Another key (or none) cannot check the seal: what a process that never saw the
          // history sends, never a false match, no crash.
          history.push({ role: 'user', content: 'And now?' });
          const otherKey = other === 'other key' ? newKey() : undefined;
          const restarted = make(otherKey);
          const sent = await restarted.prepare(history);
          await restarted.close();
          const fresh = restart.restartableManager(store, `${sessionId}-fresh`, strategy, otherKey);
          const expected = await fresh.prepare(history);
          await fresh.close();
          expect(sentText(sent)).toEqual(sentText(expected));
          count(`checked ${other}`);
        },
      ),
      { numRuns: 12 },
    );
    console.info(`keyed fingerprint outcomes: ${JSON.stringify(outcomes)}`);
    // Premises: most runs compact, restore and redact the password (else nothing was tested).
    expect(outcomes.compacted ?? 0).toBeGreaterThan(5);
    expect(outcomes['secret redacted'] ?? 0).toBe(outcomes.compacted);
    expect(outcomes['restored with the same key'] ?? 0).toBeGreaterThan(3);
    expect(outcomes['checked other key'] ?? 0).toBeGreaterThan(0);
    expect(outcomes['checked no key'] ?? 0).toBeGreaterThan(0);
    expect((outcomes['checked other key'] ?? 0) + (outcomes['checked no key'] ?? 0)).toBe(
      outcomes['restored with the same key'],
    );
  }, 600_000);
});

describe('rows stored before the seal, and no key', () => {
  const outcomes: Record<string, number> = {};
  it('a bare stored fingerprint restores (with the key or without one), a wrong one does not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.noBias(turns),
        password,
        restart.anyStrategy,
        async (sizes, secret, strategy: CompressionStrategy) => {
          for (const form of forms) await legacyRun(sizes, secret, strategy, form, outcomes);
        },
      ),
      { numRuns: 6 },
    );
    console.info(`legacy fingerprint outcomes: ${JSON.stringify(outcomes)}`);
    expect(outcomes.compared ?? 0).toBeGreaterThan(5);
    for (const form of forms) expect(outcomes[`checked ${form}`] ?? 0, form).toBeGreaterThan(0);
  }, 600_000);
});

const forms = ['legacy keyed', 'legacy oldest', 'legacy wrong', 'no key'] as const;

async function legacyRun(
  sizes: number[],
  secret: string,
  strategy: CompressionStrategy,
  form: (typeof forms)[number],
  outcomes: Record<string, number>,
): Promise<void> {
  const count = (name: string) => restart.tally(outcomes, name);
  const { store, sessionId } = startRun(strategy);
  const key = form === 'no key' ? undefined : newKey();
  const make = () => restart.restartableManager(store, sessionId, strategy, key);
  const compacted = await compactWith(make, secret, sizes);
  if (compacted === undefined) return;
  const { running, history, covered } = compacted;
  const bare = fingerprintMessages(covered);
  if (form === 'no key') {
    // (e) Control: without a key the old, unkeyed form is stored (the check above finds it).
    const rows = await storedRows(store, sessionId);
    expect(rows).toContain(`"prefixFingerprint":"${bare}"`);
    expect(unkeyedHashes(covered).filter((hash) => rows.includes(hash))).toContain(bare);
  } else {
    // (d) Rewrite the head's metadata as an older version stored it: the bare fingerprint,
    // with the sealed content hash (`legacy keyed`) or from before it existed (`oldest`).
    const child = await head(store, sessionId);
    const baton = { ...(child.metadata?.baton as Record<string, unknown>) };
    baton.prefixFingerprint =
      form === 'legacy wrong' ? `${bare[0] === '0' ? '1' : '0'}${bare.slice(1)}` : bare;
    if (form !== 'legacy keyed') {
      delete baton.prefixContentHash;
      delete baton.rewriteRecipes;
    }
    await store.db
      .update(sessions)
      .set({ metadata: { ...child.metadata, baton } })
      .where(eq(sessions.id, child.id));
  }
  if (form === 'legacy wrong') {
    // A bare fingerprint is checked, not trusted: a wrong one is a different history, answered
    // as a process that never saw it answers.
    await running.close();
    history.push({ role: 'assistant', content: 'Done.' });
    const restarted = make();
    const sent = await restarted.prepare(history);
    await restarted.close();
    const fresh = restart.restartableManager(store, `${sessionId}-fresh`, strategy, key);
    const expected = await fresh.prepare(history);
    await fresh.close();
    expect(sentText(sent)).toEqual(sentText(expected));
  } else {
    const answered = await restart.answerAfterRestart(running, make, history, outcomes, 'Done.');
    await running.close();
    if (answered === undefined) return;
    expect(answered.fresh.report.usedCompactedContext).toBe(true);
    expect(sentText(answered.fresh)).toEqual(sentText(answered.kept));
  }
  count(`checked ${form}`);
}
