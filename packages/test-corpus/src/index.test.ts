import { describe, expect, it } from 'vitest';
import {
  corpusSkipReason,
  loadSecretFixtures,
  loadTranscripts,
  median,
  withToolCallIdSuffix,
} from './index.ts';

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

describe('withToolCallIdSuffix', () => {
  it('suffixes every toolCallId at any depth and leaves the input alone', () => {
    const input = [
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'x', input: {} }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'x',
            output: { type: 'text', value: 'toolCallId' },
          },
        ],
      },
    ];
    const copy = withToolCallIdSuffix(input, '2');
    expect(JSON.stringify(copy)).toBe(
      JSON.stringify(input).replaceAll('"toolCallId":"a"', '"toolCallId":"a~2"'),
    );
    expect(input[0]).not.toBe(copy[0]);
    expect(JSON.stringify(input)).toContain('"toolCallId":"a"');
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle values', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow(RangeError);
  });
});
