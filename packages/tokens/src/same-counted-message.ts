import { isRecord } from './is-record.js';
import { plainArray, sameJson, structurallyEqual } from './structural-fingerprint.js';

/**
 * True when message `b` must count the same as `a`, a message counted before: the same role, an
 * equal content, name, tool-call id, tool calls and function call. Those are the only fields
 * `countMessageTokens` reads while content is present, so other top-level keys (ids, message-level
 * provider options, metadata) and their order cannot change the count. A re-count of a deep copy
 * compares each message with its predecessor at the same index; named reads of a few fields (one
 * hidden class for all copies) cost a fraction of walking every key, which took ~35 ns a message.
 * Keep this list in step with `countMessageTokens`.
 */
export function sameCountedMessage(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const content = x.content;
  if (typeof content === 'string') {
    if (content !== y.content) return false;
  } else if (content === undefined || content === null) {
    // Without content, whether `tool_calls` or `function_call` are present decides between a
    // count and an error: compare everything.
    return structurallyEqual(a, b);
  } else if (!sameParts(content, y.content)) return false;
  // An array message has no role (it fails to count), so it never reaches here as `a`.
  return (
    x.role === y.role &&
    !Array.isArray(b) &&
    same(x.name, y.name, 1) &&
    same(x.tool_call_id, y.tool_call_id, 1) &&
    same(x.tool_calls, y.tool_calls, 1) &&
    same(x.function_call, y.function_call, 1)
  );
}

function same(x: unknown, y: unknown, depth: number): boolean {
  return x === y || (typeof x === 'object' && x !== null && structurallyEqual(x, y, depth));
}

// Content parts are compared, like the message, by the fields `partCost` reads for their type, for
// the kinds nearly every conversation is made of (text, reasoning, tool calls and results): a
// structural walk checks each object's prototype, `toJSON`, key order and hidden fields, which
// cost a re-count of a deep copy of 1,000 transcript messages about as much as comparing all its
// characters. A part of any other type, or not a plain array of parts, is compared whole.
// A part compared by named reads is never checked for hidden fields: the side kept for the next
// comparison is the message counted (checked by `hasHiddenFields`), never the copy.
function sameParts(x: unknown, y: unknown): boolean {
  if (
    !Array.isArray(x) ||
    !Array.isArray(y) ||
    x.length !== y.length ||
    !plainArray(x) ||
    !plainArray(y)
  )
    return same(x, y, 1);
  for (let i = 0; i < x.length; i++) {
    const p = x[i];
    const q = y[i];
    if (p !== q && !samePart(p, q)) return false;
    // A hole is skipped by `forEach`, an `undefined` part throws.
    if (p === undefined && i in x !== i in y) return false;
  }
  return true;
}

function samePart(p: unknown, q: unknown): boolean {
  if (!isRecord(p) || !isRecord(q)) return same(p, q, 2);
  const type = p.type;
  if (type !== q.type) return false;
  switch (type) {
    case 'text':
    case 'reasoning':
      return p.text === q.text;
    case 'tool-call':
      return (
        p.toolName === q.toolName && p.toolCallId === q.toolCallId && sameJson(p.input, q.input)
      );
    case 'tool-result':
      return (
        p.toolName === q.toolName && p.toolCallId === q.toolCallId && sameOutput(p.output, q.output)
      );
    default:
      return structurallyEqual(p, q, 2);
  }
}

function sameOutput(x: unknown, y: unknown): boolean {
  if (!isRecord(x) || !isRecord(y)) return same(x, y, 3);
  const type = x.type;
  if (type !== y.type) return false;
  switch (type) {
    case 'text':
    case 'error-text':
      return x.value === y.value;
    case 'json':
    case 'error-json':
      return sameJson(x.value, y.value);
    default:
      return structurallyEqual(x, y, 3);
  }
}
