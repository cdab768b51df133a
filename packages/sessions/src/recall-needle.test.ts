import type { ModelMessage } from '@ai-sdk/provider-utils';
import { ContextBudgetError, createContextCompressor } from '@baton/compressor';
import { corpusSkipReason, loadTranscripts } from '@baton/test-corpus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionMessage, type SessionStore } from './index.js';
import { messageSearchText } from './message-search-text.js';

/** Probes of each kind taken per transcript, spread evenly over the candidates. */
const perKind = 3;
const errorLine =
  /\b(error|errors|exception|failed|failure|fatal|traceback|panic|denied|not found)\b/i;
const filePath = /(?:[\w@.-]+\/)+[\w@-]+\.[A-Za-z]{1,6}\b/g;

type Kind = 'error line' | 'output line' | 'file path';
interface Probe {
  transcript: string;
  kind: Kind;
  query: string;
}

/** `count` items spread evenly over `list` (first, last and between), without repeats. */
function spread<T>(list: readonly T[], count: number): T[] {
  if (list.length <= count) return [...list];
  return Array.from(
    { length: count },
    (_, index) => list[Math.round((index * (list.length - 1)) / (count - 1))]!,
  );
}

/** A line worth asking for: a sentence-like line, not a rule of dashes or a lone brace. */
function isFactLine(line: string): boolean {
  return line.length >= 20 && line.length <= 200 && (line.match(/[A-Za-z]{2,}/g)?.length ?? 0) >= 3;
}

/**
 * Probes from what the compaction removed and the child does not hold: an error line and an output
 * line of removed tool results, and a file path named only in removed messages.
 */
function probesOf(
  transcript: string,
  history: readonly SessionMessage[],
  removed: readonly number[],
  kept: readonly SessionMessage[],
): Probe[] {
  const keptText = kept
    .map((message) => messageSearchText(message) ?? '')
    .join('\n')
    .toLowerCase();
  const fresh = (value: string) => !keptText.includes(value.toLowerCase());
  const errors = new Set<string>();
  const outputs = new Set<string>();
  const paths = new Set<string>();
  for (const index of removed) {
    const message = history[index]!;
    const text = messageSearchText(message) ?? '';
    for (const match of text.matchAll(filePath)) if (fresh(match[0])) paths.add(match[0]);
    if (message.role !== 'tool') continue;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      if (!isFactLine(line) || !fresh(line)) continue;
      (errorLine.test(line) ? errors : outputs).add(line);
    }
  }
  const kinds: [Kind, Set<string>][] = [
    ['error line', errors],
    ['output line', outputs],
    ['file path', paths],
  ];
  return kinds.flatMap(([kind, set]) =>
    spread([...set], perKind).map((query) => ({ transcript, kind, query })),
  );
}

describe.skipIf(corpusSkipReason !== undefined)('recall needle test on the dev transcripts', () => {
  let store: SessionStore;
  beforeAll(async () => {
    store = await createSessionStore();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it('finds >= 95 % of facts removed by compaction to a quarter, in the top 3 of one recall', async () => {
    const transcripts = loadTranscripts();
    expect(transcripts.length).toBeGreaterThan(0);
    const compressor = createContextCompressor();
    const probes: (Probe & { found: boolean })[] = [];
    let compacted = 0;
    for (const transcript of transcripts) {
      const history = transcript.messages as ModelMessage[];
      const root = await store.createSession({ title: transcript.name });
      await store.appendMessages(root.id, history, { startSequence: 0 });
      const stored = (await store.getMessages<ModelMessage>(root.id)).map((row) => row.message);
      const measured = await compressor.compress(stored, {
        strategy: 'receipt',
        targetTokens: 1e9,
      });
      // A short transcript whose protected minimum (latest ask and reply) exceeds a quarter cannot
      // be compacted that far: it is counted as not compacted, never compacted less.
      const result = await compressor
        .compress(stored, {
          strategy: 'receipt',
          targetTokens: Math.floor(measured.tokensBefore / 4),
        })
        .catch((error: unknown) => {
          if (ContextBudgetError.isInstance(error)) return undefined;
          throw error;
        });
      if (!result) continue;
      const removed = result.event.removedMessageIndexes;
      if (removed.length === 0) continue;
      compacted++;
      const { child } = await store.recordCompaction(root.id, result, {
        expectedMessageCount: stored.length,
      });
      for (const probe of probesOf(transcript.name, stored, removed, result.messages)) {
        const { matches } = await store.recall(child.id, { query: probe.query });
        const found = matches
          .slice(0, 3)
          .some(
            (match) =>
              match.sessionId === root.id &&
              match.excerpt.toLowerCase().includes(probe.query.toLowerCase()),
          );
        probes.push({ ...probe, found });
      }
    }
    const missed = probes.filter((probe) => !probe.found);
    const byKind: Partial<Record<Kind, Probe[]>> = {};
    for (const probe of probes) {
      byKind[probe.kind] ??= [];
      byKind[probe.kind]!.push(probe);
    }
    console.info(
      `[recall needle] ${compacted}/${transcripts.length} transcripts compacted, ${probes.length} probes (${Object.entries(
        byKind,
      )
        .map(([kind, list]) => `${kind}: ${list!.length}`)
        .join(', ')}), ${missed.length} missed`,
    );
    for (const probe of missed.slice(0, 10)) {
      console.info(`  missed ${probe.kind} in ${probe.transcript}: ${probe.query.slice(0, 80)}`);
    }
    // Every kind is represented, so the rate is not carried by one easy kind.
    for (const kind of ['error line', 'output line', 'file path'] as const) {
      expect(byKind[kind]?.length ?? 0).toBeGreaterThan(0);
    }
    expect(compacted).toBeGreaterThan(transcripts.length / 2);
    expect((probes.length - missed.length) / probes.length).toBeGreaterThanOrEqual(0.95);
  }, 420_000);
});
