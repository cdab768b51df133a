/**
 * Segment layouts only one issuer mints, with the kind that encodes the exact format: Discord bot
 * tokens (base64 user id, 6-character timestamp, HMAC, parted by dots) and SendGrid keys (two
 * letters, 22 and 43 characters). A value laid out so that its issuer's rule turns it down (another
 * first letter, a segment outside the issuer's lengths) is that issuer's near-miss, so the generic
 * token-shape layer stands down for it; when the owning kind is switched off, it judges it again.
 *
 * A documented *prefix* gives no such say: a value that starts with `ghp_`, `sk-ant-` or `SG.` but
 * that its rule turns down (a token cut short, glued to more characters, a suffix missing) is still
 * the issuer's secret, or most of one, so the generic layer judges it like any other run.
 */
export const documentedLayouts: ReadonlyArray<readonly [layout: RegExp, kind: string]> = [
  // The HMAC segment of any length: one cut short (`….Xb1Mk2nEhe,4iUc…`, split at a comma or
  // shown in part) is outside Discord's 27–38 like a first segment of the wrong length.
  [/^[A-Za-z0-9][\w-]{20,30}\.[\w-]{4,8}\.[\w-]{1,45}$/, 'discord-token'],
  [/^[A-Z]{2}\.[\w-]{22}\.[\w-]{43}$/, 'sendgrid-key'],
];

// A run's characters short of `/` and `=`, which part separate values (path segments, pairs).
const tokenCharacter = /[A-Za-z0-9_.~+-]/;
const bodyCharacter = /[\w-]/;

/**
 * The kind owning the documented layout of `text` from `start` to `end`, if any. Called only for
 * the few spans the generic layer reports, so a scan of the short list is enough.
 */
export function documentedFormatOwner(
  text: string,
  start: number,
  end: number,
): string | undefined {
  // The generic layer judges pieces of a run (parted at `---`, or at a separator it trims): a
  // piece is judged with the run it was cut from.
  let runStart = start;
  while (runStart > 0 && start - runStart < 1000 && tokenCharacter.test(text[runStart - 1]!)) {
    runStart--;
  }
  // The generic layer trims separators off a span's ends; a layout counts them, over the span
  // and over the whole run it was cut from.
  let through = end;
  while (through < text.length && through - runStart <= 100 && bodyCharacter.test(text[through]!)) {
    through++;
  }
  for (const from of new Set([start, runStart])) {
    if (through - from > 100) continue;
    const value = text.slice(from, through);
    for (const [layout, kind] of documentedLayouts) {
      if (layout.test(value)) return kind;
    }
  }
  return undefined;
}

/**
 * Discord's head (the base64 user id and the timestamp) with its HMAC cut by a separator or a line
 * break and the rest of it after: a token split for display or by a list. Each half alone is short
 * of the issuer's 27–38 and reads as a near-miss, so the cut is found here with both halves
 * together; a short HMAC followed by too little to complete one stays the near-miss it looks like.
 */
const cutDiscordToken =
  /(?<![\w-])[MNO][\w-]{23,25}\.[\w-]{6}\.([\w-]{1,26})(?=[,;\s])[,;]?[ \t]{0,8}(?:\r?\n[ \t]{0,8})?([\w-]{1,37})(?![\w-])/g;

export interface CutLayoutSpan {
  kind: string;
  start: number;
  end: number;
}

/** Tokens of a documented layout whose last segment is parted in two (`….hmac,rest`). */
export function findCutLayoutTokens(text: string): CutLayoutSpan[] {
  const spans: CutLayoutSpan[] = [];
  for (const match of text.matchAll(cutDiscordToken)) {
    const hmac = match[1]!.length + match[2]!.length;
    if (hmac < 27 || hmac > 38) continue;
    spans.push({ kind: 'discord-token', start: match.index!, end: match.index! + match[0].length });
  }
  return spans;
}
