import { MessageValidationError } from './message-validation-error.js';
import type { SessionMessage } from './types.js';

const roles = new Set(['system', 'user', 'assistant', 'tool']);

/**
 * Throws `MessageValidationError` for the first malformed message: not an AI SDK `ModelMessage`
 * shape, or not plain JSON data (stored messages must read back deep-equal, so values JSON cannot
 * carry, such as `Uint8Array`, `Date`, `NaN` or functions, are refused rather than silently changed).
 */
export function validateMessages(messages: unknown, label = 'messages'): SessionMessage[] {
  if (!Array.isArray(messages)) {
    throw new MessageValidationError({ index: -1, path: label, message: 'must be an array' });
  }
  messages.forEach((message, index) => {
    validateMessage(message, index, `${label}[${index}]`);
  });
  return messages as SessionMessage[];
}

function validateMessage(message: unknown, index: number, path: string): void {
  const fail = (where: string, problem: string): never => {
    throw new MessageValidationError({ index, path: where, message: problem });
  };
  if (!isPlainObject(message)) fail(path, 'must be a message object');
  const record = message as Record<string, unknown>;
  if (typeof record.role !== 'string' || !roles.has(record.role)) {
    fail(`${path}.role`, `must be one of ${[...roles].join(', ')}`);
  }
  const content = record.content;
  if (record.role === 'system') {
    if (typeof content !== 'string')
      fail(`${path}.content`, 'must be a string for a system message');
  } else if (typeof content !== 'string' && !Array.isArray(content)) {
    fail(`${path}.content`, 'must be a string or an array of parts');
  }
  if (Array.isArray(content)) {
    content.forEach((part, partIndex) => {
      if (!isPlainObject(part) || typeof (part as Record<string, unknown>).type !== 'string') {
        fail(`${path}.content[${partIndex}]`, 'must be a part object with a string `type`');
      }
    });
  }
  const problem = findNonJson(record, path, new Set());
  if (problem) fail(problem.path, problem.message);
}

export function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The first value under `value` that JSON cannot carry unchanged (`Date`, `Uint8Array`, `NaN`, a
 * function, an `undefined` array element, a cycle), with its path; `undefined` when it is plain data.
 * Shared by messages and metadata so both refuse the same things.
 */
export function findNonJson(
  value: unknown,
  path: string,
  ancestors: Set<unknown>,
): { path: string; message: string } | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value)
        ? undefined
        : { path, message: `${value} cannot be stored as JSON` };
    case 'object': {
      if (value === null) return undefined;
      if (ancestors.has(value)) return { path, message: 'is a circular reference' };
      ancestors.add(value);
      try {
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            if (value[i] === undefined) return { path: `${path}[${i}]`, message: 'is undefined' };
            const found = findNonJson(value[i], `${path}[${i}]`, ancestors);
            if (found) return found;
          }
          return undefined;
        }
        if (!isPlainObject(value)) {
          const kind = (value as object).constructor?.name ?? 'object';
          return {
            path,
            message: `is a ${kind}, not plain JSON data (encode binary data as a base64 string)`,
          };
        }
        for (const [key, child] of Object.entries(value)) {
          // An undefined property is the same as an absent one, in JSON and in the AI SDK.
          if (child === undefined) continue;
          const found = findNonJson(child, `${path}.${key}`, ancestors);
          if (found) return found;
        }
        return undefined;
      } finally {
        ancestors.delete(value);
      }
    }
    default:
      return { path, message: `is a ${typeof value}, not JSON data` };
  }
}
