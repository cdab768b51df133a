import type { ModelMessage } from '@ai-sdk/provider-utils';
import { ReceiptInputError, readingMessages } from './receipt-input-error.js';
import { type RedactSecretsOptions, redactSecretsShared } from './redact-secrets.js';
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
 * `name`, or `name #2`, `name #3`, ... when `target` already has it: two keys redacted to the same
 * text (two tokens of one kind) must not overwrite each other's values. `next` remembers, per name,
 * the suffix to try first, so an object of many such keys costs linear time.
 */
function unusedKey(
  target: Record<string, unknown>,
  name: string,
  next: Map<string, number> | undefined,
): { key: string; next: Map<string, number> | undefined } {
  if (!Object.hasOwn(target, name)) return { key: name, next };
  const tried = next ?? new Map<string, number>();
  let index = tried.get(name) ?? 2;
  while (Object.hasOwn(target, `${name} #${index}`)) index++;
  tried.set(name, index + 1);
  return { key: `${name} #${index}`, next: tried };
}

/** How the fields of an object are treated: the AI SDK's layers keep different protocol fields. */
const freeData = 0;
/** A part of a message's own content: the `output` of its tool result keeps protocol fields. */
const messagePart = 1;
/** A part nested in a `content` tool output. */
const contentPart = 2;
const toolOutput = 3;
const messageBody = 4;
type Layer =
  | typeof freeData
  | typeof messagePart
  | typeof contentPart
  | typeof toolOutput
  | typeof messageBody;

/**
 * One walk of a message list. Nothing is allocated for a value that holds no finding: the path is
 * a stack of segments rendered only for a finding, fields are read with `for...in` rather than
 * `Object.entries`, the layers are a number rather than a closure per object, and the ancestors
 * (for cycles) are an array, since a Set that grows and shrinks on every object rehashes. On a
 * 50,000-message history the closures, paths and entry lists were most of what this allocated.
 */
class Redactor {
  readonly findings: MessageSecretFinding[] = [];
  /** Index of the message being walked. */
  private message = 0;
  /** `.field` (a string) or `[index]` (a number) segments from the message down. */
  private readonly segments: Array<string | number> = [];
  /** Objects on the current path from the message down: a repeat is a cycle (depth <= 64). */
  private readonly ancestors: object[] = [];
  /** Keys of free data already found to hold no secret in this walk. */
  private readonly plainKeys = new Set<string>();
  constructor(private readonly options: RedactSecretsOptions) {}

  private path(): string {
    let rendered = `messages[${this.message}]`;
    for (const segment of this.segments) {
      rendered += typeof segment === 'number' ? `[${segment}]` : `.${segment}`;
    }
    return rendered;
  }

  string(value: string, key: string | undefined): string {
    if (key !== undefined) {
      if (isKeyedSecret(key, value)) {
        const kind = keyIsSecret(key) === 'strong' ? 'password' : 'secret';
        this.findings.push({ path: this.path(), kind, start: 0, end: value.length });
        return this.options.replacement ? this.options.replacement(kind) : `[REDACTED:${kind}]`;
      }
    }
    // Read only: the memo's own result, not a copy of it.
    const result = redactSecretsShared(value, this.options);
    if (result.findings.length === 0) return result.text;
    const rendered = this.path();
    for (const finding of result.findings) this.findings.push({ path: rendered, ...finding });
    return result.text;
  }

  /**
   * Redacts free data (tool inputs and outputs, unknown fields): every string at every depth, with
   * no field exempt. `layer` says how the fields of this object (not of nested ones) are treated.
   * Returns `value` itself when nothing in it changed.
   */
  value(value: unknown, depth: number, key?: string, layer: Layer = freeData): unknown {
    if (typeof value === 'string') return this.string(value, key);
    if (value === null || typeof value !== 'object') return value;
    // Binary payloads, URLs, dates and class instances keep their identity.
    if (!Array.isArray(value) && !plainObject(value)) return value;
    // Depth is counted from the message.
    if (depth > maxWalkDepth) return deepValueMarker;
    if (this.ancestors.includes(value)) return circularMarker;
    this.ancestors.push(value);
    try {
      if (Array.isArray(value)) return this.items(value, depth + 1, freeData);
      return this.fields(value, layer, depth + 1);
    } finally {
      this.ancestors.pop();
    }
  }

