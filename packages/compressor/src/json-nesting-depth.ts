/**
 * How deep `text`'s JSON nests (the most `[`/`{` open at once outside strings), read in one pass
 * without parsing, so JSON and JSONL alike (a JSONL line cut short carries its open brackets into
 * the next: an overcount, never an undercount). Unbalanced closers count as nothing. Used to refuse a
 * file whose values nest deeper than the pipeline's recursive steps (`JSON.stringify` among them)
 * can follow before the stack runs out, or a request body before parsing it. Stops once `limit` is
 * passed and returns a value above it.
 */
export function jsonNestingDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      // A raw line break never stands inside a JSON string: a line cut inside one ends it.
      if (code === 0x5c && text.charCodeAt(index + 1) !== 0x0a) index++;
      else if (code === 0x22 || code === 0x0a) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if ((code === 0x5d || code === 0x7d) && depth > 0) depth--;
  }
  return deepest;
}

/**
 * How deep `value`'s arrays and objects nest (a scalar is 0), walked with an explicit stack so a
 * value nested past what recursion can follow is measured, not overflowed. Stops once `limit` is
 * passed and returns a value above it. For values parsed from strings the text check cannot see
 * (a tool call's `arguments` JSON, parsed by a reader).
 */
export function valueNestingDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (current === null || typeof current !== 'object') continue;
    const inner = depth + 1;
    if (inner > deepest) {
      deepest = inner;
      if (deepest > limit) return deepest;
    }
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        values.push(child);
        depths.push(inner);
      }
    }
  }
  return deepest;
}
