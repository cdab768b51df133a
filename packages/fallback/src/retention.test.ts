import type { ModelMessage } from '@ai-sdk/provider-utils';
import { corpusSkipReason, loadTranscripts } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { describe, expect, it } from 'vitest';
import { createFixedCapReceipt } from './fixed-cap-receipt.js';
import {
  createReceipt,
  extractHandoffFacts,
  measureRetention,
  type RetentionScores,
} from './index.js';
import { middleWindow } from './middle-window.js';

const counter = createTokenCounter({ encoding: 'o200k_base' });
type Measure = keyof RetentionScores;
const measures: Measure[] = [
  'toolNames',
  'weightedPaths',
  'errorLines',
  'userAsks',
  'latestAskVerbatim',
];

function meanScores(budget: number) {
  const ours: Record<Measure, number[]> = {
    toolNames: [],
    weightedPaths: [],
    errorLines: [],
    userAsks: [],
    latestAskVerbatim: [],
  };
  const baseline: Record<Measure, number[]> = {
    toolNames: [],
    weightedPaths: [],
    errorLines: [],
    userAsks: [],
    latestAskVerbatim: [],
  };
  for (const transcript of loadTranscripts()) {
    const window = middleWindow(transcript.messages as ModelMessage[], { counter });
    if (window.length === 0) continue;
    const facts = extractHandoffFacts(window);
    const receipt = createReceipt(window, { maxTokens: budget, counter });
    expect(receipt.stats.tokens).toBeLessThanOrEqual(budget);
    const fixed = createFixedCapReceipt(window, { maxTokens: budget, counter });
    const scoreOurs = measureRetention(receipt.text, facts);
    const scoreBaseline = measureRetention(fixed, facts);
    for (const measure of measures) {
      if (scoreOurs[measure] !== undefined) ours[measure].push(scoreOurs[measure]!);
      if (scoreBaseline[measure] !== undefined) baseline[measure].push(scoreBaseline[measure]!);
    }
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    ours: Object.fromEntries(measures.map((measure) => [measure, mean(ours[measure])])) as Record<
      Measure,
      number
    >,
    baseline: Object.fromEntries(
      measures.map((measure) => [measure, mean(baseline[measure])]),
    ) as Record<Measure, number>,
  };
}

describe.skipIf(corpusSkipReason !== undefined)('retention on the dev transcripts', () => {
  it('meets the targets at 2,000 tokens and beats the fixed-cap baseline', () => {
    const { ours, baseline } = meanScores(2000);
    console.log('retention at 2000 tokens', { ours, baseline });
    expect(ours.latestAskVerbatim).toBe(1);
    expect(ours.toolNames).toBeGreaterThanOrEqual(0.95);
    expect(ours.weightedPaths).toBeGreaterThanOrEqual(0.9);
    for (const measure of measures) {
      expect(ours[measure]).toBeGreaterThanOrEqual(baseline[measure]);
      if (baseline[measure] < 1) expect(ours[measure]).toBeGreaterThan(baseline[measure]);
    }
  });

  it('keeps more than the baseline at 1,000 tokens too', () => {
    const { ours, baseline } = meanScores(1000);
    console.log('retention at 1000 tokens', { ours, baseline });
    for (const measure of measures) expect(ours[measure]).toBeGreaterThanOrEqual(baseline[measure]);
  });
});
