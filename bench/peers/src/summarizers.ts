/**
 * The offline summarisers every summarising peer gets: one that always fails, one that returns a fixed
 * text, and the local real model (SmolLM2-135M behind a loopback OpenAI-compatible server, `local-server.ts`).
 */
export type SummarizerMode = 'failing' | 'fake' | 'local';

/** Appears in the failing summariser's error, so an error used as a summary is recognised in the output. */
export const FAILURE_MARKER = 'PEERS-SUMMARIZER-FAILURE-7f3a';
export const FAILURE_MESSAGE = `summariser unavailable (${FAILURE_MARKER}): 503 Service Unavailable`;

/** A fixed structured summary with the headings a handoff uses; it names no fact of any transcript. */
export const FAKE_SUMMARY = [
  '## Goal',
  'Continue the task the user described earlier in this conversation.',
  '## Completed actions',
  '1. INSPECT the project — earlier steps were carried out [tool: unknown]',
  '## Active state',
  'Work was in progress when the history was summarised.',
  '## Relevant files',
  '- (not recorded by this summary)',
  '## Remaining work',
  '- Resume from the most recent messages.',
].join('\n');
