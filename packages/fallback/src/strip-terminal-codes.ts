// ECMA-48, in the order a terminal reads them:
// - control strings, OSC (`ESC ] 8 ; ; url BEL`, hyperlinks, titles, `ESC ] 9 ; 4` progress), DCS
//   (`ESC P … ESC \`), SOS, PM and APC, 7-bit or C1, ended by BEL or ST (`ESC \` or U+009C). A
//   terminal waits for the end; captured output is often cut before it, so one never runs past a
//   line end (or another escape): an unterminated title must not swallow the error lines after it.
// - CSI (`ESC [` or U+009B): parameters 0x30-0x3f, intermediates 0x20-0x2f, final 0x40-0x7e.
// - two- and three-character escapes: intermediates 0x20-0x2f, final 0x30-0x7e (`ESC ( B` from
//   `tput sgr0`, keypad `ESC =` / `ESC >`, `ESC 7`).
// - whatever ESC or ST is left alone.
// Each alternative's classes are disjoint from what follows them and no body crosses an ESC, so
// a text is read once.
const terminalCode =
  /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c\n\r]*(?:\u0007|\u001b\\|\u009c)?|(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]?|\u001b[ -/]*[0-~]|[\u001b\u009c]/g;
const hasCode = /[\u001b\u0090\u0098\u009b-\u009f]/;

/**
 * `text` without terminal colour and control sequences: a test runner's `ESC[31mFAILED ESC[0m`
 * glues a code to the word (`31mFAILED`), so neither the error line, nor the path after it, nor
 * the word boundary before `FAILED` is what a reader sees. Texts without an escape come back as
 * they are (no copy).
 */
export function stripTerminalCodes(text: string): string {
  if (!hasCode.test(text)) return text;
  return text.replace(terminalCode, '');
}
