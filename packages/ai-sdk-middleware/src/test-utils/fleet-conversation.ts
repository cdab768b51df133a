import type { ModelMessage } from '@ai-sdk/provider-utils';
import { agentHistory } from './conversation.js';

const histories = new Map<number, ModelMessage[]>();

/**
 * The request of `step` in shared conversation `conversation`: every earlier turn in full, then the
 * user's next ask. Each step's request extends the previous one, identically in every process.
 */
export function fleetRequest(conversation: number, step: number): ModelMessage[] {
  let history = histories.get(conversation);
  if (history === undefined) {
    history = agentHistory(64, 300, 20).map((message, index) =>
      index === 0
        ? { role: 'user', content: `Conversation ${conversation}: ${message.content}` }
        : message,
    ) as ModelMessage[];
    histories.set(conversation, history);
  }
  if (4 * step + 1 > history.length) throw new Error(`step ${step} is beyond the fixture`);
  return history.slice(0, 4 * step + 1);
}
