/**
 * The deepest nesting of arrays and objects in JSON `text`, counted in one pass without recursion
 * and without parsing, so a hostile body costs linear time however deep it goes. Brackets inside
 * strings (escapes included) do not count. Stops early once `limit` is passed and returns a value
 * above it. Malformed JSON is still measured; `JSON.parse` rejects it afterwards.
 */
export function jsonNestingDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c /* \ */) index++;
      else if (code === 0x22 /* " */) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x5b /* [ */ || code === 0x7b /* { */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (code === 0x5d /* ] */ || code === 0x7d /* } */) {
      depth = Math.max(0, depth - 1);
    }
  }
  return deepest;
}
