import type { ModelMessage } from '@ai-sdk/provider-utils';
import { ReceiptInputError } from './receipt-input-error.js';
import { type RedactSecretsOptions, redactSecrets } from './redact-secrets.js';
import { isKeyedSecret, keyIsSecret } from './secret-rules.js';
import { circularMarker, deepValueMarker, maxWalkDepth } from './walk-limits.js';

/** A finding inside a message list: where (`messages[2].content[0].text`) and what kind. */
export interface MessageSecretFinding {
  path: string;
  kind: string;
  /** Position within the string at `path` (original text, end exclusive). */
  start: number;
  end: number;
}

export interface RedactMessagesResult<M> {
  /**
   * The messages with every secret replaced; the input is not mutated. Copy-on-write: a message
   * (part, object, array) in which nothing was found is returned as it is, not copied, and when
   * nothing was found at all this is the input array itself.
   */
  messages: readonly M[];
  findings: MessageSecretFinding[];
}

// Protocol fields are kept only where the AI SDK puts them. Everything a tool or a model wrote
// (tool inputs, tool outputs) is free data, where a key named `data`, `type` or `role` is just a key.
const messageFields = new Set(['role', 'providerOptions']);
const partFields = new Set([
  'type',
  'toolCallId',
  'toolName',
  'approvalId',
  'mediaType',
  'providerOptions',
  'providerExecuted',
  'signature',
]);
// Parts whose `data`/`image` is a binary payload (base64, bytes or a URL to one).
const binaryParts = new Set([
  'file',
  'image',
  'reasoning-file',
  'media',
  'image-data',
  'file-data',
]);
const binaryFields = new Set(['data', 'image']);

function plainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function setField(target: Record<string, unknown>, field: string, value: unknown): void {
  // A `__proto__` key of parsed JSON is an own property; plain assignment would change the prototype.
  if (field === '__proto__') {
    Object.defineProperty(target, field, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    target[field] = value;
  }
}

/**
 * Where a value sits, built lazily: a path string (`messages[2].content[0].text`) is rendered only
 * for a finding, so a clean history allocates none.
 */
interface Path {
  readonly parent: Path | undefined;
  /** `.field` or `[index]` (a number), or the root's own text. */
  readonly segment: string | number;
  readonly field: boolean;
}

function child(parent: Path, segment: string | number): Path {
  return { parent, segment, field: typeof segment === 'string' };
}

function renderPath(path: Path): string {
  const segments: string[] = [];
  for (let at: Path | undefined = path; at !== undefined; at = at.parent) {
    if (at.parent === undefined) segments.push(String(at.segment));
    else segments.push(at.field ? `.${at.segment}` : `[${at.segment}]`);
  }
  return segments.reverse().join('');
}

/**
 * Copy-on-write: `fields` of `value` mapped by `map`; `value` itself when every field came back
 * unchanged, else a fresh object with every field (mapped or not).
 */
function mapFields(
  value: Record<string, unknown>,
  map: (field: string, inner: unknown) => unknown,
): Record<string, unknown> {
  const entries = Object.entries(value);
  let copy: Record<string, unknown> | undefined;
  for (let index = 0; index < entries.length; index++) {
    const [field, inner] = entries[index]!;
    const mapped = map(field, inner);
    if (copy === undefined && mapped !== inner) {
      copy = {};
      for (let before = 0; before < index; before++) {
        setField(copy, entries[before]![0], entries[before]![1]);
      }
    }
    if (copy !== undefined) setField(copy, field, mapped);
  }
  return copy ?? value;
}

/** Copy-on-write `Array.prototype.map`: `items` itself when no item changed (holes stay holes). */
function mapItems(
  items: readonly unknown[],
  map: (item: unknown, index: number) => unknown,
): unknown[] {
  let copy: unknown[] | undefined;
  for (let index = 0; index < items.length; index++) {
    if (!(index in items)) continue;
    const item = items[index];
    const mapped = map(item, index);
    if (copy === undefined && mapped !== item) copy = items.slice();
    if (copy !== undefined) copy[index] = mapped;
  }
  return copy ?? (items as unknown[]);
}

class Redactor {
  readonly findings: MessageSecretFinding[] = [];
  /** Objects on the current path from the message down: a repeat is a cycle. */
  private readonly ancestors = new Set<object>();
  constructor(private readonly options: RedactSecretsOptions) {}

  string(value: string, path: Path, key?: string): string {
    if (key !== undefined) {
      if (isKeyedSecret(key, value)) {
        const kind = keyIsSecret(key) === 'strong' ? 'password' : 'secret';
        this.findings.push({ path: renderPath(path), kind, start: 0, end: value.length });
        return this.options.replacement ? this.options.replacement(kind) : `[REDACTED:${kind}]`;
      }
    }
    const result = redactSecrets(value, this.options);
    if (result.findings.length === 0) return result.text;
    const rendered = renderPath(path);
    for (const finding of result.findings) this.findings.push({ path: rendered, ...finding });
    return result.text;
  }

  /**
   * Redacts free data (tool inputs and outputs, unknown fields): every string at every depth, with
   * no field exempt. `fieldValue`, when given, maps the fields of this object (not of nested ones).
   * Returns `value` itself when nothing in it changed.
   */
  value(
    value: unknown,
    path: Path,
    depth: number,
    key?: string,
    fieldValue?: (field: string, inner: unknown, fieldPath: Path) => unknown,
  ): unknown {
    if (typeof value === 'string') return this.string(value, path, key);
    if (value === null || typeof value !== 'object') return value;
    // Binary payloads, URLs, dates and class instances keep their identity.
    if (!Array.isArray(value) && !plainObject(value)) return value;
    // Depth is counted from the message.
    if (depth > maxWalkDepth) return deepValueMarker;
    if (this.ancestors.has(value)) return circularMarker;
    this.ancestors.add(value);
    try {
      if (Array.isArray(value)) {
        return mapItems(value, (item, index) => this.value(item, child(path, index), depth + 1));
      }
      return mapFields(value, (field, inner) => {
        const fieldPath = child(path, field);
        return fieldValue
          ? fieldValue(field, inner, fieldPath)
          : this.value(inner, fieldPath, depth + 1, field);
      });
    } finally {
      this.ancestors.delete(value);
    }
  }

  /**
   * A content part: protocol fields kept, `input` and `output` redacted as free data. The `output`
   * of a message's tool-result part (`toolResult`) keeps its own protocol fields (see `output`).
   */
  part(part: unknown, path: Path, toolResult = false): unknown {
    if (typeof part !== 'object' || part === null || Array.isArray(part) || !plainObject(part)) {
      return this.value(part, path, 2);
    }
    const type = part.type;
    const binary = typeof type === 'string' && binaryParts.has(type);
    const routeOutput = toolResult && type === 'tool-result';
    return this.value(part, path, 2, undefined, (field, inner, fieldPath) => {
      if (partFields.has(field) || (binary && binaryFields.has(field))) return inner;
      if (routeOutput && field === 'output') return this.output(inner, fieldPath);
      return this.value(inner, fieldPath, 3, field);
    });
  }

  output(output: unknown, path: Path): unknown {
    if (typeof output !== 'object' || output === null || !plainObject(output)) {
      return this.value(output, path, 3);
    }
    return mapFields(output, (field, inner) => {
      if (field === 'type' || field === 'providerOptions') return inner;
      const fieldPath = child(path, field);
      if (field === 'value' && output.type === 'content' && Array.isArray(inner)) {
        return mapItems(inner, (item, index) => this.part(item, child(fieldPath, index)));
      }
      return this.value(inner, fieldPath, 4, field);
    });
  }

  message(message: Record<string, unknown>, path: Path): unknown {
    return mapFields(message, (field, inner) => {
      if (messageFields.has(field)) return inner;
      const fieldPath = child(path, field);
      if (field === 'content' && Array.isArray(inner)) {
        return mapItems(inner, (part, index) => this.part(part, child(fieldPath, index), true));
      }
      return this.value(inner, fieldPath, 1, field);
    });
  }
}

/**
 * Deep-redacts every string of AI SDK messages: text and reasoning parts, tool-call inputs, and
 * tool-result outputs of every type (`text`, `json`, `error-text`, `error-json`, `content`,
 * `execution-denied` reasons), at any depth and whatever the keys inside are called. Only the
 * protocol fields where the AI SDK defines them stay as they are (role, part `type`, ids, tool
 * names, media types, provider options, signatures, the binary `data` of file and image parts),
 * so calls and results still pair up. Object values whose key names a secret
 * (`{ password: '...' }`) are replaced whole. Cycles and nesting deeper than 64 levels are
 * replaced by a marker instead of overflowing the stack.
 */
export function redactMessages<M extends ModelMessage>(
  messages: readonly M[],
  options: RedactSecretsOptions = {},
): RedactMessagesResult<M> {
  if (!Array.isArray(messages)) {
    throw new ReceiptInputError({ path: 'messages', message: 'expected an array of messages' });
  }
  const redactor = new Redactor(options);
  let output: M[] | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    if (
      typeof message !== 'object' ||
      message === null ||
      Array.isArray(message) ||
      typeof (message as { role?: unknown }).role !== 'string'
    ) {
      throw new ReceiptInputError({
        path: `messages[${index}]`,
        message: 'expected a message with a role',
      });
    }
    const content = (message as { content?: unknown }).content;
    if (typeof content !== 'string' && !Array.isArray(content)) {
      throw new ReceiptInputError({
        path: `messages[${index}].content`,
        message: 'expected a string or an array of parts',
      });
    }
    const root: Path = { parent: undefined, segment: `messages[${index}]`, field: false };
    const redacted = redactor.message(message as Record<string, unknown>, root) as M;
    if (output === undefined && redacted !== message) output = messages.slice(0, index);
    output?.push(redacted);
  }
  return { messages: output ?? messages, findings: redactor.findings };
}
