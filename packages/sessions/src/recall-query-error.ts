import { BatonError } from '@baton/tokens';

const marker = Symbol.for('baton.error.recall_query');

/** Why a `recall` query was refused. */
export type RecallQueryProblem = 'missing' | 'empty' | 'too_long' | 'not_storable';

/**
 * `recall` was given a query it cannot run: neither a query nor a range (`missing`), a query that is
 * blank (`empty`), longer than the limit (`too_long`), or holding a NUL character or an unpaired
 * surrogate (`not_storable`). The message never repeats the query.
 */
export class RecallQueryError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read through its Symbol.for key by isInstance.
  private readonly [marker] = true;
  readonly problem: RecallQueryProblem;
  /** The query's length in characters (`0` when missing). */
  readonly length: number;
  readonly maxLength: number;

  constructor({
    problem,
    length,
    maxLength,
    cause,
  }: {
    problem: RecallQueryProblem;
    length: number;
    maxLength: number;
    cause?: unknown;
  }) {
    const messages: Record<RecallQueryProblem, string> = {
      missing: 'recall needs a query, a sequence range, or both',
      empty: 'the recall query is blank',
      too_long: `the recall query has ${length} characters; at most ${maxLength} are allowed`,
      not_storable: 'the recall query contains a NUL character or an unpaired UTF-16 surrogate',
    };
    super({ code: 'recall_query', message: messages[problem], cause });
    this.name = 'RecallQueryError';
    this.problem = problem;
    this.length = length;
    this.maxLength = maxLength;
  }

  static override isInstance(error: unknown): error is RecallQueryError {
    return BatonError.hasMarker(error, marker);
  }
}
