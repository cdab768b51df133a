import type { HandoffFacts } from './extract-handoff-facts.js';

/** Share of a window's facts that a handoff text still carries (0..1; `undefined` when none existed). */
export interface RetentionScores {
  /** Distinct tool names of the window named in the text (as whole words). */
  toolNames: number | undefined;
  /** File paths present, each weighted by how often the window referenced it. */
  weightedPaths: number | undefined;
  /** Distinct error lines present. */
  errorLines: number | undefined;
  /** Distinct user asks present (by their 200-character key). */
  userAsks: number | undefined;
  /** 1 when the latest user ask appears verbatim, 0 when not. */
  latestAskVerbatim: number | undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Measures what a handoff text (a receipt, a baseline, an LLM summary) kept of a window. The items
 * come from `extractHandoffFacts`, the one definition of ground truth; presence is a plain string
 * check in the text with whitespace collapsed, so any summariser is scored the same way.
 */
export function measureRetention(text: string, facts: HandoffFacts): RetentionScores {
  const flat = text.replace(/\s+/g, ' ');
  const share = <T>(
    items: readonly T[],
    present: (item: T) => boolean,
    weight: (item: T) => number = () => 1,
  ) => {
    const total = items.reduce((sum, item) => sum + weight(item), 0);
    if (total === 0) return undefined;
    return items.reduce((sum, item) => sum + (present(item) ? weight(item) : 0), 0) / total;
  };
  return {
    toolNames: share(facts.toolCounts, ([name]) =>
      new RegExp(`(?<![\\w-])${escapeRegExp(name)}(?![\\w-])`).test(flat),
    ),
    weightedPaths: share(
      facts.files,
      (file) => flat.includes(file.path),
      (file) => file.references,
    ),
    errorLines: share(facts.errors, (error) => flat.includes(error.line)),
    userAsks: share(facts.asks, (ask) => flat.includes(ask.key)),
    latestAskVerbatim: facts.latestAsk ? (text.includes(facts.latestAsk.text) ? 1 : 0) : undefined,
  };
}
