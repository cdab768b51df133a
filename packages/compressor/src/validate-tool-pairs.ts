import { describeValue } from '@baton/tokens';
import { type LooseMessage, messageFacts } from './analyze-messages.js';

export type ToolPairProblemCode =
  | 'orphan_tool_result'
  | 'missing_tool_result'
  | 'result_not_adjacent'
  | 'duplicate_tool_result'
  | 'tool_message_out_of_place'
  | 'system_not_leading'
  | 'first_not_user'
  | 'unknown_role';

export interface ToolPairProblem {
  code: ToolPairProblemCode;
  /** Index of the offending message. */
  index: number;
  toolCallId?: string;
  message: string;
}

export interface ToolPairValidation {
  valid: boolean;
  problems: ToolPairProblem[];
}

const knownRoles = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

/**
 * Checks a conversation the way OpenAI and Anthropic check a request: every tool result answers a call
 * made in the assistant message right before its block of tool messages, every call is answered there
 * (except calls of the final assistant message, which a live agent loop has not answered yet), system
 * messages lead, and the first other message is a user message (Anthropic rejects anything else).
 * Accepts AI SDK `ModelMessage`s and OpenAI chat messages.
 */
export function validateToolPairs(messages: readonly LooseMessage[]): ToolPairValidation {
  const problems: ToolPairProblem[] = [];
  const facts = messages.map(messageFacts);
  const seenCalls = new Set<string>();
  let seenNonSystem = false;
  let lastNonToolIndex = -1;
  for (let index = messages.length - 1; index >= 0; index--) {
    if (facts[index]!.role !== 'tool') {
      lastNonToolIndex = index;
      break;
    }
  }

  for (let index = 0; index < facts.length; index++) {
    const fact = facts[index]!;
    if (!knownRoles.has(fact.role)) {
      problems.push({
        code: 'unknown_role',
        index,
        message: `unknown role (${describeValue(fact.role)})`,
      });
    }
    if (fact.role === 'system' || fact.role === 'developer') {
      if (seenNonSystem) {
        problems.push({
          code: 'system_not_leading',
          index,
          message: 'system message after the conversation started',
        });
      }
    } else if (!seenNonSystem) {
      seenNonSystem = true;
      if (fact.role !== 'user') {
        problems.push({
          code: 'first_not_user',
          index,
          message: `first non-system message is not from the user (${knownRoles.has(fact.role) ? fact.role : 'unknown role'})`,
        });
      }
    }

    if (fact.role === 'tool') {
      const previous = index > 0 ? facts[index - 1] : undefined;
      const blockValid =
        previous !== undefined &&
        (previous.role === 'tool' ||
          (previous.role === 'assistant' && previous.callIds.length > 0));
      if (!blockValid) {
        problems.push({
          code: 'tool_message_out_of_place',
          index,
          message: 'tool message does not follow an assistant message with tool calls',
        });
      }
    }

    if (fact.role === 'assistant' && fact.callIds.length > 0) {
      for (const id of fact.callIds) seenCalls.add(id);
      // A set: `includes` per result was quadratic in the calls of one message (80,000 parallel
      // calls took 14 s).
      const called = new Set(fact.callIds);
      const answered = new Set<string>();
      let next = index + 1;
      for (; next < facts.length && facts[next]!.role === 'tool'; next++) {
        for (const id of facts[next]!.resultIds) {
          if (!called.has(id)) {
            problems.push(
              seenCalls.has(id)
                ? {
                    code: 'result_not_adjacent',
                    index: next,
                    toolCallId: id,
                    message: `tool result ${id} is not right after the message that called it`,
                  }
                : {
                    code: 'orphan_tool_result',
                    index: next,
                    toolCallId: id,
                    message: `tool result ${id} has no tool call`,
                  },
            );
          } else if (answered.has(id)) {
            problems.push({
              code: 'duplicate_tool_result',
              index: next,
              toolCallId: id,
              message: `tool call ${id} is answered twice`,
            });
          } else {
            answered.add(id);
          }
        }
      }
      const trailing = index === lastNonToolIndex;
      if (!trailing) {
        for (const id of fact.callIds) {
          if (!answered.has(id)) {
            problems.push({
              code: 'missing_tool_result',
              index,
              toolCallId: id,
              message: `tool call ${id} has no result`,
            });
          }
        }
      }
      index = next - 1;
      continue;
    }

    // Results outside a tool block (after a message without calls, or in a user message).
    for (const id of fact.resultIds) {
      problems.push(
        seenCalls.has(id)
          ? {
              code: 'result_not_adjacent',
              index,
              toolCallId: id,
              message: `tool result ${id} is not right after the message that called it`,
            }
          : {
              code: 'orphan_tool_result',
              index,
              toolCallId: id,
              message: `tool result ${id} has no tool call`,
            },
      );
    }
  }
  return { valid: problems.length === 0, problems };
}
