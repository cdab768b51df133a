import type { SummarizerRequest } from '../index.js';
import { structuredSummary } from './structured-summary.js';

/** A summariser whose calls wait until the test releases them (or their signal aborts). */
export function scriptedSummarizer(options: { fail?: boolean } = {}) {
  const requests: SummarizerRequest[] = [];
  const pending: Array<() => void> = [];
  let aborted = 0;
  const summarizer = (request: SummarizerRequest): Promise<string> => {
    requests.push(request);
    const number = requests.length;
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        aborted++;
        reject(request.abortSignal.reason ?? new Error('aborted'));
      };
      if (request.abortSignal.aborted) return onAbort();
      request.abortSignal.addEventListener('abort', onAbort, { once: true });
      pending.push(() => {
        request.abortSignal.removeEventListener('abort', onAbort);
        if (options.fail === true) reject(new Error('summariser is down'));
        else resolve(structuredSummary(`Summary number ${number}.`));
      });
    });
  };
  return {
    summarizer,
    requests,
    get aborted() {
      return aborted;
    },
    /** Lets every waiting call answer, then lets the compressor finish. */
    async release(): Promise<void> {
      for (const answer of pending.splice(0)) answer();
      await settle();
    },
  };
}

export async function settle(): Promise<void> {
  for (let round = 0; round < 20; round++) await new Promise((resolve) => setImmediate(resolve));
}
