/**
 * Test support: the normal form each converter pair must give back for a conversation, written from the
 * formats' rules (what each format can and cannot carry), not from the converters.
 */
import { type Message, type ToolResultPart, userText } from '../messages.ts';

const isObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const stringified = (part: ToolResultPart) =>
  typeof part.output.value === 'string' ? part.output.value : JSON.stringify(part.output.value);

function mergeTools(out: Message[], parts: ToolResultPart[]): void {
  const last = out[out.length - 1];
  if (last?.role === 'tool') last.content.push(...parts);
  else out.push({ role: 'tool', content: parts });
}

/**
 * OpenAI chat dicts carry one text and one reasoning string per assistant message, arguments as a JSON
 * string and results as plain text without an error flag; parts come back reasoning, text, calls.
 */
export function expectedOpenAI(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    if (message.role === 'system') out.push(message);
    else if (message.role === 'user') out.push({ role: 'user', content: userText(message)! });
    else if (message.role === 'assistant') {
      const parts =
        typeof message.content === 'string'
          ? [{ type: 'text' as const, text: message.content }]
          : message.content;
      const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
      const reasoning = parts.flatMap((p) => (p.type === 'reasoning' ? [p.text] : [])).join('\n');
      const calls = parts.flatMap((p) => {
        if (p.type !== 'tool-call') return [];
        let input = p.input;
        // A string input goes out as-is and comes back parsed when it is JSON.
        if (typeof input === 'string') {
          try {
            input = JSON.parse(input);
          } catch {}
        }
        return [{ ...p, input }];
      });
      out.push({
        role: 'assistant',
        content: [
          ...(reasoning ? [{ type: 'reasoning' as const, text: reasoning }] : []),
          ...(text ? [{ type: 'text' as const, text }] : []),
          ...calls,
        ],
      });
    } else {
      mergeTools(
        out,
        message.content.map((part) => ({
          ...part,
          output: { type: 'text', value: stringified(part) },
        })),
      );
    }
  }
  return out;
}

/**
 * LangChain messages (JS and Python alike): user parts become one text; an assistant's text and reasoning
 * blocks come back in order before its tool calls; a non-object tool input is wrapped as `{ value }`;
 * results come back as text (JSON stringified), errors flagged, and consecutive tool messages merge.
 */
export function expectedLangChain(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    if (message.role === 'system') out.push(message);
    else if (message.role === 'user') out.push({ role: 'user', content: userText(message)! });
    else if (message.role === 'assistant') {
      if (typeof message.content === 'string') {
        out.push({
          role: 'assistant',
          content: message.content === '' ? [] : [{ type: 'text', text: message.content }],
        });
        continue;
      }
      const blocks = message.content.filter((part) => part.type !== 'tool-call');
      const calls = message.content.flatMap((p) =>
        p.type === 'tool-call'
          ? [{ ...p, input: isObject(p.input) ? p.input : { value: p.input } }]
          : [],
      );
      out.push({ role: 'assistant', content: [...blocks, ...calls] });
    } else {
      mergeTools(
        out,
        message.content.map((part) => ({
          ...part,
          output: {
            type: part.output.type.startsWith('error') ? 'error-text' : 'text',
            value: stringified(part),
          },
        })),
      );
    }
  }
  return out;
}

/**
 * OpenHands events, then the LLM messages OpenHands renders from its view: as OpenAI dicts, except that user
 * content is a list of text parts, consecutive user messages merge into one (a part each), and OpenHands
 * prefixes an error observation with its own notice (the original text must end the result). OpenHands'
 * view drops a tool call that has no result (the transcript's last call, still running).
 */
export function expectedOpenHands(messages: readonly Message[]): Message[] {
  const answered = new Set(
    messages.flatMap((m) => (m.role === 'tool' ? m.content.map((part) => part.toolCallId) : [])),
  );
  const out: Message[] = [];
  for (const message of expectedOpenAI(messages)) {
    if (message.role === 'assistant' && Array.isArray(message.content)) {
      const content = message.content.filter(
        (part) => part.type !== 'tool-call' || answered.has(part.toolCallId),
      );
      if (content.length > 0 || message.content.length === 0)
        out.push({ role: 'assistant', content });
      continue;
    }
    if (message.role !== 'user') {
      out.push(message);
      continue;
    }
    const part = { type: 'text' as const, text: message.content as string };
    const last = out[out.length - 1];
    if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(part);
    else out.push({ role: 'user', content: [part] });
  }
  return out;
}
