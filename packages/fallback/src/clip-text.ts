import { clipMiddle } from './clip-middle.js';

/**
 * Shortens text to at most `maxLength` characters for a one-line view (a receipt line, a digest):
 * its start is kept, the cut falls on whitespace so no word, path or URL is shown in half, and
 * `clipMiddle`'s marker says how many characters were left out. A JSON document that does not fit is
 * replaced by a one-line description instead of being cut into invalid JSON.
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
  return clipMiddle(text, maxLength, { tailShare: 0, wholeWords: true });
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
