import {
  generateSummaryWithModel,
  SummarizerError,
  type SummarizerFunction,
  type SummarizerRequest,
} from '@baton/compressor';
import type { LanguageModel } from 'ai';
import {
  extractSpanFacts,
  type SummaryVerification,
  type VerifySummaryOptions,
  verifySummary,
} from './verify-summary.js';

export interface VerifiedSummarizerOptions extends Omit<VerifySummaryOptions, 'truncated'> {
  /**
   * Called after every reply with what verification found: `factCoverage` (share of the span's facts
   * in the reply before the top-up), what was added, or why the reply was rejected. Default: none.
   */
  onVerify?: (verification: SummaryVerification, request: SummarizerRequest) => void;
}

async function generate(
  model: LanguageModel,
  request: SummarizerRequest,
): Promise<{ text: string; truncated: boolean }> {
  const { text, finishReason } = await generateSummaryWithModel(model, request);
  return { text, truncated: finishReason === 'length' };
}

/**
 * Wraps a summariser (an AI SDK `LanguageModel` or a function) for `@baton/compressor`: the reply is
 * read in whatever structure it has, checked against the facts of the span it was given (earlier
 * asks, files, error lines, tool names) and topped up with the missing ones, so an accepted summary
 * never knows less than those facts; empty, truncated (model replies that hit the output cap),
 * refusal-like, off-topic and unstructured replies are rejected as `SummarizerError`s (kind `empty`
 * or `garbage`, the reason in the message) and the compressor falls back to the receipt.
 * Pass the model's id as the compressor's `summarizerName`.
 */
export function createVerifiedSummarizer(
  summarizer: LanguageModel | SummarizerFunction,
  options: VerifiedSummarizerOptions = {},
): SummarizerFunction {
  return async (request) => {
    const { text, truncated } =
      typeof summarizer === 'function'
        ? { text: await summarizer(request), truncated: false }
        : await generate(summarizer, request);
    const transcript = request.prompt;
    const facts = extractSpanFacts(transcript);
    const reply = String(text ?? '');
    // The compressor rejects a summary far over its target: the top-up takes only the room left,
    // at a conservative 3 characters per token.
    const room =
      Math.max(0, Math.floor(request.targetTokens * 1.1) - Math.ceil(reply.length / 3)) * 3;
    const { text: verified, verification } = verifySummary(reply, facts, transcript, {
      ...options,
      maxAddedChars: Math.min(options.maxAddedChars ?? 1_200, room),
      truncated,
    });
    options.onVerify?.(verification, request);
    if (verified === undefined) {
      const reason = verification.reason ?? 'unstructured';
      throw new SummarizerError({
        kind: reason === 'empty' ? 'empty' : 'garbage',
        message: `summary rejected as ${reason} (fact coverage ${Math.round(verification.factCoverage * 100)} %)`,
      });
    }
    return verified;
  };
}
