import type { LanguageModelV4 } from '@ai-sdk/provider';
import { InvalidInputError } from '@baton/tokens';

export interface WithStructuredOutputsOptions {
  /**
   * The model that was wrapped (e.g. the one from `createLocalModel`). Its `supportsStructuredOutputs`
   * is copied; a model without the flag gives `false`. Required.
   */
  from: { readonly supportsStructuredOutputs?: boolean };
}

/**
 * Gives a wrapped model the structured-output capability of the model it wraps, and returns it.
 *
 * The AI SDK's `wrapLanguageModel` (checked with ai 7.0.173) returns a new object holding only the
 * specification fields (`provider`, `modelId`, `supportedUrls`, the two calls): the local model's
 * `supportsStructuredOutputs` is not on it. `@baton/compressor` reads that flag to decide whether to
 * ask for the bounded JSON handoff (grammar-constrained, which a small model closes within its cap)
 * or for free text (which SmolLM2-135M writes until it is cut, so the receipt is used instead).
 * Wrapping with this keeps the structured path:
 *
 * ```ts
 * const summarizer = withStructuredOutputs(wrapLanguageModel({ model: local, middleware }), { from: local });
 * ```
 *
 * Sets the flag on `model` itself (the calls keep their `this`) and returns `model`. A model that
 * cannot take it (frozen, sealed, or holding the flag unchangeable) is left as it is: an object
 * inheriting from it, with the flag, is returned instead. Throws `InvalidInputError` when `from` is
 * not an object.
 */
export function withStructuredOutputs<Model extends LanguageModelV4>(
  model: Model,
  options: WithStructuredOutputsOptions,
): Model & { readonly supportsStructuredOutputs: boolean } {
  const from: unknown = options?.from;
  if (typeof from !== 'object' || from === null) {
    throw new InvalidInputError({
      path: 'options.from',
      message: 'expected the wrapped model (an object), e.g. the one from createLocalModel',
    });
  }
  const flag: PropertyDescriptor = {
    value: (from as { supportsStructuredOutputs?: unknown }).supportsStructuredOutputs === true,
    enumerable: true,
    configurable: true,
    writable: false,
  };
  const own = Object.getOwnPropertyDescriptor(model, 'supportsStructuredOutputs');
  if (!Object.isExtensible(model) || own?.configurable === false) {
    return Object.create(model, { supportsStructuredOutputs: flag });
  }
  Object.defineProperty(model, 'supportsStructuredOutputs', flag);
  return model as Model & { readonly supportsStructuredOutputs: boolean };
}
