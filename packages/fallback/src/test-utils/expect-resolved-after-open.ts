import { expect } from 'vitest';

/**
 * Asserts that a receipt's blockers section lists `open` unmarked and `resolved` marked
 * `(resolved later)`, open errors first.
 */
export function expectResolvedAfterOpen(
  blockers: string | undefined,
  resolved: string,
  open: string,
): void {
  const lines = (blockers ?? '').split('\n');
  const resolvedAt = lines.findIndex((line) => line.includes(resolved));
  const openAt = lines.findIndex((line) => line.includes(open));
  expect(lines[resolvedAt]).toMatch(/^- \(resolved later\) /);
  expect(lines[openAt]).not.toMatch(/resolved/);
  expect(openAt).toBeLessThan(resolvedAt);
}
