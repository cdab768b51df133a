import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createContextCompressor } from '@baton/compressor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionStore, type SessionStore } from './index.js';

/** A coding conversation long enough that a receipt must replace its middle. */
function conversation(turns: number): ModelMessage[] {
  const history: ModelMessage[] = [
    { role: 'system', content: 'You are a careful refactoring assistant.' },
  ];
  for (let turn = 0; turn < turns; turn++) {
    history.push(
      {
        role: 'user',
        content: `Step ${turn}: split module ${turn} of auth.ts and keep the tests green.`,
      },
      {
        role: 'assistant',
        content: [
          {
            type: 'text',
            text: `Moved the helpers of module ${turn} into auth/part-${turn}.ts. `.repeat(12),
          },
        ],
      },
    );
  }
  return history;
}

describe('recording a real @baton/compressor result', () => {
  let store: SessionStore;
  beforeAll(async () => {
    store = await createSessionStore();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it('stores a receipt compaction as is and resumes with exactly its messages', async () => {
    const session = await store.createSession({ title: 'auth refactor' });
    await store.appendMessages(session.id, conversation(20), { startSequence: 0 });
    const history = (await store.getMessages<ModelMessage>(session.id)).map((row) => row.message);
    const result = await createContextCompressor().compress(history, {
      strategy: 'receipt',
      targetTokens: 1_200,
    });
    expect(result.strategy).toBe('receipt');
    expect(result.event.removedMessageIndexes.length).toBeGreaterThan(0);

    const { child, compaction } = await store.recordCompaction(session.id, result, {
      expectedMessageCount: history.length,
    });
    expect(compaction).toMatchObject({
      strategy: 'receipt',
      summary: result.summary ?? null,
      usedFallback: result.usedFallback,
      tokensBefore: result.tokensBefore,
      tokensAfter: result.tokensAfter,
      removedSequences: [...result.event.removedMessageIndexes].sort((a, b) => a - b),
      maskedSequences: [...result.event.maskedMessageIndexes].sort((a, b) => a - b),
      stages: result.event.stages,
    });
    // The whole event is kept as JSON.
    expect(compaction.event).toEqual(JSON.parse(JSON.stringify(result.event)));

    const resumed = await store.resume<ModelMessage>(session.id);
    expect(resumed.session.id).toBe(child.id);
    expect(resumed.messages).toEqual(JSON.parse(JSON.stringify(result.messages)));
    // The parent's raw history is still all there.
    expect((await store.getMessages(session.id)).map((row) => row.message)).toEqual(history);
  }, 60_000);
});
