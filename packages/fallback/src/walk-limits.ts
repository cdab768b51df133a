/**
 * Nesting a walk of message or tool data goes into. No conversation needs more, and walking
 * deeper would overflow the stack; deeper values are replaced by `deepValueMarker`.
 */
export const maxWalkDepth = 64;

/** Stands in for a value nested beyond `maxWalkDepth`. */
export const deepValueMarker = '[omitted: nested too deep]';

/** Stands in for an object met again below itself (a cycle). */
export const circularMarker = '[omitted: circular reference]';
