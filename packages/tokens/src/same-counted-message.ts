import { structurallyEqual } from './structural-fingerprint.js';

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
  } else if (!same(content, y.content)) return false;
  // An array message has no role (it fails to count), so it never reaches here as `a`.
  return (
    x.role === y.role &&
    !Array.isArray(b) &&
    same(x.name, y.name) &&
    same(x.tool_call_id, y.tool_call_id) &&
    same(x.tool_calls, y.tool_calls) &&
    same(x.function_call, y.function_call)
  );
}

function same(x: unknown, y: unknown): boolean {
  return x === y || (typeof x === 'object' && x !== null && structurallyEqual(x, y, 1));
}
