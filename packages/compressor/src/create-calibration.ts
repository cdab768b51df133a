/** Per-model correction of token estimates from what providers report. */
export interface Calibration {
  /** Multiplier turning an estimate into the provider's count for `key`; 1 until observed. */
  ratio(key: string): number;
  /** Records one call: `estimated` tokens we counted for the input the provider reported as `actual`. */
  observe(key: string, estimated: number, actual: number): void;
  /** Starts `key` at `ratio` (read back from a store) unless this process has observed it already. */
  seed(key: string, ratio: number): void;
  /** The ratios observed so far, per key (what a store keeps for the next process). */
  snapshot(): Record<string, number>;
}

/** Below this many estimated tokens, fixed per-request framing dominates the ratio: ignore the sample. */
const minimumSampleTokens = 256;
/** Bounds of a believable correction; outside them the report is for something else (cached prefix, etc.). */
const smallestRatio = 0.5;
const largestRatio = 2.5;

/**
 * A moving average of log(actual / estimated) per model. Averaging in log space treats "25 % over"
 * and "20 % under" symmetrically; the weight lets the ratio settle within a few calls and still follow
 * a drift (a new system prompt, more code in the history).
 */
export function createCalibration({ weight = 0.5 }: { weight?: number } = {}): Calibration {
  const logRatios = new Map<string, number>();
  return {
    ratio(key) {
      const logRatio = logRatios.get(key);
      return logRatio === undefined ? 1 : Math.exp(logRatio);
    },
    seed(key, ratio) {
      if (logRatios.has(key) || !(ratio >= smallestRatio && ratio <= largestRatio)) return;
      logRatios.set(key, Math.log(ratio));
    },
    snapshot() {
      const ratios: Record<string, number> = {};
      for (const [key, logRatio] of logRatios)
        ratios[key] = Math.round(Math.exp(logRatio) * 1e4) / 1e4;
      return ratios;
    },
    observe(key, estimated, actual) {
      if (!(estimated >= minimumSampleTokens) || !(actual > 0) || !Number.isFinite(actual)) return;
      const sample = actual / estimated;
      if (sample < smallestRatio || sample > largestRatio) return;
      const logSample = Math.log(sample);
      const previous = logRatios.get(key);
      logRatios.set(
        key,
        previous === undefined ? logSample : previous + weight * (logSample - previous),
      );
    },
  };
}
