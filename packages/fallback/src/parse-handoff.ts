import {
  HANDOFF_FOOTER,
  HANDOFF_HEADER,
  HANDOFF_SECTIONS,
  type HandoffSectionKey,
  type HandoffSections,
} from './handoff-layout.js';

const keyByTitle = new Map<string, HandoffSectionKey>(
  HANDOFF_SECTIONS.map(({ key, title }) => [title.toLowerCase(), key]),
);

/**
 * Reads a Baton handoff back into sections. Returns undefined when `text` does not start with
 * `HANDOFF_HEADER` (after leading whitespace). Headings with unknown titles stay part of the
 * section before them, so a body that itself contains `## ` lines survives a round trip only when
 * its headings are not section titles.
 */
export function parseHandoff(text: string): HandoffSections | undefined {
  if (typeof text !== 'string') return undefined;
  const trimmed = text.replace(/^\s+/, '');
  if (!trimmed.startsWith(HANDOFF_HEADER)) return undefined;
  let rest = trimmed.slice(HANDOFF_HEADER.length);
  const footerAt = rest.lastIndexOf(HANDOFF_FOOTER);
  if (footerAt !== -1 && rest.slice(footerAt + HANDOFF_FOOTER.length).trim() === '') {
    rest = rest.slice(0, footerAt);
  }
  const sections: HandoffSections = {};
  let current: HandoffSectionKey | undefined;
  let lines: string[] = [];
  const flush = () => {
    if (current === undefined) return;
    const body = lines.join('\n').trim();
    if (body !== '') sections[current] = body;
  };
  for (const line of rest.split('\n')) {
    // Read as `^## (.+?)\s*$` reads it, but once: that pattern retried every split of a run of
    // spaces inside the title (quadratic; 16,000 spaces took 0.3 s a line).
    const key = line.startsWith('## ')
      ? keyByTitle.get(line.slice(3).trimEnd().toLowerCase())
      : undefined;
    if (key !== undefined) {
      flush();
      current = key;
      lines = [];
    } else if (current !== undefined) {
      lines.push(line);
    }
  }
  flush();
  return sections;
}
