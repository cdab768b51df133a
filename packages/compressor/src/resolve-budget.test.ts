import { InvalidInputError } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveBudget } from './resolve-budget.js';

describe('resolveBudget', () => {
  it('triggers at 80 % of the window minus the reserved output by default', () => {
    const budget = resolveBudget({
      contextWindow: 128_000,
      requestedOutputTokens: 8_000,
      threshold: 0.8,
      targetRatio: 0.6,
    });
    expect(budget.availableTokens).toBe(120_000);
    expect(budget.triggerTokens).toBe(96_000);
    expect(budget.targetTokens).toBe(57_600);
    expect(budget.protectLastNTokens).toBe(20_000);
  });

  it("reserves an eighth of the window, capped by the model's output limit, when the call sets none", () => {
    expect(
      resolveBudget({ contextWindow: 32_768, threshold: 0.8, targetRatio: 0.6 })
        .reservedOutputTokens,
    ).toBe(4_096);
    expect(
      resolveBudget({
        contextWindow: 1_000_000,
        modelMaxOutputTokens: 32_768,
        threshold: 0.8,
        targetRatio: 0.6,
      }).reservedOutputTokens,
    ).toBe(32_768);
    expect(
      resolveBudget({
        contextWindow: 1_000_000,
        reservedOutputTokens: 1_000,
        modelMaxOutputTokens: 32_768,
        threshold: 0.8,
        targetRatio: 0.6,
      }).reservedOutputTokens,
    ).toBe(1_000);
  });

  it('reads a threshold above 1 as an absolute token count, capped at the available input', () => {
    expect(
      resolveBudget({
        contextWindow: 100_000,
        requestedOutputTokens: 0,
        threshold: 50_000,
        targetRatio: 0.5,
      }).triggerTokens,
    ).toBe(50_000);
    expect(
      resolveBudget({
        contextWindow: 10_000,
        requestedOutputTokens: 0,
        threshold: 50_000,
        targetRatio: 0.5,
      }).triggerTokens,
    ).toBe(10_000);
  });

  it('rejects nonsense options with the option named', () => {
    const bad = [
      { contextWindow: 0, threshold: 0.8, targetRatio: 0.6, path: 'contextWindow' },
      { contextWindow: 1000, threshold: 0, targetRatio: 0.6, path: 'threshold' },
      { contextWindow: 1000, threshold: Number.NaN, targetRatio: 0.6, path: 'threshold' },
      { contextWindow: 1000, threshold: 0.8, targetRatio: 1, path: 'targetRatio' },
      {
        contextWindow: 1000,
        threshold: 0.8,
        targetRatio: 0.5,
        reservedOutputTokens: -1,
        path: 'reservedOutputTokens',
      },
    ];
    for (const { path, ...options } of bad) {
      let caught: unknown;
      try {
        resolveBudget(options);
      } catch (error) {
        caught = error;
      }
      expect(InvalidInputError.isInstance(caught) && caught.path).toBe(path);
    }
  });

  it('keeps target < trigger <= available <= window and scales with the window (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000, max: 2_000_000 }),
        fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        (contextWindow, requestedOutputTokens, threshold, targetRatio) => {
          const budget = resolveBudget({
            contextWindow,
            requestedOutputTokens,
            threshold,
            targetRatio,
          });
          expect(budget.availableTokens).toBe(
            Math.max(0, contextWindow - budget.reservedOutputTokens),
          );
          expect(budget.triggerTokens).toBeLessThanOrEqual(budget.availableTokens);
          expect(budget.targetTokens).toBeLessThanOrEqual(budget.triggerTokens);
          expect(budget.protectLastNTokens).toBeLessThanOrEqual(Math.max(budget.targetTokens, 0));
          if (requestedOutputTokens === undefined)
            expect(budget.reservedOutputTokens).toBe(Math.floor(contextWindow / 8));
        },
      ),
    );
  });
});
