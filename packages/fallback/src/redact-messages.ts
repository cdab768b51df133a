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
  /** New messages with every secret replaced; the input is not mutated. */
  messages: M[];
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

class Redactor {
  readonly findings: MessageSecretFinding[] = [];
  /** Objects on the current path from the message down: a repeat is a cycle. */
  private readonly ancestors = new Set<object>();
  constructor(private readonly options: RedactSecretsOptions) {}

  string(value: string, path: string, key?: string): string {
    if (key !== undefined) {
      if (isKeyedSecret(key, value)) {
        const kind = keyIsSecret(key) === 'strong' ? 'password' : 'secret';
        this.findings.push({ path, kind, start: 0, end: value.length });
        return this.options.replacement ? this.options.replacement(kind) : `[REDACTED:${kind}]`;
      }
    }
    const result = redactSecrets(value, this.options);
    for (const finding of result.findings) this.findings.push({ path, ...finding });
    return result.text;
  }

  /**
   * Redacts free data (tool inputs and outputs, unknown fields): every string at every depth, with
   * no field exempt. `keep` names the fields of this object (not of nested ones) left untouched.
   */
  value(
    value: unknown,
    path: string,
    depth: number,
    key?: string,
    fieldValue?: (field: string, inner: unknown, fieldPath: string) => unknown,
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
        return value.map((item, index) => this.value(item, `${path}[${index}]`, depth + 1));
      }
      const copy: Record<string, unknown> = {};
      for (const [field, inner] of Object.entries(value)) {
        const fieldPath = `${path}.${field}`;
        setField(
          copy,
          field,
          fieldValue
            ? fieldValue(field, inner, fieldPath)
            : this.value(inner, fieldPath, depth + 1, field),
        );
      }
      return copy;
    } finally {
      this.ancestors.delete(value);
    }
  }

  /**
   * A content part: protocol fields kept, `input` and `output` redacted as free data. The `output`
   * of a message's tool-result part (`toolResult`) keeps its own protocol fields (see `output`).
   */
  part(part: unknown, path: string, toolResult = false): unknown {
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

  output(output: unknown, path: string): unknown {
    if (typeof output !== 'object' || output === null || !plainObject(output)) {
      return this.value(output, path, 3);
    }
    const copy: Record<string, unknown> = {};
    for (const [field, inner] of Object.entries(output)) {
      let redacted: unknown;
      if (field === 'type' || field === 'providerOptions') redacted = inner;
      else if (field === 'value' && output.type === 'content' && Array.isArray(inner)) {
        redacted = inner.map((item, index) => this.part(item, `${path}.value[${index}]`));
      } else redacted = this.value(inner, `${path}.${field}`, 4, field);
      setField(copy, field, redacted);
    }
    return copy;
  }

  message(message: Record<string, unknown>, path: string): unknown {
    const copy: Record<string, unknown> = {};
    for (const [field, inner] of Object.entries(message)) {
      let redacted: unknown;
      if (messageFields.has(field)) redacted = inner;
      else if (field === 'content' && Array.isArray(inner)) {
        redacted = inner.map((part, index) => this.part(part, `${path}.content[${index}]`, true));
      } else redacted = this.value(inner, `${path}.${field}`, 1, field);
      setField(copy, field, redacted);
    }
    return copy;
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
  const output: M[] = [];
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
    output.push(redactor.message(message as Record<string, unknown>, `messages[${index}]`) as M);
  }
  return { messages: output, findings: redactor.findings };
}
