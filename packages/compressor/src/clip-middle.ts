/** Characters kept from the start and the end of a text clipped to `limit`. */
export function clipSizes(limit: number): { head: number; tail: number } {
  const keep = Math.max(0, limit - 60);
  const head = Math.ceil(keep * 0.7);
  return { head, tail: keep - head };
}

export function elisionMarker(count: number): string {
  return `\n[… ${count} characters elided …]\n`;
}

/** Keeps the start and the end of a long text (errors and results tend to sit at the end). */
export function clipMiddle(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const { head, tail } = clipSizes(limit);
  return `${text.slice(0, head)}${elisionMarker(text.length - head - tail)}${tail > 0 ? text.slice(-tail) : ''}`;
}
