import { resolveModel, unknownModel } from '@baton/tokens';
import { formatNumber } from './format-number.js';

/**
 * The warning for a `--model` Baton does not know (a typo, or a model newer than this release),
 * or undefined for a known one. Unknown models are counted with the heuristic estimate and get a
 * conservative window: say so instead of falling back quietly. `windowGiven`: `--window` was set,
 * so the fallback window is not used.
 */
export function modelWarning(
  modelId: string,
  options: { windowGiven?: boolean } = {},
): string | undefined {
  const model = resolveModel(modelId);
  // No known model has exactly the fallback's figures (a provider hint such as `anthropic/…` may
  // still name the provider of an unknown model).
  const fellBack =
    model.encoding === unknownModel.encoding &&
    model.contextWindow === unknownModel.contextWindow &&
    model.maxOutputTokens === unknownModel.maxOutputTokens;
  if (!fellBack) return undefined;
  const window = options.windowGiven
    ? ''
    : ` and a ${formatNumber(unknownModel.contextWindow)}-token window (set --window to change it)`;
  return `unknown model "${modelId}": counting with the heuristic estimate${window}`;
}
