// An exit status in the words of any shell tool: `exit code 2`, `Exit status: 1`, `Process exited
// with code 1`, `exit_code: 1`, `"exitCode": 1`, `<exit_code>1</exit_code>`, `returncode=1`.
// A bracketed `[exit 1]` / `(exit 1)` is a harness's status too; a bare `exit 1` is a command.
// The blanks around the optional `:`/`=` are one run, then the separator and its own run: two runs
// split by an optional separator (`[ \t]*[:=]?[ \t]*`) split n blanks n ways when no digit follows,
// which cost 121 s on `exit code` and 160k blanks.
/** The words before an exit status, as a regular expression source (the status itself follows). */
export const exitWords = String.raw`(?:exit(?:ed)?(?: with)?[ _-]?(?:code|status)|return[ _-]?code|<returncode>|(?<=[[(])exit(?=[ \t]*-?\d+[\])]))["'>]?[ \t]*(?:[:=][ \t]*)?`;
