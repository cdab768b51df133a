import { describe, expect, it } from 'vitest';
import { corpusSkipReason, loadSecretFixtures, loadTranscripts } from './index.ts';

describe.skipIf(corpusSkipReason !== undefined)('shared corpus', () => {
  it('loads transcripts as message arrays', () => {
    const transcripts = loadTranscripts();
    expect(transcripts.length).toBeGreaterThan(10);
    for (const { messages } of transcripts) {
      expect(Array.isArray(messages)).toBe(true);
      expect(messages.every((m) => typeof m.role === 'string')).toBe(true);
    }
  });

  it('loads labelled secret fixtures of both kinds', () => {
    const rows = loadSecretFixtures();
    expect(rows.some((row) => row.expect === 'secret')).toBe(true);
    expect(rows.some((row) => row.expect === 'not-secret')).toBe(true);
  });
});
