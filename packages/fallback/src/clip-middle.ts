/** What an elision marker counts: characters, or tokens by the counter the clip was given. */
export type ElisionUnit = 'characters' | 'tokens';

/** A measure of text in tokens (a `TokenCounter` fits). */
export interface ClipCounter {
  count(text: string): number;
}

export interface ClipMiddleOptions {
  /**
   * Share of the kept text taken from the end, 0 to 1. Default 0.3: errors and results tend to sit
   * at the end. 0 keeps only the start.
   */
  tailShare?: number;
  /** Measures `limit` and the marker's count in tokens by this counter instead of characters. */
  counter?: ClipCounter;
  /** `counter.count(text)` when the caller knows it already (saves counting a long text again). */
  tokens?: number;
  /** Cuts only on whitespace, so no word, path or URL is shown in half (a word in the way is dropped). */
  wholeWords?: boolean;
}

type Amounts = Record<ElisionUnit, number>;

const units: readonly ElisionUnit[] = ['characters', 'tokens'];

/**
 * The marker standing where text was cut out, stating how much: `[Baton: 1200 characters omitted]`,
 * `[Baton: 300 tokens omitted]`, or both amounts when a clipped text was clipped again in the other
 * unit.
 */
export function elisionMarker(count: number, unit: ElisionUnit = 'characters'): string {
  return renderMarker({ characters: 0, tokens: 0, [unit]: Math.max(1, Math.floor(count)) });
}

function renderMarker(amounts: Amounts): string {
  const parts = units.filter((unit) => amounts[unit] > 0).map((unit) => `${amounts[unit]} ${unit}`);
  return `[Baton: ${parts.length === 0 ? '0 characters' : parts.join(' and ')} omitted]`;
}

const markerPattern =
  /\[Baton: (\d{1,15}) (characters|tokens)(?: and (\d{1,15}) (characters|tokens))? omitted\]/g;

/** True when `text` holds an elision marker, i.e. was clipped (or quotes a clipped text). */
export function hasElisionMarker(text: string): boolean {
  markerPattern.lastIndex = 0;
  return text.includes('[Baton: ') && markerPattern.test(text);
}

interface Marker {
  /** Start and end of the marker with the separator written on either side of it. */
  start: number;
  end: number;
  amounts: Amounts;
}

function isSeparator(code: number): boolean {
  return code === 10 || code === 32;
}

/** The markers of earlier clips in `text`, each with its separators. Linear: one regex pass. */
function markersIn(text: string): Marker[] {
  if (!text.includes('[Baton: ')) return [];
  const found: Marker[] = [];
  markerPattern.lastIndex = 0;
  for (let match = markerPattern.exec(text); match; match = markerPattern.exec(text)) {
    const amounts: Amounts = { characters: 0, tokens: 0 };
    amounts[match[2] as ElisionUnit] += Number(match[1]);
    if (match[3] !== undefined) amounts[match[4] as ElisionUnit] += Number(match[3]);
    let start = match.index;
    let end = start + match[0].length;
    if (start > 0 && isSeparator(text.charCodeAt(start - 1))) start--;
    if (end < text.length && isSeparator(text.charCodeAt(end))) end++;
    found.push({ start, end, amounts });
  }
  return found;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function isWhitespace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0;
}

interface Cut {
  /** End of the kept start and start of the kept end. */
  headEnd: number;
  tailStart: number;
  /** Earlier markers inside the cut, whose amounts the new marker carries on. */
  swallowed: Marker[];
}

/**
 * Where to cut `text` to keep about `keep` units of it (`tailShare` of them from the end): never
 * inside a surrogate pair, on whitespace when asked, and around any earlier marker the cut touches,
 * so a text clipped twice still holds one marker.
 */
function placeCut(
  text: string,
  keep: number,
  tailShare: number,
  wholeWords: boolean,
  markers: readonly Marker[],
): Cut {
  const tail = Math.min(text.length, Math.floor(keep * tailShare));
  let headEnd = Math.max(0, Math.min(text.length - tail, keep - tail));
  let tailStart = text.length - tail;
  if (
    headEnd > 0 &&
    isHighSurrogate(text.charCodeAt(headEnd - 1)) &&
    isLowSurrogate(text.charCodeAt(headEnd))
  ) {
    headEnd--;
  }
  if (
    tailStart < text.length &&
    isLowSurrogate(text.charCodeAt(tailStart)) &&
    isHighSurrogate(text.charCodeAt(tailStart - 1))
  ) {
    tailStart++;
  }
  if (wholeWords) {
    // Back to the last whitespace at or before the cut, unless the cut already falls on one.
    if (headEnd < text.length && !isWhitespace(text.charCodeAt(headEnd))) {
      while (headEnd > 0 && !isWhitespace(text.charCodeAt(headEnd - 1))) headEnd--;
    }
    while (headEnd > 0 && isWhitespace(text.charCodeAt(headEnd - 1))) headEnd--;
    if (tailStart > 0 && !isWhitespace(text.charCodeAt(tailStart - 1))) {
      while (tailStart < text.length && !isWhitespace(text.charCodeAt(tailStart))) tailStart++;
    }
    while (tailStart < text.length && isWhitespace(text.charCodeAt(tailStart))) tailStart++;
  }
  const swallowed: Marker[] = [];
  for (const marker of markers) {
    if (marker.end <= headEnd || marker.start >= tailStart) continue;
    // Touched by the cut: it goes with the cut, and its amounts with the new marker.
    headEnd = Math.min(headEnd, marker.start);
    tailStart = Math.max(tailStart, marker.end);
    swallowed.push(marker);
  }
  return { headEnd, tailStart, swallowed };
}

