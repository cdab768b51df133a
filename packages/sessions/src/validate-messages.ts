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
  const problem = findNonJson(record, path);
  if (problem) fail(problem.path, problem.message);
}

export function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The deepest nesting of arrays and objects the store accepts, counting the outermost (a message or
 * the metadata object) as 1. Generous for any real message or tool output, and far below where
 * `JSON.stringify`, the drivers or PostgreSQL's JSON parser would run out of stack.
 */
export const maxNestingDepth = 1_000;

/** Where a value sits: the walked value itself, an array element, an object property, or a key. */
export type JsonRole = 'root' | 'element' | 'property' | 'key';

/** One array or object on the walk: its parent and the key leading to it, to build its path on demand. */
interface Frame {
  value: unknown;
  parent: Frame | undefined;
  /** `[3]` or `.name`, appended to the parent's path. */
  step: string;
  depth: number;
}

/**
 * The path of `frame`, built only when a problem is reported: building every node's path as the walk
 * goes would cost time and memory quadratic in the depth.
 */
function pathOf(root: string, frame: Frame | undefined, step = ''): string {
  const steps: string[] = [step];
  for (let current = frame; current !== undefined; current = current.parent)
    steps.push(current.step);
  return root + steps.reverse().join('');
}

/**
 * Calls `visit` for every value under `value` (itself included), depth-first (a container's own
 * entries are all checked before any of them is entered), and returns the first problem it reports,
 * with its path. Iterative, with an explicit stack, so no input
 * can exhaust the call stack; linear in the size of the data. Refuses nesting deeper than
 * `maxNestingDepth` and cycles (a value inside itself). `visit` gets each array or object with
 * its role: `element` (of an array), `property` (of an object), `key` (an object's key, as a
 * string), or `root`; it returns a problem, or `undefined` when the value is acceptable.
 */
export function walkJson(
  value: unknown,
  path: string,
  visit: (value: unknown, role: JsonRole) => string | undefined,
): { path: string; message: string } | undefined {
  const firstProblem = visit(value, 'root');
  if (firstProblem !== undefined) return { path, message: firstProblem };
  if (typeof value !== 'object' || value === null) return undefined;
  // Entries still to visit, last first; `exit` pops a container off the ancestors when it is done.
  type Task = { kind: 'enter'; frame: Frame } | { kind: 'exit'; value: object };
  const ancestors = new Set<unknown>();
  const tasks: Task[] = [
    { kind: 'enter', frame: { value, parent: undefined, step: '', depth: 1 } },
  ];
  while (tasks.length > 0) {
    const task = tasks.pop()!;
    if (task.kind === 'exit') {
      ancestors.delete(task.value);
      continue;
    }
    const { frame } = task;
    const container = frame.value as object;
    if (ancestors.has(container))
      return { path: pathOf(path, frame), message: 'is a circular reference' };
    if (frame.depth > maxNestingDepth) {
      return {
        path: pathOf(path, frame),
        message: `is nested deeper than ${maxNestingDepth} levels of arrays and objects`,
      };
    }
    ancestors.add(container);
    tasks.push({ kind: 'exit', value: container });
    const children: Frame[] = [];
    if (Array.isArray(container)) {
      for (let index = 0; index < container.length; index++) {
        const step = `[${index}]`;
        const child = container[index];
        const problem = visit(child, 'element');
        if (problem !== undefined) return { path: pathOf(path, frame, step), message: problem };
        if (typeof child === 'object' && child !== null) {
          children.push({ value: child, parent: frame, step, depth: frame.depth + 1 });
        }
      }
    } else {
      for (const [key, child] of Object.entries(container)) {
        const keyProblem = visit(key, 'key');
        // The key itself is not shown: it is the offending value.
        if (keyProblem !== undefined)
          return { path: `${pathOf(path, frame)} (a key)`, message: keyProblem };
        const step = `.${key}`;
        const problem = visit(child, 'property');
        if (problem !== undefined) return { path: pathOf(path, frame, step), message: problem };
        if (typeof child === 'object' && child !== null) {
          children.push({ value: child, parent: frame, step, depth: frame.depth + 1 });
        }
      }
    }
    for (let index = children.length - 1; index >= 0; index--) {
      tasks.push({ kind: 'enter', frame: children[index]! });
    }
  }
  return undefined;
}

/**
 * The first value under `value` that JSON cannot carry unchanged (`Date`, `Uint8Array`, `NaN`, a
 * function, an `undefined` array element, a cycle) or nested deeper than `maxNestingDepth`, with its
 * path; `undefined` when it is plain data. Shared by messages and metadata so both refuse the same things.
 */
export function findNonJson(
  value: unknown,
  path: string,
): { path: string; message: string } | undefined {
  return walkJson(value, path, (child, role) => {
    if (role === 'key') return undefined;
    switch (typeof child) {
      case 'string':
      case 'boolean':
        return undefined;
      case 'number':
        return Number.isFinite(child) ? undefined : `${child} cannot be stored as JSON`;
      case 'undefined':
        // An undefined property is the same as an absent one, in JSON and in the AI SDK; JSON would
        // turn an undefined array element into null.
        return role === 'property' ? undefined : 'is undefined';
      case 'object': {
        if (child === null || Array.isArray(child) || isPlainObject(child)) return undefined;
        const kind = (child as object).constructor?.name ?? 'object';
        return `is a ${kind}, not plain JSON data (encode binary data as a base64 string)`;
      }
      default:
        return `is a ${typeof child}, not JSON data`;
    }
  });
}
