/**
 * A short summary in the handoff headings, as a mock summariser returns it. Stands in for an LLM to
 * test plumbing only: it says nothing about summary quality.
 */
export function structuredSummary(note = 'Fixed the failing test.'): string {
  return [
    '## Goal',
    note,
    '## Completed actions',
    '1. EDIT src/app.ts — tests pass [tool: edit]',
    '## Active state',
    'Branch main, tests green.',
    '## Remaining work',
    'None',
  ].join('\n');
}
