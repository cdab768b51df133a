import type { LanguageModelV4 } from '@ai-sdk/provider';

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
 * Sets the flag on `model` itself (the calls keep their `this`) and returns `model`.
 */
export function withStructuredOutputs<Model extends LanguageModelV4>(
  model: Model,
  options: WithStructuredOutputsOptions,
): Model & { readonly supportsStructuredOutputs: boolean } {
  Object.defineProperty(model, 'supportsStructuredOutputs', {
    value: options.from.supportsStructuredOutputs === true,
    enumerable: true,
    configurable: true,
    writable: false,
  });
  return model as Model & { readonly supportsStructuredOutputs: boolean };
}
