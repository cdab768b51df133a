/**
 * Mastra's `TokenLimiter` and `ToolCallFilter` processors, called at the hook Mastra's agent loop calls before
 * each model request (`processLLMRequest`, on the provider prompt). TokenLimiter gets the target as its limit
 * (its own tokenizer); ToolCallFilter runs with its defaults. Neither summarises.
 */
import { TokenLimiter, ToolCallFilter } from '@mastra/core/processors';
import { fromMastraPrompt, toMastraPrompt } from '../convert/mastra.ts';
import type { Peer } from './types.ts';

type LlmRequestProcessor = {
  processLLMRequest(args: Record<string, unknown>): Promise<{ prompt?: unknown } | undefined>;
};

async function run(processor: LlmRequestProcessor, prompt: unknown[]): Promise<unknown> {
  const result = await processor.processLLMRequest({
    prompt,
    state: {},
    stepNumber: 0,
    steps: [],
    abort: (reason?: string) => {
      throw new Error(`aborted: ${reason ?? ''}`);
    },
  });
  return result?.prompt ?? prompt;
}

export function mastraPeers(version: string): Peer[] {
  return [
    {
      name: `Mastra TokenLimiter (@mastra/core ${version})`,
      usesSummarizer: false,
      async compact({ messages, targetTokens }) {
        const limiter = new TokenLimiter(targetTokens) as unknown as LlmRequestProcessor;
        return fromMastraPrompt(await run(limiter, toMastraPrompt(messages)), this.name);
      },
    },
    {
      name: `Mastra ToolCallFilter (@mastra/core ${version})`,
      usesSummarizer: false,
      async compact({ messages }) {
        const filter = new ToolCallFilter() as unknown as LlmRequestProcessor;
        return fromMastraPrompt(await run(filter, toMastraPrompt(messages)), this.name);
      },
    },
  ];
}
