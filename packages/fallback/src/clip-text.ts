/**
 * Shortens text to at most `maxLength` characters without cutting a word, path or URL in half: the
 * cut falls on whitespace, and a JSON document that does not fit is replaced by a one-line
 * description instead of being truncated into invalid JSON.
 */
export function clipText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const trimmed = text.trim();
  if (/^[[{]/.test(trimmed)) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      return describeJson(parsed, trimmed.length);
    } catch {
      // Not JSON after all: clip as text.
    }
  }
  const marker = ` …[+${text.length} chars]`;
  const room = Math.max(0, maxLength - marker.length);
  let cut = text.lastIndexOf(' ', room);
  const newline = text.lastIndexOf('\n', room);
  cut = Math.max(cut, newline);
  // A single token longer than the room (a minified line, a base64 blob): drop it whole.
  if (cut <= 0) return `…[${text.length} chars]`;
  const head = text.slice(0, cut).trimEnd();
  return `${head} …[+${text.length - head.length} chars]`;
}

function describeJson(value: unknown, length: number): string {
  if (Array.isArray(value)) return `[JSON array of ${value.length} items, ${length} chars]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    const shown = keys.slice(0, 6).join(', ');
    return `[JSON object {${shown}${keys.length > 6 ? ', …' : ''}}, ${length} chars]`;
  }
  return `[JSON, ${length} chars]`;
}
