import { redactSecrets } from '@baton/fallback';

/** Longest log line the demo writes; the rest of a longer message is cut. */
const MAX_LOG_LINE_LENGTH = 500;

/**
 * One line of diagnostics: secrets redacted (a password inside a URL, a token in an error message),
 * whitespace and control characters collapsed so that a stack trace or a header value chosen by
 * another site cannot add lines, and cut to a bounded length.
 */
export function logLine(text: string): string {
  const { text: redacted } = redactSecrets(text);
  const single = redacted.replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return single.length > MAX_LOG_LINE_LENGTH
    ? `${single.slice(0, MAX_LOG_LINE_LENGTH - 1)}…`
    : single;
}

/** The message of an error (never its stack), as one redacted line. */
export function describeError(error: unknown): string {
  return logLine(error instanceof Error ? error.message : String(error));
}
