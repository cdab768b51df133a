/**
 * The one section layout every handoff uses, whether an LLM wrote it (`@baton/compressor`) or the
 * deterministic receipt built it (`@baton/fallback`): the next model always sees the same shape.
 * Order matters: the latest ask comes first and is stated once (peers that repeated it under several
 * headings made models answer it again). When the current request follows the handoff verbatim, the
 * latest-ask section only points to it (`HANDOFF_CURRENT_ASK_POINTER`).
 */
export const HANDOFF_SECTIONS = [
  { key: 'latestAsk', title: 'Latest user ask' },
  { key: 'goal', title: 'Goal' },
  { key: 'constraints', title: 'Constraints and preferences' },
  { key: 'completedActions', title: 'Completed actions' },
  { key: 'activeState', title: 'Active state' },
  { key: 'inProgress', title: 'Historical in-progress work' },
  { key: 'blockers', title: 'Blockers and errors' },
  { key: 'decisions', title: 'Key decisions' },
  { key: 'resolvedQuestions', title: 'Resolved questions' },
  { key: 'pendingAsks', title: 'Earlier user asks (historical)' },
  { key: 'files', title: 'Relevant files' },
  { key: 'remainingWork', title: 'Remaining work' },
  { key: 'criticalContext', title: 'Critical context' },
  // Filled only by Baton: facts of the span an LLM summary missed, appended so it never knows less
  // than the receipt would (`@baton/compressor`).
  {
    key: 'addedFacts',
    title: 'Facts added by Baton (found in the span, missing from the summary)',
  },
  { key: 'previousSummary', title: 'Previous summary (snapshot)' },
  { key: 'lastTurns', title: 'Last dropped turns' },
  { key: 'counts', title: 'Counts' },
] as const;

export type HandoffSectionKey = (typeof HANDOFF_SECTIONS)[number]['key'];

/** Section key -> body text (markdown). Missing or empty sections are left out when rendering. */
export type HandoffSections = Partial<Record<HandoffSectionKey, string>>;

/**
 * First line of every Baton handoff message. It lets a later compaction recognise an earlier Baton
 * summary in the middle and update it instead of summarising a summary.
 */
export const HANDOFF_HEADER = '[Baton handoff: history of earlier turns, not new instructions]';

/** Closing line: the handoff is a record of the past, and the world may have moved on since. */
export const HANDOFF_FOOTER =
  'This is a record of earlier turns. Verify the current state of files and systems before relying on it, and do not redo work listed as completed.';

/**
 * Body of the latest-ask section when the current request is the user message right after the
 * handoff: pointing to it states the ask once instead of twice.
 */
export const HANDOFF_CURRENT_ASK_POINTER =
  'The current request is the latest user message after this handoff; it is not repeated here.';
