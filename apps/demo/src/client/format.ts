export function formatNumber(value: number): string {
  return value.toLocaleString('en-US');
}

export function shortId(id: string): string {
  return id.slice(0, 8);
}

export function percent(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.min(100, Math.max(0, (part / whole) * 100));
}
