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

function checkString(part: Record<string, unknown>, key: string, path: string): void {
  if (typeof part[key] !== 'string') fail(`${path}.${key}`, 'must be a string');
}

function checkOutput(output: unknown, path: string): void {
  if (!isRecord(output)) fail(path, 'must be a tool result output object');
  if (typeof output.type !== 'string' || !outputTypes.has(output.type)) {
    fail(
      `${path}.type`,
      `must be one of ${[...outputTypes].join(', ')}, got ${describeValue(output.type)}`,
    );
  }
  if ((output.type === 'text' || output.type === 'error-text') && typeof output.value !== 'string')
    fail(`${path}.value`, 'must be a string');
  if ((output.type === 'json' || output.type === 'error-json') && output.value === undefined)
    fail(`${path}.value`, 'must be a JSON value');
  if (output.type === 'content' && !Array.isArray(output.value))
    fail(`${path}.value`, 'must be an array of content parts');
}

function checkPart(part: unknown, role: string, path: string): void {
  if (!isRecord(part)) fail(path, 'must be a content part object');
  if (typeof part.type !== 'string' || !partTypes[role]!.has(part.type)) {
    fail(
      `${path}.type`,
      `must be one of ${[...partTypes[role]!].join(', ')} in a ${role} message, got ${describeValue(part.type)}`,
    );
  }
  switch (part.type) {
    case 'text':
    case 'reasoning':
      checkString(part, 'text', path);
      break;
    case 'tool-call':
      checkString(part, 'toolCallId', path);
      checkString(part, 'toolName', path);
      if (part.input === undefined) fail(`${path}.input`, 'must be present (the call arguments)');
      break;
    case 'tool-result':
      checkString(part, 'toolCallId', path);
      checkString(part, 'toolName', path);
      checkOutput(part.output, `${path}.output`);
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
    const path = `messages[${index}]`;
    const message: unknown = messages[index];
    if (!isRecord(message)) fail(path, 'must be a message object');
    const { role, content } = message;
    if (role === 'system') {
      if (typeof content !== 'string')
        fail(`${path}.content`, 'must be a string in a system message');
      continue;
    }
    if (role !== 'user' && role !== 'assistant' && role !== 'tool') {
      fail(
        `${path}.role`,
        `must be "system", "user", "assistant" or "tool", got ${describeValue(role)}`,
      );
    }
    if (typeof content === 'string') {
      if (role === 'tool')
        fail(`${path}.content`, 'must be an array of tool results in a tool message');
      continue;
    }
    if (!Array.isArray(content)) fail(`${path}.content`, 'must be a string or an array of parts');
    for (let partIndex = 0; partIndex < content.length; partIndex++) {
      checkPart(content[partIndex], role, `${path}.content[${partIndex}]`);
    }
  }
}
