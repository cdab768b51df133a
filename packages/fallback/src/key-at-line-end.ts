/**
 * The key a line ends with before its value (`"api_key": "`, `token = `, `$cfg->pass => '`), read
 * backwards from the line's end. It answers exactly as the patterns
 * `([A-Za-z_$][\w.$-]*)["']?\s*(?:=>|:=|[:=])\s*["']?$` (and, with `path`, the same key preceded by
 * `segment/` parts) would, without their cost: a pattern anchored only at the end is tried from
 * every start position of the line, about a window's length of steps for every value judged (a
 * text of many `&sig=` parameters spent most of its redaction time there).
 */
export function keyAtLineEnd(
  line: string,
  options: {
    /** Also read `a/b/key` (an annotation's or a checksum's path) as the key. Default false. */
    path?: boolean;
    /** Allow a quote after the separator (`key: "`). Default true. */
    trailingQuote?: boolean;
  } = {},
): string | undefined {
  // No key character can stand in the separator part, so the key is the line's last run of key
  // characters, and everything after it must be that part.
  let end = line.length;
  while (end > 0 && !isKeyCharacter(line.charCodeAt(end - 1))) end--;
  if (end === 0) return undefined;
  const tail = line.slice(end);
  if (!(options.trailingQuote === false ? bareSeparator : quotedSeparator).test(tail)) {
    return undefined;
  }
  let runStart = end;
  while (runStart > 0 && isKeyCharacter(line.charCodeAt(runStart - 1))) runStart--;
  let start = firstKeyStart(line, runStart, end);
  if (start < 0) return undefined;
  if (options.path === true) {
    // Earlier `segment/` parts join while each segment starts right after its `/` (or is the
    // first, where a match may start mid-run, at its first letter, `_` or `$`).
    while (start === runStart && line.charCodeAt(start - 1) === slash) {
      const segmentEnd = start - 1;
      let segmentStart = segmentEnd;
      while (segmentStart > 0 && isKeyCharacter(line.charCodeAt(segmentStart - 1))) segmentStart--;
      const first = firstKeyStart(line, segmentStart, segmentEnd);
      if (first < 0) break;
      start = first;
      runStart = segmentStart;
    }
  }
  return line.slice(start, end);
}

const slash = 47;
const quotedSeparator = /^["']?\s*(?:=>|:=|[:=])\s*["']?$/;
const bareSeparator = /^["']?\s*(?:=>|:=|[:=])\s*$/;

/** `[\w.$-]`: a character a key may hold. */
function isKeyCharacter(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 46 ||
    code === 36 ||
    code === 45
  );
}

/** The first index in `[from, to)` holding `[A-Za-z_$]` (a key's first character), or -1. */
function firstKeyStart(line: string, from: number, to: number): number {
  for (let at = from; at < to; at++) {
    const code = line.charCodeAt(at);
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95 || code === 36) {
      return at;
    }
  }
  return -1;
}
