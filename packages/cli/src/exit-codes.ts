/**
 * Exit codes of `baton`: 0 done; 1 a failure (a compaction that broke, a summariser that could not
 * be reached, ...); 2 bad input (the command line, an unreadable or unknown file, an output that
 * would overwrite its input); 3 done, but some transcripts cannot fit the target at all (the parts
 * that always stay verbatim need more) and nothing was written for them.
 */
export const EXIT_CODES = { ok: 0, failure: 1, badInput: 2, cannotFit: 3 } as const;
