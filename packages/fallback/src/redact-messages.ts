import type { ModelMessage } from '@ai-sdk/provider-utils';
import { ReceiptInputError } from './receipt-input-error.js';
import { type RedactSecretsOptions, redactSecrets } from './redact-secrets.js';
import { acceptKeyedValue, keyIsIdLike, keyIsSecret } from './secret-rules.js';

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

// Fields that carry protocol identifiers or binary payloads, never free text: rewriting them would
// break tool-call pairing, media handling or provider signatures.
const untouchedFields = new Set([
  'type',
  'role',
  'toolCallId',
  'toolName',
  'approvalId',
  'mediaType',
  'providerOptions',
  'providerExecuted',
  'signature',
  'data',
  'image',
]);

class Redactor {
  readonly findings: MessageSecretFinding[] = [];
  constructor(private readonly options: RedactSecretsOptions) {}

  string(value: string, path: string, key?: string): string {
    if (key !== undefined) {
      const strength = keyIsSecret(key);
      if (strength && acceptKeyedValue(value, strength, true, keyIsIdLike(key))) {
        const kind = strength === 'strong' ? 'password' : 'secret';
        this.findings.push({ path, kind, start: 0, end: value.length });
        return this.options.replacement ? this.options.replacement(kind) : `[REDACTED:${kind}]`;
      }
    }
    const result = redactSecrets(value, this.options);
    for (const finding of result.findings) this.findings.push({ path, ...finding });
    return result.text;
  }

  value(value: unknown, path: string, key?: string): unknown {
    if (typeof value === 'string') return this.string(value, path, key);
    if (Array.isArray(value))
      return value.map((item, index) => this.value(item, `${path}[${index}]`));
    if (value === null || typeof value !== 'object') return value;
    // Binary payloads, URLs and class instances keep their identity.
    if (value instanceof Uint8Array || value instanceof ArrayBuffer || value instanceof URL)
      return value;
    if (
      Object.getPrototypeOf(value) !== Object.prototype &&
      Object.getPrototypeOf(value) !== null
    ) {
      return value;
    }
    const copy: Record<string, unknown> = {};
    for (const [field, inner] of Object.entries(value)) {
      copy[field] = untouchedFields.has(field)
        ? inner
        : this.value(inner, `${path}.${field}`, field);
    }
    return copy;
  }
}

/**
 * Deep-redacts every string of AI SDK messages: text and reasoning parts, tool-call inputs, and
 * tool-result outputs of every type (`text`, `json`, `error-text`, `error-json`, `content`,
 * `execution-denied` reasons). Ids, tool names, media types, binary data and provider options are
 * kept as they are, so calls and results still pair up. Object values whose key names a secret
 * (`{ password: '...' }`) are replaced whole.
 */
export function redactMessages<M extends ModelMessage>(
  messages: readonly M[],
  options: RedactSecretsOptions = {},
): RedactMessagesResult<M> {
  if (!Array.isArray(messages)) {
    throw new ReceiptInputError({ path: 'messages', message: 'expected an array of messages' });
  }
  const redactor = new Redactor(options);
  const output = messages.map((message, index) => {
    if (typeof message !== 'object' || message === null || typeof message.role !== 'string') {
      throw new ReceiptInputError({
        path: `messages[${index}]`,
        message: 'expected a message with a role',
      });
    }
    return redactor.value(message, `messages[${index}]`) as M;
  });
  return { messages: output, findings: redactor.findings };
}
