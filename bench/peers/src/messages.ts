/**
 * The common message shape of the harness: the AI SDK `ModelMessage` subset the corpus uses. Every peer's
 * output is converted back to it by code in this folder; `parseModelMessages` is strict so that a peer whose
 * output cannot be read fails the run instead of scoring as an empty (silent zero) result.
 */
export type TextPart = { type: 'text'; text: string };
export type ReasoningPart = { type: 'reasoning'; text: string };
export type ToolCallPart = {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: unknown;
};
export type ToolResultPart = {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output:
    | { type: 'text' | 'error-text'; value: string }
    | { type: 'json' | 'error-json'; value: unknown };
};
export type Message =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | TextPart[] }
  | { role: 'assistant'; content: string | Array<TextPart | ReasoningPart | ToolCallPart> }
  | { role: 'tool'; content: ToolResultPart[] };

/** Thrown when a peer's output cannot be read: the run must stop (non-zero), never score it as zero. */
export class PeerOutputError extends Error {
  constructor(peer: string, detail: string) {
    super(`${peer}: output cannot be parsed: ${detail}`);
    this.name = 'PeerOutputError';
  }
}

function fail(peer: string, path: string, detail: string): never {
  throw new PeerOutputError(peer, `${path}: ${detail}`);
}

export function parseModelMessages(value: unknown, peer: string): Message[] {
  if (!Array.isArray(value)) fail(peer, 'messages', 'not an array');
  value.forEach((message, index) => {
    const path = `messages[${index}]`;
    if (typeof message !== 'object' || message === null) fail(peer, path, 'not an object');
    const { role, content } = message as { role?: unknown; content?: unknown };
    if (role === 'system') {
      if (typeof content !== 'string') fail(peer, path, 'system content not a string');
      return;
    }
    if (role !== 'user' && role !== 'assistant' && role !== 'tool')
      fail(peer, path, 'unknown role');
    if (typeof content === 'string') {
      if (role === 'tool') fail(peer, path, 'tool content is a string');
      return;
    }
    if (!Array.isArray(content)) fail(peer, path, 'content neither string nor array');
    content.forEach((part, partIndex) => {
      const at = `${path}.content[${partIndex}]`;
      if (typeof part !== 'object' || part === null) fail(peer, at, 'not an object');
      const p = part as Record<string, unknown>;
      const allowed =
        role === 'user'
          ? ['text']
          : role === 'assistant'
            ? ['text', 'reasoning', 'tool-call']
            : ['tool-result'];
      if (!allowed.includes(p.type as string)) fail(peer, at, `part type not allowed for ${role}`);
      if ((p.type === 'text' || p.type === 'reasoning') && typeof p.text !== 'string') {
        fail(peer, at, 'text not a string');
      }
      if (p.type === 'tool-call' || p.type === 'tool-result') {
        if (typeof p.toolCallId !== 'string' || typeof p.toolName !== 'string') {
          fail(peer, at, 'toolCallId/toolName not strings');
        }
      }
      if (p.type === 'tool-result') {
        const output = p.output as { type?: unknown; value?: unknown } | undefined;
        if (typeof output !== 'object' || output === null) fail(peer, at, 'output missing');
        if (!['text', 'error-text', 'json', 'error-json'].includes(output.type as string)) {
          fail(peer, at, 'unknown output type');
        }
      }
    });
  });
  return value as Message[];
}

/** Plain text of one message (text, reasoning, tool inputs and outputs), for fact matching. */
export function messageText(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  const pieces: string[] = [];
  for (const part of message.content) {
    if (part.type === 'text' || part.type === 'reasoning') pieces.push(part.text);
    else if (part.type === 'tool-call') {
      pieces.push(
        part.toolName,
        typeof part.input === 'string' ? part.input : JSON.stringify(part.input),
      );
    } else if (part.type === 'tool-result') {
      const v = part.output.value;
      pieces.push(typeof v === 'string' ? v : JSON.stringify(v));
    }
  }
  return pieces.join('\n');
}

export function userText(message: Message): string | undefined {
  if (message.role !== 'user') return undefined;
  return typeof message.content === 'string'
    ? message.content
    : message.content.map((part) => part.text).join('\n');
}
