import type { UIMessage } from 'ai';
import { MessageText } from './message-text.js';

interface ToolPartView {
  type: string;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  toolName?: string;
}

function describeInput(input: unknown): string {
  if (typeof input !== 'object' || input === null) return '';
  const record = input as Record<string, unknown>;
  if (typeof record['command'] === 'string') {
    const args = Array.isArray(record['args']) ? (record['args'] as string[]).join(' ') : '';
    return `${record['command']} ${args}`.trim();
  }
  if (typeof record['pattern'] === 'string')
    return `"${record['pattern']}" in ${record['path'] ?? '.'}`;
  if (typeof record['path'] === 'string') return record['path'];
  return JSON.stringify(record);
}

function ToolCall({ part }: { part: ToolPartView }) {
  const name = part.toolName ?? part.type.replace(/^tool-/, '');
  const failed = part.state === 'output-error';
  const done = part.state === 'output-available' || failed;
  const output = failed
    ? part.errorText
    : typeof part.output === 'string'
      ? part.output
      : JSON.stringify(part.output, null, 2);
  const exitCode = typeof output === 'string' ? /^exit code (\d+)/m.exec(output)?.[1] : undefined;
  const status = failed
    ? 'error'
    : !done
      ? 'running'
      : exitCode && exitCode !== '0'
        ? `exit ${exitCode}`
        : 'ok';
  return (
    <details
      className={`tool ${failed || (exitCode && exitCode !== '0') ? 'tool-failed' : ''}`}
      data-testid="tool-call"
    >
      <summary>
        <span className="tool-name">{name}</span> <code>{describeInput(part.input)}</code>
        <span className="tool-status">{status}</span>
      </summary>
      {done ? <pre>{output}</pre> : null}
    </details>
  );
}

/** One chat message: text parts as prose, tool calls as collapsible rows. */
export function ChatMessage({ message }: { message: UIMessage }) {
  return (
    <div className={`message ${message.role}`} data-testid={`message-${message.role}`}>
      <div className="role">{message.role === 'user' ? 'You' : 'Agent'}</div>
      <div className="body">
        {message.parts.map((part, index) => {
          if (part.type === 'text') {
            // biome-ignore lint/suspicious/noArrayIndexKey: parts are append-only
            return <MessageText key={index} text={part.text} />;
          }
          if (part.type.startsWith('tool-') || part.type === 'dynamic-tool') {
            const tool = part as unknown as ToolPartView;
            return <ToolCall key={tool.toolCallId} part={tool} />;
          }
          return null;
        })}
      </div>
    </div>
  );
}
