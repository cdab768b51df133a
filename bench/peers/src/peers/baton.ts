/** Baton itself, through its public API, as a user calls it (one compressor per strategy). */
import { createContextCompressor, type SummarizerRequest } from '@baton/compressor';
import { postChat } from '../loopback-chat.ts';
import { parseModelMessages } from '../messages.ts';
import { FAILURE_MESSAGE, FAKE_SUMMARY } from '../summarizers.ts';
import { type Peer, requireUrl } from './types.ts';

type Strategy = 'truncate' | 'receipt' | 'summarize' | 'auto';

export function batonPeers(version: string): Peer[] {
  const failing = async (_request: SummarizerRequest): Promise<string> => {
    throw new Error(FAILURE_MESSAGE);
  };
  const fake = async (_request: SummarizerRequest): Promise<string> => FAKE_SUMMARY;
  // Retries would only add backoff waits to a summariser that always fails; one attempt, no delay.
  const common = { maxAttempts: 1, retryDelayMs: 0 };
  const failingCompressor = createContextCompressor({ ...common, summarizer: failing });
  const fakeCompressor = createContextCompressor({ ...common, summarizer: fake });
  const localCompressors = new Map<string, ReturnType<typeof createContextCompressor>>();
  const localCompressor = (url: string) => {
    let compressor = localCompressors.get(url);
    if (compressor === undefined) {
      compressor = createContextCompressor({
        ...common,
        summarizerName: 'SmolLM2-135M (loopback)',
        summarizer: (request: SummarizerRequest) =>
          postChat(
            url,
            [
              ...(request.instructions ? [{ role: 'system', content: request.instructions }] : []),
              ...(request.messages as unknown as Record<string, unknown>[]),
            ],
            request.maxOutputTokens,
          ),
      });
      localCompressors.set(url, compressor);
    }
    return compressor;
  };
  const strategies: Strategy[] = ['truncate', 'receipt', 'summarize', 'auto'];
  return strategies.map((strategy) => ({
    name: `Baton ${strategy} (@baton/compressor ${version})`,
    usesSummarizer: strategy === 'summarize' || strategy === 'auto',
    async compact({ messages, targetTokens, mode, summarizerUrl }) {
      const compressor =
        mode === 'local'
          ? localCompressor(requireUrl(summarizerUrl))
          : mode === 'failing'
            ? failingCompressor
            : fakeCompressor;
      const result = await compressor.compress(messages as never, { targetTokens, strategy });
      return parseModelMessages(result.messages, this.name);
    },
  }));
}
