import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { SummarizerRequest } from '@baton/compressor';
import { fixBugsHandoff } from './conversation.js';

/** Summariser calls wait until released (or aborted). */
export function gatedSummarizer() {
  const waiting: Array<() => void> = [];
  const requests: SummarizerRequest[] = [];
  return {
    requests,
    summarizer: (request: SummarizerRequest) =>
      new Promise<string>((resolve, reject) => {
        requests.push(request);
        request.abortSignal.addEventListener('abort', () => reject(new Error('aborted')), {
          once: true,
        });
        waiting.push(() => resolve(fixBugsHandoff));
      }),
    async release(): Promise<void> {
      for (const answer of waiting.splice(0)) answer();
      for (let round = 0; round < 20; round++) await new Promise((done) => setImmediate(done));
    },
  };
}

export const ask: ModelMessage = { role: 'user', content: 'Fix the failing parser test, please.' };
/** The background-compaction tests' budget: trigger 2,400 of an 8,000-token window. */
export const backgroundOptions = {
  contextWindow: 8_000,
  reservedOutputTokens: 1_000,
  threshold: 2_400,
  strategy: 'summarize',
  background: true,
} as const;
