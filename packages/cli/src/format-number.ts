/** `12345` -> `12,345`: token figures are read at a glance. */
export function formatNumber(value: number): string {
  return value.toLocaleString('en-US');
}
