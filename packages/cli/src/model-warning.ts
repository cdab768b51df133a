import { resolveModel, unknownModel } from '@baton/tokens';
import { formatNumber } from './format-number.js';
import { KNOWN_MODEL_IDS } from './known-models.js';
import { withheldValue } from './safe-error-text.js';

/** A `--model` as the CLI reads it. */
export interface CliModel {
  /** The id to count with: the one given, or the known id it was read as (`gpt4o` -> `gpt-4o`). */
  id: string;
  /** False when `@baton/tokens` does not know the model (heuristic counts, fallback window). */
  known: boolean;
  /** Set when the id given was read as another spelling of a known id. */
  readAs: string | undefined;
  /** Closest known ids, best first (only for an unknown model). */
  suggestions: string[];
}

function isKnown(modelId: string): boolean {
  const model = resolveModel(modelId);
  // No known model has exactly the fallback's figures (a provider hint such as `anthropic/…` may
  // still name the provider of an unknown model).
  return !(
    model.encoding === unknownModel.encoding &&
    model.contextWindow === unknownModel.contextWindow &&
    model.maxOutputTokens === unknownModel.maxOutputTokens
  );
}

/** Other spellings people type for the same id: `gpt4o`, `GPT 4o`, `claude_sonnet_4.5`. */
function spellings(modelId: string): string[] {
  const base = modelId
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  const hyphenated = base.replace(/([a-z])(\d)/g, '$1-$2');
  const dotless = (id: string) => id.replace(/(\d)\.(\d)/g, '$1-$2');
  return [...new Set([base, hyphenated, dotless(base), dotless(hyphenated)])];
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Reads `--model`: known as given, known under another spelling, or unknown with suggestions. */
export function resolveCliModel(modelId: string): CliModel {
  if (isKnown(modelId)) return { id: modelId, known: true, readAs: undefined, suggestions: [] };
  for (const spelling of spellings(modelId)) {
    if (spelling !== modelId && isKnown(spelling)) {
      return { id: spelling, known: true, readAs: spelling, suggestions: [] };
    }
  }
  // Long ids (a secret pasted into the wrong flag) are not compared: nothing is close to them.
  const name = modelId
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/([a-z])(\d)/g, '$1-$2')
    .slice(0, 64);
  const scored = KNOWN_MODEL_IDS.map((id) => ({ id, distance: editDistance(name, id) }))
    .filter(({ id, distance }) => distance <= Math.max(2, Math.floor(id.length / 3)))
    .sort((a, b) => a.distance - b.distance || a.id.localeCompare(b.id));
  return {
    id: modelId,
    known: false,
    readAs: undefined,
    suggestions: scored.slice(0, 3).map(({ id }) => id),
  };
}

function didYouMean(suggestions: readonly string[]): string {
  return suggestions.length === 0 ? '' : `; did you mean ${suggestions.join(', ')}?`;
}

/**
 * The usage error for an unknown `--model` without `--window`: the fallback window is a guess, so
 * Baton does not compact with it unasked. The id is not echoed (it may be a secret in the wrong flag).
 */
export function unknownModelMessage(model: CliModel): string {
  return `unknown --model, ${withheldValue(model.id)}${didYouMean(model.suggestions)} (give --window <tokens> to compact with the heuristic estimate anyway)`;
}

/**
 * The warning for a `--model` Baton does not know (a typo, or a model newer than this release),
 * or undefined for a known one. Unknown models are counted with the heuristic estimate and get a
 * conservative window: say so instead of falling back quietly. `windowGiven`: `--window` was set,
 * so the fallback window is not used.
 */
export function modelWarning(
  model: CliModel,
  options: { windowGiven?: boolean } = {},
): string | undefined {
  if (model.known) return undefined;
  const window = options.windowGiven
    ? ''
    : ` and a ${formatNumber(unknownModel.contextWindow)}-token window (set --window to change it)`;
  return `unknown --model, ${withheldValue(model.id)}: counting with the heuristic estimate${window}${didYouMean(model.suggestions)}`;
}

/**
 * The model as reports and `--json` print it: a known id as is, an unknown one described and
 * never echoed (it may be a secret pasted into the wrong flag, as the warning says).
 */
export function shownModel(model: CliModel): string {
  return model.known ? model.id : `unknown model, ${withheldValue(model.id)}`;
}
