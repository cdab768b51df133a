import type { ModelDescription } from './demo-types.js';

/**
 * What summarises the offline demo's compactions, in one sentence for the page banner and the
 * console: the local model by name, or the receipt and how to get a model.
 */
export function summarizerBanner(description: ModelDescription): string {
  if (description.offlineSummarizer === 'local') {
    return `Compaction summaries are written by the local model ${description.summarizer} (CPU, one thread; a small test model, so some summaries fall back to the receipt, and the card says why).`;
  }
  return `Compaction uses Baton's deterministic receipt${description.summarizerNote ? ` (${description.summarizerNote})` : ''}.`;
}
