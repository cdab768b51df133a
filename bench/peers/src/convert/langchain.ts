/** AI SDK `ModelMessage` <-> LangChain JS messages (written for this harness). */
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { type Message, PeerOutputError, type ToolResultPart } from '../messages.ts';

const toArgs = (input: unknown): Record<string, unknown> =>
  typeof input === 'object' && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : { value: input };

export function toLangChain(messages: readonly Message[]): BaseMessage[] {
  const out: BaseMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') out.push(new SystemMessage(message.content));
    else if (message.role === 'user') {
      out.push(
        new HumanMessage(
          typeof message.content === 'string'
            ? message.content
            : message.content.map((part) => part.text).join('\n'),
        ),
      );
    } else if (message.role === 'assistant') {
      if (typeof message.content === 'string') {
        out.push(new AIMessage(message.content));
        continue;
      }
      const blocks: Array<Record<string, unknown>> = [];
      const toolCalls: {
        id: string;
        name: string;
        args: Record<string, unknown>;
        type: 'tool_call';
      }[] = [];
      for (const part of message.content) {
        if (part.type === 'text') blocks.push({ type: 'text', text: part.text });
        else if (part.type === 'reasoning')
          blocks.push({ type: 'reasoning', reasoning: part.text });
        else
          toolCalls.push({
            id: part.toolCallId,
            name: part.toolName,
            args: toArgs(part.input),
            type: 'tool_call',
          });
      }
      out.push(new AIMessage({ content: blocks as never, tool_calls: toolCalls }));
    } else {
      for (const part of message.content) {
        const value = part.output.value;
        out.push(
          new ToolMessage({
            content: typeof value === 'string' ? value : JSON.stringify(value),
            tool_call_id: part.toolCallId,
            name: part.toolName,
            status: part.output.type.startsWith('error') ? 'error' : 'success',
          }),
        );
      }
    }
  }
  return out;
}

function contentText(content: unknown, peer: string, where: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    throw new PeerOutputError(peer, `${where}: content of unknown shape`);
  return content
    .map((block) => {
      if (typeof block === 'string') return block;
      if (block?.type === 'text' && typeof block.text === 'string') return block.text;
      throw new PeerOutputError(peer, `${where}: content block ${JSON.stringify(block?.type)}`);
    })
    .join('\n');
}

export function fromLangChain(messages: readonly BaseMessage[], peer: string): Message[] {
  const out: Message[] = [];
  messages.forEach((message, index) => {
    const where = `messages[${index}]`;
    const type = message.getType();
    if (type === 'system')
      out.push({ role: 'system', content: contentText(message.content, peer, where) });
    else if (type === 'human')
      out.push({ role: 'user', content: contentText(message.content, peer, where) });
    else if (type === 'ai') {
      const ai = message as AIMessage;
      const parts: Extract<Message, { role: 'assistant' }>['content'] = [];
      if (typeof ai.content === 'string') {
        if (ai.content !== '') parts.push({ type: 'text', text: ai.content });
      } else if (Array.isArray(ai.content)) {
        for (const block of ai.content as Array<Record<string, unknown>>) {
          if (block.type === 'text') parts.push({ type: 'text', text: String(block.text) });
          else if (block.type === 'reasoning')
            parts.push({ type: 'reasoning', text: String(block.reasoning) });
          else throw new PeerOutputError(peer, `${where}: ai block ${JSON.stringify(block.type)}`);
        }
      } else throw new PeerOutputError(peer, `${where}: ai content of unknown shape`);
      for (const call of ai.tool_calls ?? []) {
        if (typeof call.id !== 'string')
          throw new PeerOutputError(peer, `${where}: tool call without id`);
        parts.push({
          type: 'tool-call',
          toolCallId: call.id,
          toolName: call.name,
          input: call.args,
        });
      }
      out.push({ role: 'assistant', content: parts });
    } else if (type === 'tool') {
      const tool = message as ToolMessage;
      const part: ToolResultPart = {
        type: 'tool-result',
        toolCallId: tool.tool_call_id,
        toolName: tool.name ?? 'unknown',
        output: {
          type: tool.status === 'error' ? 'error-text' : 'text',
          value: contentText(tool.content, peer, where),
        },
      };
      const last = out[out.length - 1];
      if (last?.role === 'tool') last.content.push(part);
      else out.push({ role: 'tool', content: [part] });
    } else throw new PeerOutputError(peer, `${where}: message type ${type}`);
  });
  return out;
}
