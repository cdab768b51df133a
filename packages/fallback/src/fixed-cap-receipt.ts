import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { TokenCounter } from '@baton/tokens';
import { extractHandoffFacts } from './extract-handoff-facts.js';
import { renderHandoff } from './render-handoff.js';

/** Hermes' fixed caps, as its deterministic fallback applies them. */
export const fixedCaps = {
  actions: 12,
  errors: 5,
  files: 12,
  turns: 8,
  turnChars: 700,
  totalChars: 8000,
};

/**
 * The comparison baseline of the retention benchmark: a receipt with Hermes-style fixed caps (the
 * first 12 actions, the first 5 errors, the first 12 files, the last 8 turns clipped to 700
 * characters, every ask, the whole cut at 8,000 characters), then cut to the same token budget as
 * Baton's receipt (the longest prefix that fits). Same facts, same layout: only the selection differs.
 * Not part of the public API.
 */
export function createFixedCapReceipt(
  messages: readonly ModelMessage[],
  { maxTokens, counter }: { maxTokens: number; counter: Pick<TokenCounter, 'count'> },
): string {
  const facts = extractHandoffFacts(messages);
  const latest = facts.latestAsk;
  const sections = {
    latestAsk: latest?.text,
    completedActions: facts.toolCalls
      .slice(0, fixedCaps.actions)
      .map((call) => `${call.ordinal}. ${call.name} ${call.target} — ${call.outcome}`)
      .join('\n'),
    blockers: facts.errors
      .slice(0, fixedCaps.errors)
      .map((error) => `- ${error.line}`)
      .join('\n'),
    pendingAsks: facts.asks
      .filter((ask) => ask !== latest)
      .map((ask) => `- ${ask.text}`)
      .join('\n'),
    files: facts.files
      .slice(0, fixedCaps.files)
      .map((file) => `- ${file.path}`)
      .join('\n'),
    lastTurns: facts.turns
      .slice(-fixedCaps.turns)
      .map((turn) => `- [${turn.role}] ${turn.text.slice(0, fixedCaps.turnChars)}`)
      .join('\n'),
    counts: `Messages: ${facts.messageCount}.`,
  };
  let text = renderHandoff(sections).slice(0, fixedCaps.totalChars);
  if (counter.count(text) <= maxTokens) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (counter.count(text.slice(0, middle)) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  text = text.slice(0, low);
  return text;
}
