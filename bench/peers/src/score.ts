/**
 * Scores one compacted conversation against its input. Written for this harness: the provider checks follow
 * what OpenAI and Anthropic reject (tool results away from their calls, calls without results except on the
 * final assistant message, system messages after the start, empty messages, a first turn that is not the
 * user's when the input had one), not Baton's `validateToolPairs`.
 */
import type { TokenCounter } from '@baton/tokens';
import { type FactKind, type Facts, factSurvival } from './facts.ts';
import { type Message, messageText, userText } from './messages.ts';

export type FailureBehaviour =
  | 'exception'
  | 'error text as summary'
  | 'notice or fallback'
  | 'silent loss'
  | 'unchanged';

export interface Score {
  accepted: boolean;
  problems: string[];
  headKept: boolean;
  latestAskKept: boolean;
  tokensBefore: number;
  tokensAfter: number;
  targetTokens: number;
  withinBudget: boolean;
  facts: Record<FactKind, number>;
  behaviour: FailureBehaviour;
}

export function providerProblems(
  messages: readonly Message[],
  inputStartsWithUser: boolean,
): string[] {
  const problems: string[] = [];
  let started = false;
  let firstNonSystem: Message | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'system') {
      if (started) problems.push(`system_not_leading@${index}`);
      continue;
    }
    if (!started) firstNonSystem = message;
    started = true;
    const empty =
      typeof message.content === 'string'
        ? message.content.trim() === ''
        : message.content.length === 0 ||
          message.content.every((part) => part.type === 'text' && part.text.trim() === '');
    if (empty) problems.push(`empty_message@${index}`);
    if (message.role === 'tool') {
      // Results must answer calls of the nearest assistant message before this run of tool messages.
      let back = index - 1;
      while (back >= 0 && messages[back]!.role === 'tool') back--;
      const owner = messages[back];
      const calls = new Set<string>();
      if (owner?.role === 'assistant' && Array.isArray(owner.content)) {
        for (const part of owner.content) if (part.type === 'tool-call') calls.add(part.toolCallId);
      }
      for (const part of message.content) {
        if (!calls.has(part.toolCallId)) problems.push(`orphan_tool_result@${index}`);
      }
    }
    if (message.role === 'assistant' && Array.isArray(message.content)) {
      const calls = message.content.filter((part) => part.type === 'tool-call');
      if (calls.length === 0) continue;
      const answered = new Set<string>();
      for (
        let next = index + 1;
        next < messages.length && messages[next]!.role === 'tool';
        next++
      ) {
        for (const part of messages[next]!.content as { toolCallId: string }[]) {
          if (answered.has(part.toolCallId)) problems.push(`duplicate_tool_result@${next}`);
          answered.add(part.toolCallId);
        }
      }
      const isLast = messages.slice(index + 1).every((m) => m.role === 'tool');
      for (const call of calls) {
        if (!answered.has(call.toolCallId) && !isLast)
          problems.push(`missing_tool_result@${index}`);
      }
    }
  }
  if (inputStartsWithUser && firstNonSystem !== undefined && firstNonSystem.role !== 'user') {
    problems.push('first_not_user');
  }
  return [...new Set(problems)];
}

function sameMessage(a: Message, b: Message): boolean {
  return a.role === b.role && messageText(a) === messageText(b);
}

/** The head: leading system messages and the first user message. */
export function headOf(messages: readonly Message[]): Message[] {
  const head: Message[] = [];
  for (const message of messages) {
    head.push(message);
    if (message.role === 'user') break;
  }
  return head;
}

export function latestAsk(messages: readonly Message[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const text = userText(messages[index]!);
    if (text !== undefined) return text;
  }
  return undefined;
}

export interface ScoreInput {
  input: readonly Message[];
  inputFacts: Facts;
  output: readonly Message[] | undefined;
  threw: boolean;
  targetTokens: number;
  counter: TokenCounter;
  failureMarker: string;
  failureMessageLength: number;
}

export function score(args: ScoreInput): Score {
  const { input, output, counter, targetTokens } = args;
  const tokensBefore = counter.countMessages(input as never);
  if (output === undefined) {
    return {
      accepted: false,
      problems: ['exception'],
      headKept: false,
      latestAskKept: false,
      tokensBefore,
      tokensAfter: Number.NaN,
      targetTokens,
      withinBudget: false,
      facts: { files: 0, errors: 0, tools: 0, asks: 0 },
      behaviour: 'exception',
    };
  }
  const firstNonSystem = input.find((message) => message.role !== 'system');
  const problems = providerProblems(output, firstNonSystem?.role === 'user');
  const head = headOf(input);
  // System text may move into the framework's own system prompt; compare the non-system head in order and
  // the system text anywhere among the leading system messages.
  const outHeadSystems = output
    .filter((message) => message.role === 'system')
    .map(messageText)
    .join('\n');
  // A framework that merges the next user turn into the same message keeps it as a separate text part.
  const parts = (message: Message): string[] =>
    message.role === 'user' && Array.isArray(message.content)
      ? message.content.map((part) => part.text)
      : [];
  // The head's non-system messages (a transcript may open with assistant and tool turns before the first
  // user message) must open the output's non-system messages, in order.
  const outNonSystem = output.filter((message) => message.role !== 'system');
  const headKept =
    head.every(
      (message) => message.role !== 'system' || outHeadSystems.includes(message.content),
    ) &&
    head
      .filter((message) => message.role !== 'system')
      .every((message, index) => {
        const out = outNonSystem[index];
        return (
          out !== undefined &&
          (sameMessage(message, out) ||
            (message.role === 'user' && parts(out)[0] === userText(message)))
        );
      });
  const ask = latestAsk(input);
  const latestAskKept =
    ask === undefined ||
    output.some((message) => userText(message) === ask || parts(message).includes(ask));
  const tokensAfter = counter.countMessages(output as never);
  const inputTexts = new Set(
    input.map((message) => `${message.role}\u0000${messageText(message)}`),
  );
  const inserted = output.some(
    (message) => !inputTexts.has(`${message.role}\u0000${messageText(message)}`),
  );
  const lost = tokensAfter < tokensBefore || output.length < input.length;
  // The error counts as the summary when an inserted message is little more than the error text; a long
  // fallback that quotes the error as its reason is a fallback.
  const errorAsSummary = output.some((message) => {
    const text = messageText(message);
    return (
      text.includes(args.failureMarker) &&
      !inputTexts.has(`${message.role}\u0000${text}`) &&
      text.length <= args.failureMessageLength + 400
    );
  });
  const behaviour: FailureBehaviour = errorAsSummary
    ? 'error text as summary'
    : !lost
      ? 'unchanged'
      : inserted
        ? 'notice or fallback'
        : 'silent loss';
  return {
    accepted: problems.length === 0,
    problems,
    headKept,
    latestAskKept,
    tokensBefore,
    tokensAfter,
    targetTokens,
    withinBudget: tokensAfter <= targetTokens,
    facts: factSurvival(args.inputFacts, output),
    behaviour,
  };
}
