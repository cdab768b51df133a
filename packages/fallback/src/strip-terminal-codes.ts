// CSI sequences (`ESC [ 31 m`, cursor moves), OSC sequences (`ESC ] 8 ; ; url BEL`, terminal
// hyperlinks and titles) and two-character escapes. C1 `CSI` (U+009B) as well.
const terminalCode =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]/g;

/**
 * `text` without terminal colour and control sequences: a test runner's `ESC[31mFAILED ESC[0m`
 * glues a code to the word (`31mFAILED`), so neither the error line, nor the path after it, nor
 * the word boundary before `FAILED` is what a reader sees. Texts without an escape come back as
 * they are (no copy).
 */
export function stripTerminalCodes(text: string): string {
  if (!text.includes('\u001b') && !text.includes('\u009b')) return text;
  return text.replace(terminalCode, '');
}
