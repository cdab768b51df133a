// What a runner or build tool prints around its failures rather than the failure itself: counts
// (`1 failed, 3 passed`, `Test Files 1 failed (1)`, `✖ 2 problems (2 errors, 0 warnings)`, `due to
// 1 previous error`, `Failed Tests 1`), a build's verdict (`BUILD
// FAILED in 12s`, `FAILURE: Build failed with an exception.`, `[ERROR] COMPILATION ERROR :`).
const runSummary =
  /\b\d+\s+(?:previous\s+)?(?:failed|failures?|errors?|error\(s\)|problems?|passed|tests?|warnings?)\b|\b(?:failed|failures?|errors?|tests?)\s*[:=]?\s*\d+\b|\bbuild (?:failed|failure)\b|compilation error\s*:?\s*$|^\W*(?:fail(?:ed|ure)?|errors?)\W*$/i;
// The failure itself, however a summary-like count also appears in it: an exception or error
// class with its message, a compiler's coded error, a named failing test, a linter's row at a line
// and column (`12:5  error  'x' is unused`: its `5  error` is no count).
const failureItself =
  /[A-Za-z](?:Error|Exception)\b\s*:\s*\S|\berror(?:\[\w+\]|\s+[A-Z]+\d+)\s*:|\bpanic(?:ked)?\b|::\w|--- FAIL: \w|●|›|^\s*\d+:\d+\s+(?:error|warning)\s/;

/**
 * True for an error line that sums a run up (counts, a build verdict) rather than
 * saying what failed: when the budget is short, the lines that name the failure go first. An
 * exit status is not one: many harnesses report a failed command by that line alone.
 */
export function isRunSummary(line: string): boolean {
  return runSummary.test(line) && !failureItself.test(line);
}
