import { createHash } from 'node:crypto';
import type { ToolPairProblem } from '@baton/compressor';
import { redactSecrets } from '@baton/fallback';

// Short enough that no credential fits (the shortest vendor keys are ~20 characters).
const MAX_SHOWN = 12;

/**
 * A tool call id as the report may print it. Ids come from the transcript, and a secret pasted into
 * one must not reach the terminal or `--json`; a redactor only knows the shapes it knows, so only
 * short, plain ids (`call_9`) are shown. Any other id is described by its length and a short
 * SHA-256 tag, which lets a reader match the same id across problems without seeing it.
 */
export function toolCallIdText(id: string): string {
  if (
    id.length <= MAX_SHOWN &&
    /^[A-Za-z0-9_.:-]+$/.test(id) &&
    redactSecrets(id).findings.length === 0
  ) {
    return id;
  }
  const tag = createHash('sha256').update(id).digest('hex').slice(0, 8);
  return `<${[...id].length}-character id ${tag}>`;
}

/** A tool-pair problem with its id, and the id inside its message, made safe to print. */
export function printableProblem(problem: ToolPairProblem): ToolPairProblem {
  const id = problem.toolCallId;
  if (id === undefined || id === '') return problem;
  const shown = toolCallIdText(id);
  // The compressor's messages start `tool result <id> …` or `tool call <id> …`; an id such as
  // `tool` must not rewrite the words around it, so only that slot is replaced when it is there.
  const slot = ['tool result ', 'tool call '].find((lead) =>
    problem.message.startsWith(`${lead}${id}`),
  );
  const message =
    slot !== undefined
      ? `${slot}${shown}${problem.message.slice(slot.length + id.length)}`
      : problem.message.split(id).join(shown);
  return { ...problem, toolCallId: shown, message };
}
