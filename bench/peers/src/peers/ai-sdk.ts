/**
 * The AI SDK's own answer: the agents cookbook's `prepareStep` compaction, `pruneMessages` when
 * `JSON.stringify(messages).length / 4` passes the threshold (here the target), with the cookbook's options.
 */
import { pruneMessages } from 'ai';
import { parseModelMessages } from '../messages.ts';
import type { Peer } from './types.ts';

export function aiSdkPeer(version: string): Peer {
  return {
    name: `AI SDK pruneMessages, cookbook trigger (ai ${version})`,
    usesSummarizer: false,
    async compact({ messages, targetTokens }) {
      if (JSON.stringify(messages).length / 4 <= targetTokens) return messages;
      const pruned = pruneMessages({
        messages: messages as never,
        reasoning: 'all',
        toolCalls: 'before-last-3-messages',
        emptyMessages: 'remove',
      });
      return parseModelMessages(pruned, this.name);
    },
  };
}
