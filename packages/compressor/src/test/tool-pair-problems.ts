/** A message in any of the shapes the checker reads: AI SDK, provider prompt or OpenAI chat. */
export interface PairedMessage {
  role: string;
  content?: unknown;
  tool_calls?: unknown;
  tool_call_id?: unknown;
}

export interface ToolPairProblemsOptions {
  /**
   * Whether the calls of an assistant message that only tool messages follow may be unanswered, as
   * in a transcript cut while its tools ran. Default: false (a request sent to a model must answer
   * every call).
   */
  allowOpenCalls?: boolean;
}

interface PartLike {
  type?: unknown;
  toolCallId?: unknown;
  providerExecuted?: unknown;
}

function partsOf(message: PairedMessage): PartLike[] {
  return Array.isArray(message.content)
    ? message.content.filter((part): part is PartLike => typeof part === 'object' && part !== null)
    : [];
}

/** Ids of the calls a message makes that a tool message must answer. */
function callsOf(message: PairedMessage): string[] {
  const calls = partsOf(message)
    .filter((part) => part.type === 'tool-call' && part.providerExecuted !== true)
    .map((part) => String(part.toolCallId));
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) calls.push(String((call as { id?: unknown }).id));
  }
  return calls;
}

function resultsOf(message: PairedMessage): string[] {
  const results = partsOf(message)
    .filter((part) => part.type === 'tool-result')
    .map((part) => String(part.toolCallId));
  if (message.tool_call_id !== undefined) results.push(String(message.tool_call_id));
  return results;
}

/**
 * An independent check of tool pairing for tests, written apart from the compressor's
 * `validateToolPairs` so that a bug there cannot hide itself: every tool message follows an
 * assistant message with calls (directly or after other tool messages), answers a call of that
 * message, answers it once, and every call is answered (see `allowOpenCalls`). Results of
 * provider-executed calls may sit in the assistant message that made the call. Reads AI SDK
 * `ModelMessage`s, provider prompts and OpenAI chat messages. Returns the problems as text, empty
 * when the pairing is valid.
 */
export function toolPairProblems(
  messages: readonly PairedMessage[],
  { allowOpenCalls = false }: ToolPairProblemsOptions = {},
): string[] {
  const problems: string[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'tool') {
      problems.push(`#${index}: tool message without a preceding call`);
      continue;
    }
    const providerCalls = new Set(
      partsOf(message)
        .filter((part) => part.type === 'tool-call' && part.providerExecuted === true)
        .map((part) => String(part.toolCallId)),
    );
    for (const id of resultsOf(message)) {
      if (message.role !== 'assistant' || !providerCalls.has(id))
        problems.push(`#${index}: result ${id} outside a tool message`);
    }
    if (message.role !== 'assistant') continue;
    const calls = callsOf(message);
    if (calls.length === 0) continue;
    const answered = new Set<string>();
    const callIndex = index;
    while (messages[index + 1]?.role === 'tool') {
      index++;
      for (const id of resultsOf(messages[index]!)) {
        if (!calls.includes(id)) problems.push(`#${index}: result ${id} without its call`);
        else if (answered.has(id)) problems.push(`#${index}: result ${id} twice`);
        answered.add(id);
      }
    }
    if (allowOpenCalls && index === messages.length - 1) continue;
    for (const id of calls)
      if (!answered.has(id)) problems.push(`#${callIndex}: call ${id} never answered`);
  }
  return problems;
}
