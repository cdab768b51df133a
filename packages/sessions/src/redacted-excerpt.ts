import type { RecallRedact } from './types.js';

/**
 * Characters of context read on each side of an excerpt when `recall` redacts: a credential is
 * recognised whole (its prefix, its `key=` and its end) as long as it lies within this distance of the
 * excerpt, and one cut by the wider window's edge lies farther than this from the excerpt.
 */
export const recallRedactMargin = 2_000;

export interface RedactedExcerpt {
  excerpt: string;
  excerptStart: number;
  excerptEnd: number;
}

/**
 * Redacts, then cuts: `window` is the message's text from `windowStart` (of `textLength` in all), and
 * `[from, to)` the part of it to show. The text around it (up to `recallRedactMargin` characters
 * each side, less a run of non-space characters the window's edge cuts through when there is a space
 * to stop at) goes through `redact` first, so a credential straddling the excerpt's edge is replaced
 * whole. The span grows to the whole of any finding it would cut; the excerpt is that span with each
 * finding replaced by `[REDACTED:<kind>]`, trimmed around the match to `excerptLength` if replacements
 * made it longer (trimming redacted text cannot expose a secret). A run of non-space characters the
 * excerpt's edge cuts through is left out too, unless it holds the match or is all there is. Never
 * empty when `[from, to)` is not.
 */
export function redactedExcerpt(input: {
  window: string;
  windowStart: number;
  textLength: number;
  from: number;
  to: number;
  /** The match within the window: kept in view when replacements make the excerpt too long. */
  focus: { start: number; end: number };
  excerptLength: number;
  redact: RecallRedact;
}): RedactedExcerpt {
  const { window, windowStart, textLength, excerptLength, redact } = input;
  const from = Math.max(0, Math.min(input.from, window.length));
  const to = Math.max(from, Math.min(input.to, window.length));
  let low = Math.max(0, from - recallRedactMargin);
  let high = Math.min(window.length, to + recallRedactMargin);
  // A run cut by the window's edge has lost the start or end its redaction rule knows it by: leave
  // it out, unless it reaches into the excerpt (then the margin keeps its cut end away).
  if (windowStart + low > 0) {
    const space = window.slice(low, from).search(/\s/);
    if (space >= 0) low += space;
  }
  if (windowStart + high < textLength) {
    const tail = window.slice(to, high);
    let lastSpace = tail.length - 1;
    while (lastSpace >= 0 && !/\s/.test(tail[lastSpace]!)) lastSpace--;
    if (lastSpace >= 0) high = to + lastSpace + 1;
  }
  const text = window.slice(low, high);
  const findings = spans(redact(text).findings, text.length);
  let start = from - low;
  let end = to - low;
  for (const finding of findings) {
    if (finding.start < start && start < finding.end) start = finding.start;
    if (finding.start < end && end < finding.end) end = finding.end;
  }
  // The excerpt, and where the focus lands in it (a focus inside a finding lands on its placeholder).
  const focusStart = input.focus.start - low;
  const focusEnd = input.focus.end - low;
  let focusOut = { start: 0, end: 0 };
  let excerpt = '';
  const append = (piece: string, rawStart: number, rawEnd: number, replaced: boolean) => {
    if (focusStart >= rawStart && focusStart < rawEnd) {
      focusOut.start = excerpt.length + (replaced ? 0 : focusStart - rawStart);
    }
    if (focusEnd > rawStart && focusEnd <= rawEnd) {
      focusOut.end = excerpt.length + (replaced ? piece.length : focusEnd - rawStart);
    }
    excerpt += piece;
  };
  let position = start;
  for (const finding of findings) {
    if (finding.end <= start || finding.start >= end) continue;
    append(text.slice(position, finding.start), position, finding.start, false);
    const placeholder = `[REDACTED${finding.kind ? `:${finding.kind}` : ''}]`;
    append(placeholder, finding.start, finding.end, true);
    position = finding.end;
  }
  append(text.slice(position, end), position, end, false);
  if (focusOut.end < focusOut.start) focusOut = { start: focusOut.start, end: focusOut.start };
  // Whether the text just before and after the excerpt is part of the same run (the edge cuts it).
  const before = start > 0 ? text[start - 1] : low > 0 ? window[low - 1] : undefined;
  const after = end < text.length ? text[end] : undefined;
  let cutBefore = before !== undefined ? !/\s/.test(before) : windowStart + low + start > 0;
  let cutAfter = after !== undefined ? !/\s/.test(after) : windowStart + low + end < textLength;
  if (excerpt.length > excerptLength) {
    // Centre what is kept on the focus, as far as the excerpt's ends allow.
    const middle = Math.floor((focusOut.start + focusOut.end) / 2);
    const head = Math.max(
      0,
      Math.min(excerpt.length - excerptLength, middle - Math.floor(excerptLength / 2)),
    );
    if (head > 0) cutBefore = !/\s/.test(excerpt[head - 1]!);
    if (head + excerptLength < excerpt.length)
      cutAfter = !/\s/.test(excerpt[head + excerptLength]!);
    focusOut = { start: focusOut.start - head, end: focusOut.end - head };
    excerpt = excerpt.slice(head, head + excerptLength);
  }
  // A run the edge cuts through is also left out when the excerpt has more than that run, and the
  // match is not in it: a credential the redactor knows only whole (or not at all, glued to a word)
  // must not show a fragment. A match inside one long run keeps it: the margin guards that case.
  if (cutBefore) {
    const space = excerpt.search(/\s/);
    if (space > 0 && space <= focusOut.start) {
      excerpt = excerpt.slice(space);
      focusOut = { start: focusOut.start - space, end: focusOut.end - space };
    }
  }
  if (cutAfter) {
    let space = excerpt.length - 1;
    while (space >= 0 && !/\s/.test(excerpt[space]!)) space--;
    if (space >= 0 && space + 1 < excerpt.length && space + 1 >= focusOut.end) {
      excerpt = excerpt.slice(0, space + 1);
    }
  }
  return {
    excerpt,
    excerptStart: windowStart + low + start,
    excerptEnd: windowStart + low + end,
  };
}

/** The redactor's findings, checked, in order, overlaps merged. */
function spans(
  given: ReturnType<RecallRedact>['findings'],
  length: number,
): { start: number; end: number; kind: string | undefined }[] {
  const sorted = [...given]
    .filter(
      (finding) =>
        Number.isSafeInteger(finding.start) &&
        Number.isSafeInteger(finding.end) &&
        finding.start >= 0 &&
        finding.end > finding.start &&
        finding.end <= length,
    )
    .sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number; kind: string | undefined }[] = [];
  for (const finding of sorted) {
    const kind =
      typeof finding.kind === 'string' && /^[\w.-]{1,64}$/.test(finding.kind)
        ? finding.kind
        : undefined;
    const last = merged.at(-1);
    if (last && finding.start < last.end) {
      last.end = Math.max(last.end, finding.end);
    } else {
      merged.push({ start: finding.start, end: finding.end, kind });
    }
  }
  return merged;
}
