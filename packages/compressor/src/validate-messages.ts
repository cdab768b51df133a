import type { ModelMessage } from '@ai-sdk/provider-utils';
import { describeValue, InvalidInputError, isRecord } from '@baton/tokens';

const outputTypes = new Set([
  'text',
  'json',
  'execution-denied',
  'error-text',
  'error-json',
  'content',
]);
const partTypes: Record<string, ReadonlySet<string>> = {
  user: new Set(['text', 'image', 'file']),
  assistant: new Set([
    'text',
    'custom',
    'file',
    'reasoning',
    'reasoning-file',
    'tool-call',
    'tool-result',
    'tool-approval-request',
  ]),
  tool: new Set(['tool-result', 'tool-approval-response']),
};

function fail(path: string, message: string): never {
  throw new InvalidInputError({ path, message });
}

// Paths are built only when a check fails: a long history is checked on every compaction, and a
// path string per message and part was most of what checking allocated.
const messagePath = (index: number) => `messages[${index}]`;
const partPath = (index: number, part: number) => `${messagePath(index)}.content[${part}]`;

function checkString(
  part: Record<string, unknown>,
  key: string,
  index: number,
  partIndex: number,
): void {
  if (typeof part[key] !== 'string')
    fail(`${partPath(index, partIndex)}.${key}`, 'must be a string');
}

function checkOutput(output: unknown, index: number, partIndex: number): void {
  const path = () => `${partPath(index, partIndex)}.output`;
  if (!isRecord(output)) fail(path(), 'must be a tool result output object');
  if (typeof output.type !== 'string' || !outputTypes.has(output.type)) {
    fail(
      `${path()}.type`,
      `must be one of ${[...outputTypes].join(', ')}, got ${describeValue(output.type)}`,
    );
  }
  if ((output.type === 'text' || output.type === 'error-text') && typeof output.value !== 'string')
    fail(`${path()}.value`, 'must be a string');
  if ((output.type === 'json' || output.type === 'error-json') && output.value === undefined)
    fail(`${path()}.value`, 'must be a JSON value');
  if (output.type === 'content' && !Array.isArray(output.value))
    fail(`${path()}.value`, 'must be an array of content parts');
}

function checkPart(part: unknown, role: string, index: number, partIndex: number): void {
  if (!isRecord(part)) fail(partPath(index, partIndex), 'must be a content part object');
  if (typeof part.type !== 'string' || !partTypes[role]!.has(part.type)) {
    fail(
      `${partPath(index, partIndex)}.type`,
      `must be one of ${[...partTypes[role]!].join(', ')} in a ${role} message, got ${describeValue(part.type)}`,
    );
  }
  switch (part.type) {
    case 'text':
    case 'reasoning':
      checkString(part, 'text', index, partIndex);
      break;
    case 'tool-call':
      checkString(part, 'toolCallId', index, partIndex);
      checkString(part, 'toolName', index, partIndex);
      if (part.input === undefined)
        fail(`${partPath(index, partIndex)}.input`, 'must be present (the call arguments)');
      break;
    case 'tool-result':
      checkString(part, 'toolCallId', index, partIndex);
      checkString(part, 'toolName', index, partIndex);
      checkOutput(part.output, index, partIndex);
      break;
  }
}

/**
 * Checks that every message has the AI SDK `ModelMessage` shape the pipeline relies on, so a
 * malformed history fails with the path of the bad field (`InvalidInputError`, `path` such as
 * `messages[3].content[0].toolCallId`) instead of a `TypeError` deep inside masking or a receipt
 * that rejects it halfway. `compress` runs it first; callers that read untrusted JSON (the CLI) run
 * the same check to report a bad file before compressing.
 */
export function validateMessages(messages: unknown): asserts messages is ModelMessage[] {
  if (!Array.isArray(messages)) fail('messages', 'must be an array of messages');
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    if (!isRecord(message)) fail(messagePath(index), 'must be a message object');
    const { role, content } = message;
    if (role === 'system') {
      if (typeof content !== 'string')
        fail(`${messagePath(index)}.content`, 'must be a string in a system message');
      continue;
    }
    if (role !== 'user' && role !== 'assistant' && role !== 'tool') {
      fail(
        `${messagePath(index)}.role`,
        `must be "system", "user", "assistant" or "tool", got ${describeValue(role)}`,
      );
    }
    if (typeof content === 'string') {
      if (role === 'tool')
        fail(`${messagePath(index)}.content`, 'must be an array of tool results in a tool message');
      continue;
    }
    if (!Array.isArray(content))
      fail(`${messagePath(index)}.content`, 'must be a string or an array of parts');
    for (let partIndex = 0; partIndex < content.length; partIndex++) {
      checkPart(content[partIndex], role, index, partIndex);
    }
  }
}