  /**
   * Copy-on-write `Array.prototype.map` over `items` (holes stay holes): each item as free data at
   * `depth`, or as a part (`layer`). `items` itself when no item changed.
   */
  private items(
    items: readonly unknown[],
    depth: number,
    layer: typeof freeData | typeof messagePart | typeof contentPart,
  ): unknown[] {
    let copy: unknown[] | undefined;
    const segments = this.segments;
    for (let index = 0; index < items.length; index++) {
      if (!(index in items)) continue;
      const item = items[index];
      segments.push(index);
      // A part is walked from depth 2 whatever its place; its fields are read per `layer`.
      const mapped =
        layer === freeData ? this.value(item, depth) : this.value(item, 2, undefined, layer);
      segments.pop();
      if (copy === undefined && mapped !== item) copy = items.slice();
      if (copy !== undefined) copy[index] = mapped;
    }
    return copy ?? (items as unknown[]);
  }

  /**
   * Copy-on-write: the own enumerable fields of `record`, each mapped as `layer` says; `record`
   * itself when every field came back unchanged, else a fresh object with every field.
   */
  private fields(record: Record<string, unknown>, layer: Layer, depth: number): unknown {
    let copy: Record<string, unknown> | undefined;
    // Made only when two keys of this object redact to the same text.
    let suffixes: Map<string, number> | undefined;
    const type = layer === messagePart || layer === contentPart ? record.type : undefined;
    const binary = typeof type === 'string' && binaryParts.has(type);
    const segments = this.segments;
    for (const field in record) {
      if (!Object.hasOwn(record, field)) continue;
      const inner = record[field];
      // The keys of free data are data too (a map keyed by tokens, a header map): redacted like
      // values, and the paths of findings below name the redacted key. Protocol layers have only
      // their own field names.
      const name = layer === freeData ? this.key(field) : field;
      segments.push(name);
      const mapped = this.field(record, layer, field, inner, depth, binary);
      segments.pop();
      if (copy === undefined && (mapped !== inner || name !== field)) {
        copy = {};
        // The fields before this one, unchanged, in their order.
        for (const earlier in record) {
          if (earlier === field) break;
          if (Object.hasOwn(record, earlier)) setField(copy, earlier, record[earlier]);
        }
      }
      if (copy !== undefined) {
        const unused = unusedKey(copy, name, suffixes);
        suffixes = unused.next;
        setField(copy, unused.key, mapped);
      }
    }
    return copy ?? record;
  }

  /**
   * A field name of free data, redacted. A finding's path names the object and `{key}`, never the
   * key's text.
   */
  private key(field: string): string {
    // Keys repeat across the objects of one walk (`id`, `path`, `name`) and most are shorter than
    // the redaction memo takes: checked once per walk.
    if (this.plainKeys.has(field)) return field;
    const result = redactSecretsShared(field, this.options);
    if (result.findings.length === 0) {
      this.plainKeys.add(field);
      return field;
    }
    const rendered = `${this.path()}.{key}`;
    for (const finding of result.findings) this.findings.push({ path: rendered, ...finding });
    return result.text;
  }

  private field(
    record: Record<string, unknown>,
    layer: Layer,
    field: string,
    inner: unknown,
    depth: number,
    binary: boolean,
  ): unknown {
    switch (layer) {
      case messageBody:
        if (messageFields.has(field)) return inner;
        if (field === 'content' && Array.isArray(inner)) return this.items(inner, 2, messagePart);
        return this.value(inner, 1, field);
      // A content part: protocol fields kept, `input` and `output` redacted as free data.
      case messagePart:
      case contentPart:
        if (partFields.has(field) || (binary && binaryFields.has(field))) return inner;
        // The `output` of a message's own tool-result part (not one nested in a `content` output).
        if (layer === messagePart && field === 'output' && record.type === 'tool-result') {
          return this.output(inner);
        }
        return this.value(inner, 3, field);
      case toolOutput:
        if (field === 'type' || field === 'providerOptions') return inner;
        if (field === 'value' && record.type === 'content' && Array.isArray(inner)) {
          return this.items(inner, 0, contentPart);
        }
        return this.value(inner, 4, field);
      default:
        return this.value(inner, depth, field);
    }
  }

  /**
   * The `output` of a message's own tool-result part: its `type` and provider options kept, the
   * parts of a `content` output read as parts, everything else free data.
   */
  private output(output: unknown): unknown {
    if (typeof output !== 'object' || output === null || !plainObject(output)) {
      return this.value(output, 3);
    }
    return this.fields(output, toolOutput, 4);
  }

  walk(message: Record<string, unknown>, index: number): unknown {
    this.message = index;
    return this.fields(message, messageBody, 1);
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
  return readingMessages(() => redactEach(messages, options));
}

function redactEach<M extends ModelMessage>(
  messages: readonly M[],
  options: RedactSecretsOptions,
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
    const redacted = redactor.walk(message as Record<string, unknown>, index) as M;
    if (output === undefined && redacted !== message) output = messages.slice(0, index);
    output?.push(redacted);
  }
  return { messages: output ?? messages, findings: redactor.findings };
}