function render(text: string, cut: Cut, amounts: Amounts): string {
  const separator = text.includes('\n') ? '\n' : ' ';
  const head = text.slice(0, cut.headEnd);
  const tail = text.slice(cut.tailStart);
  return `${head}${head === '' ? '' : separator}${renderMarker(amounts)}${tail === '' ? '' : separator}${tail}`;
}

/** Characters of `text` between the cuts that were not earlier markers. */
function cutCharacters(cut: Cut): number {
  let characters = cut.tailStart - cut.headEnd;
  for (const marker of cut.swallowed) characters -= marker.end - marker.start;
  return characters;
}

function carried(cut: Cut): Amounts {
  const amounts: Amounts = { characters: 0, tokens: 0 };
  for (const marker of cut.swallowed) {
    amounts.characters += marker.amounts.characters;
    amounts.tokens += marker.amounts.tokens;
  }
  return amounts;
}

function clipCharacters(text: string, limit: number, options: ClipMiddleOptions): string {
  const markers = markersIn(text);
  const tailShare = Math.min(1, Math.max(0, options.tailShare ?? 0.3));
  // The marker's own length depends on the count it states: shrink until the whole fits.
  let keep = limit - elisionMarker(text.length).length - 2;
  for (;;) {
    const cut = placeCut(text, Math.max(0, keep), tailShare, options.wholeWords === true, markers);
    const amounts = carried(cut);
    amounts.characters += cutCharacters(cut);
    const clipped = render(text, cut, amounts);
    if (clipped.length <= limit || keep <= 0) return clipped;
    keep -= clipped.length - limit;
  }
}

function clipTokens(
  text: string,
  limit: number,
  counter: ClipCounter,
  total: number,
  options: ClipMiddleOptions,
): string {
  const markers = markersIn(text);
  const tailShare = Math.min(1, Math.max(0, options.tailShare ?? 0.3));
  let keep = Math.floor(text.length * (limit / total));
  // Each try keeps at most nine tenths of the last, so the counting stays linear in the text.
  for (;;) {
    const cut = placeCut(text, Math.max(0, keep), tailShare, options.wholeWords === true, markers);
    const amounts = carried(cut);
    const kept =
      counter.count(text.slice(0, cut.headEnd)) + counter.count(text.slice(cut.tailStart));
    let swallowedTokens = 0;
    for (const marker of cut.swallowed)
      swallowedTokens += counter.count(text.slice(marker.start, marker.end));
    amounts.tokens += Math.max(1, total - kept - swallowedTokens);
    const clipped = render(text, cut, amounts);
    const tokens = counter.count(clipped);
    if (tokens <= limit || keep <= 0) return clipped;
    keep = Math.floor(keep * Math.min(0.9, (limit / tokens) * 0.9));
  }
}

/**
 * Baton's one clip: a text over `limit` keeps its start and its end (`tailShare` of what is kept)
 * around one `[Baton: N characters omitted]` marker (`tokens` with a counter), within `limit` (or
 * the marker alone when even that does not fit). A text clipped before is cut around its old
 * marker, whose count the new one carries on, so clipping again never stacks markers. The marker
 * stands on a line of its own when the text has lines, between spaces otherwise.
 */
export function clipMiddle(text: string, limit: number, options: ClipMiddleOptions = {}): string {
  // A limit that is not a number keeps nothing rather than looping on comparisons that all fail.
  const bound = Number.isNaN(limit) ? 0 : Math.max(0, Math.floor(limit));
  const { counter } = options;
  if (counter === undefined) {
    return text.length <= bound ? text : clipCharacters(text, bound, options);
  }
  const total = options.tokens ?? counter.count(text);
  return total <= bound ? text : clipTokens(text, bound, counter, total, options);
}
