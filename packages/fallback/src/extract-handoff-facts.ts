import type { ModelMessage } from '@ai-sdk/provider-utils';
import { clipText } from './clip-text.js';
import { collapseWhitespace, isSpace } from './collapse-whitespace.js';
import { exitWords } from './exit-status-words.js';
import { isRunSummary } from './is-run-summary.js';
import { isInternalPath, normalizeFiles, type RawFileFact } from './normalize-files.js';
import { parseJsonDocument, readJsonOutput } from './read-json-output.js';
import { describeInvalid, ReceiptInputError, readingMessages } from './receipt-input-error.js';
import { redactionMemoMinLength, redactSecretsShared } from './redact-secrets.js';
import { isSearchHit, searchPatternWords } from './search-pattern-words.js';
import { isKeyedSecret } from './secret-rules.js';
import { shellFileEffects } from './shell-file-effects.js';
import { stripTerminalCodes } from './strip-terminal-codes.js';
import { maxWalkDepth } from './walk-limits.js';

/** One user ask. `key` is how it is recognised again: whitespace collapsed, first 200 characters. */
export interface AskFact {
  text: string;
  key: string;
  /** Index of the message that holds it. */
  index: number;
}

export interface ToolCallFact {
  /** 1-based position among the window's tool calls. */
  ordinal: number;
  name: string;
  /** The key argument (path, command, pattern, url, ...), redacted and clipped; may be empty. */
  target: string;
  /** `ok`, `error: <first line>`, `exit 2`, `denied`, or `no result` for a call still pending. */
  outcome: string;
  failed: boolean;
  index: number;
}

export interface FileFact {
  path: string;
  /** How many times the window mentions it (arguments, outputs, text). */
  references: number;
  /** Index of the last message that mentions it. */
  lastIndex: number;
  /** True when a tool that writes (edit, write, create, apply, ...) targeted it. */
  written: boolean;
  /** True when a tool that does not write targeted it (a read, a listing, a search in it). */
  read: boolean;
}

export interface ErrorFact {
  /** The error line, redacted, whitespace collapsed, at most 200 characters. */
  line: string;
  count: number;
  lastIndex: number;
  /** True when it came from a tool result marked as an error (`error-text`/`error-json`). */
  flagged: boolean;
  /**
   * True when every output it came from reported its own success (exit status 0): a line of a
   * command that went on to succeed (a log, a printed file, a warning) rather than its failure.
   */
  fromSucceededCall: boolean;
  /** True when some output it came from failed: marked as an error, or a non-zero exit status. */
  fromFailedCall: boolean;
  /**
   * True when it is a run's summary (counts, a build verdict) and every output it came from also
   * held a line that says what failed: it adds nothing to that line.
   */
  accompanied: boolean;
  /**
   * True when every call that produced it was followed, later in the window, by a successful call
   * of the same kind on the same target: the same command re-run, or the same tool (any writing
   * tool after a failed write) running the same program on a path the failing call named.
   */
  resolved: boolean;
}

export interface TurnFact {
  role: string;
  text: string;
  index: number;
}

/** Everything a receipt (and the retention metric) knows about a window of messages. */
export interface HandoffFacts {
  messageCount: number;
  roleCounts: Record<string, number>;
  /** Every user ask in order, de-duplicated by `key` (the last occurrence wins its position). */
  asks: AskFact[];
  latestAsk: AskFact | undefined;
  toolCalls: ToolCallFact[];
  /** Tool name -> number of calls, sorted by count then name. */
  toolCounts: Array<[string, number]>;
  files: FileFact[];
  errors: ErrorFact[];
  /** The last `lastTurnCount` non-system turns, redacted; tool activity summarised in a line each. */
  turns: TurnFact[];
}

const keyLength = 200;
const writingTool =
  /(?:edit|write|create|apply|replace|insert|patch|save|move|rename|delete|remove|mkdir|touch)/i;
/**
 * Tool names that change content in place (a subset of `writingTool`'s words): the receipt reports
 * their calls as edits made.
 */
export const mutatingTool = /(?:edit|write|create|apply|replace|insert|patch)/i;
// Argument names that hold a path, whatever the agent calls them: `path`, `file_path`, `filePath`,
// `paths`, `target_file`, `notebook_path`, `absolute_path`, `old_path`, `dirPath`, `cwd`, ...
const pathFields =
  /^(?:(?:absolute|relative|abs|rel|full|source|src|target|dest|destination|old|new|input|output|notebook|dir|directory|file|working|base|root)[_-]?)?(?:paths?|file[_-]?paths?|file[_-]?names?|files?|dirs?|director(?:y|ies)|cwd|notebook[_-]?path|uri)$|^(?:source|destination)$/i;
// The first line of a tool's plain-text report of its own failure.
// A marker word must be followed by `:`, `!` or `]` (`Error: …`, `[ERROR] …`): a file may well open
// with "Error handling in Go".
const failureOpening =
  /^(?:<tool_use_error>|\[?(?:error|err|fatal|exception|failed|failure)\s*[:!\]]|traceback \(most recent call last\)|warning: could not\b|no such file|(?:file|path|directory) (?:not found|does not exist)|not found\b|cannot\b|can't\b|could not\b|unable to\b|permission denied|[A-Za-z]\w*(?:Error|Exception):)/i;

/** Whether `text` opens (first non-blank line) with a failure report rather than file content. */
function opensWithFailure(text: string): boolean {
  // `text.search(/\S/)` by a scan: the literal made a RegExp per tool result read.
  let start = 0;
  while (start < text.length && isSpace(text.charCodeAt(start))) start++;
  if (start === text.length) return false;
  return failureOpening.test(text.slice(start, start + 200));
}

/**
 * Tools that only read a file (`Read`, `read_file`, `view`, `open_file`, `cat_file`,
 * `read_many_files`): what a successful call returns is file content, not a failure, whatever
 * words it holds.
 */
const readingTool =
  /(?:^|[_-])(?:read|view|open|cat)(?:[_-]?(?:file|files|notebook))?$|^(?:read|view|open|cat)[_-]?(?:many[_-]?)?files?$/i;
const targetFields = [
  'path',
  'file_path',
  'filePath',
  'notebook_path',
  'filename',
  'file',
  'command',
  'cmd',
  'pattern',
  'query',
  'url',
  'description',
  'prompt',
];

/**
 * Collapses whitespace and keeps about the first `length` characters (cut at a space when one is
 * near): the identity of a line or ask, and what the receipt shows of it.
 */
export function itemKey(text: string, length = keyLength): string {
  const collapsed = collapseWhitespace(text);
  if (collapsed.length <= length) return collapsed;
  // Cut on a space so a path or word at the edge is dropped whole rather than broken.
  const space = collapsed.lastIndexOf(' ', length);
  return space >= length / 2 ? collapsed.slice(0, space) : collapsed.slice(0, length);
}

// Paths are found token by token: split on whitespace, quotes, brackets and separators, then test
// each token with a slash against an anchored shape. One cheap split beats a look-behind regex
// scanning every position of a 300 kB window.
// Dot-directories (`.github/`, `~/.codex/`) are segments like any other.
const posixShape = /^(?:~\/|(?:\.{1,2}\/)+|\/)?(?:\.?[\w@+-][\w@+.-]*\/)+\.?[\w@+-][\w@+.-]*\/?$/;
// `./README.md`, `../setup.py`, `~/.bashrc`: one segment is enough behind an explicit anchor.
const relativeShape = /^(?:~\/|(?:\.{1,2}\/)+)[\w@+.-]*[\w@+-][\w@+.-]*$/;
// `C:\x\y.cs` and `D:/data/x.json` (Windows accepts either separator after the drive).
const windowsShape = /^[A-Za-z]:[\\/](?:[\w@+.-]+[\\/])*[\w@+.-]+$/;
// UNC shares: `\\server\share\dir\file.txt`.
const uncShape = /^\\\\[\w.-]+\\[\w$@+.-]+(?:\\[\w$@+.-]+)*$/;
const anchoredShape = /^(?:~\/|\.{1,2}\/|\/|[A-Za-z]:[\\/]|\\\\)/;

/**
 * Base64 keys contain slashes (`wJalr/K7MDENG/bPxRfiCY`): a token with many digits, upper- and
 * lower-case letters and no extension is a secret or a blob, not a path, and must not be listed
 * as one (it would be shown without the key that got it redacted).
 */
function looksRandom(joined: string): boolean {
  if (joined.length < 16) return false;
  let digits = 0;
  let upper = 0;
  let lower = 0;
  for (let index = 0; index < joined.length; index++) {
    const code = joined.charCodeAt(index);
    if (code >= 48 && code <= 57) digits++;
    else if (code >= 65 && code <= 90) upper++;
    else if (code >= 97 && code <= 122) lower++;
  }
  return digits >= 3 && upper >= 3 && lower >= 3;
}

// A value assigned to a secret-named key is the secret, whatever it looks like.
const secretAssignment =
  /(?:secret|passw(?:or)?d|token|credential|private[_-]?key|api[_-]?key|access[_-]?key)[\w-]*["']?\s*[:=]\s*["']?$/i;

function acceptPath(candidate: string): string | undefined {
  // `src/a.ts:12:5`, and grep's `docs/x.md:296:│ text` where the match glues on: the path ends at
  // the line number.
  // A test's node id (`tests/test_x.py::TestY::test_z`, `src/lib.rs::tests::it`) names its file.
  let path = candidate
    .replace(/(?<=\.[A-Za-z]\w{0,9})::.*$/, '')
    // .NET's stack frames: `at App.Run() in C:\src\App.cs:line 12` (the number is the next token).
    .replace(/(?<=\.[A-Za-z]\w{0,9}):line$/, '')
    .replace(/(?<=\S):\d+(?::\d+)?(?:[:-][^/]*)?$/, '')
    .replace(/[.,:;!?]+$/, '')
    .replace(/:\d+(?::\d+)?$/, '');
  if (
    !posixShape.test(path) &&
    !relativeShape.test(path) &&
    !windowsShape.test(path) &&
    !uncShape.test(path)
  ) {
    // `file:src/a.ts`, `at:/usr/lib/x.so`: the path follows the last colon.
    const colon = path.lastIndexOf(':');
    if (colon <= 1) return undefined;
    path = path.slice(colon + 1);
    if (!posixShape.test(path)) return undefined;
  }
  if (path.length < 3 || path.length > 300) return undefined;
  const segments = path
    .split(/[\\/]/)
    .filter((segment) => segment !== '' && segment !== '~' && segment !== '.' && segment !== '..');
  if (segments.length === 0) return undefined;
  if (!segments.every((segment) => /[A-Za-z_]/.test(segment))) return undefined;
  const anchored = anchoredShape.test(path);
  const last = segments[segments.length - 1]!;
  const hasExtension = /\.[A-Za-z][\w]{0,9}$/.test(last);
  // `input/output/cached`, `Windows/Linux/Mac`: slashes between words in prose are not paths; a
  // directory named as a tool's target is kept by the caller, not here.
  if (!anchored && !hasExtension) return undefined;
  if (!hasExtension && looksRandom(segments.join(''))) return undefined;
  if (path.startsWith('//')) return undefined;
  if (path.endsWith('/') && path.length > 1) path = path.slice(0, -1);
  return path;
}

// Characters that end a token: whitespace, quotes, brackets and separators (ASCII only).
const tokenBoundary = new Uint8Array(128);
for (const character of ' \t\n\r\f\v"\'`()<>[]{},;|=*') tokenBoundary[character.charCodeAt(0)] = 1;
const isBoundary = (code: number) => code < 128 && tokenBoundary[code] === 1;

// What stands before a path on a diff header line (`a/x` after `diff --git `, `b/x` after `a/x `).
const diffHeader = /^(?:diff --git (?:a\/\S+ )?|--- |\+\+\+ )$/;
const maxDiffPrefix = 4096;

// RFC 8089: `file://host/path`. An empty host or `localhost` is this machine; any other host is
// a share on that host, the UNC path `//host/share/x`.
const fileUrlHost = /^([^/]*)(\/.*)?$/s;

/**
 * The path of a `file://` URL token: `file:///x/y` and `file://localhost/x/y` -> `/x/y`,
 * `file:///C:/x` -> `C:/x`, `file://server/share/x` -> `//server/share/x`.
 */
function fileUrlPath(token: string): string {
  const [, host = '', rest = ''] = fileUrlHost.exec(token.slice(7)) ?? [];
  if (host !== '' && host.toLowerCase() !== 'localhost') return `//${host}${rest}`;
  return /^\/[A-Za-z]:[\\/]/.test(rest) ? rest.slice(1) : rest;
}

/** Paths mentioned in free text (POSIX, `~`, Windows), in order of appearance, repeats included. */
export function extractPaths(text: string): string[] {
  const found = findPaths(text);
  return found === noPaths ? [] : (found as string[]);
}

// Shared by every text without a path (most of a window): read only.
const noPaths: readonly string[] = [];

/** `extractPaths` for callers that only read the list: the empty one is shared. */
function findPaths(text: string): readonly string[] {
  let found: string[] | undefined;
  // Jump from slash to slash and widen each to its token: most of a window has no slash at all.
  let searchFrom = 0;
  // Each separator's next position is kept until passed: searching for both anew each time costs a
  // scan to the end for the one a text lacks (a megabyte of `\` and no `/` was quadratic).
  let slash = -2;
  let backslash = -2;
  // Where the line of the current token starts, advanced with the tokens (which only move right):
  // searching back to the line start for every `a/…` token was quadratic on one long line.
  let lineStart = 0;
  let scanned = 0;
  for (;;) {
    if (slash !== -1 && slash < searchFrom) slash = text.indexOf('/', searchFrom);
    if (backslash !== -1 && backslash < searchFrom) backslash = text.indexOf('\\', searchFrom);
    const at = slash === -1 ? backslash : backslash === -1 ? slash : Math.min(slash, backslash);
    if (at === -1) break;
    let start = at;
    while (start > 0 && !isBoundary(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && !isBoundary(text.charCodeAt(end))) end++;
    searchFrom = end + 1;
    let token = text.slice(start, end);
    // `file:///x/y.kt:3:5` (Kotlin, editors, MCP servers) names the file `/x/y.kt`.
    if (token.startsWith('file://')) token = fileUrlPath(token);
    if (token.length < 3 || token.includes('://')) continue; // too short, or a URL
    // `diff --git a/src/x.ts b/src/x.ts`, `--- a/src/x.ts`, `+++ b/src/x.ts`: git's `a/` and `b/`
    // stand for the two sides of one file, not for directories.
    if (token.startsWith('a/') || token.startsWith('b/')) {
      for (; scanned < start; scanned++) {
        if (text.charCodeAt(scanned) === 10) lineStart = scanned + 1;
      }
      // A header's prefix is `diff --git a/<path> ` at most: a longer one is not worth slicing.
      if (start - lineStart <= maxDiffPrefix && diffHeader.test(text.slice(lineStart, start))) {
        token = token.slice(2);
      }
    }
    const path = acceptPath(token);
    if (path && !secretAssignment.test(text.slice(Math.max(0, start - 48), start))) {
      found ??= [];
      found.push(path);
    }
  }
  return found ?? noPaths;
}

/** The first exit status an output reports (group 1), a non-zero status anywhere in a line. */
const exitStatus = new RegExp(`${exitWords}(-?\\d+)`, 'i');
const nonZeroExit = new RegExp(`${exitWords}-?[1-9]`, 'i');
// cmd's and PowerShell's messages for a program that does not exist (bash says `command not
// found`), as the shell prints them: the line opens with the program (`'x' is not recognized as an
// internal or external command,`, `x : The term 'x' is not recognized as the name of a cmdlet`).
// The same words inside a sentence (a README's "if 'x' is not recognized as …, install it") quote
// the message rather than report it.
const unknownProgramSource = String.raw`^[ \t]*(?:'[^'\n]{1,200}' is not recognized as an internal or external command|(?:[^\s:]{1,200} ?: )?The term '[^'\n]{1,200}' is not recognized as (?:the|a) name of a cmdlet)`;
const unknownProgram = new RegExp(unknownProgramSource);
const errorPattern = new RegExp(
  String.raw`(?:error|exception)s?\b|\b(?:failed|failure|failing|timeout|timed out|traceback|fatal|panic(?:ked)?|segmentation fault|core dumped|permission denied)\b|${exitWords}-?[1-9]|command not found|no such file`,
  'i',
);
// Source code that merely mentions errors (`raise ValueError(`, `except KeyError:`, `err = ...`)
// is file content, not a failure. A keyword then `/`, `\`, `.` or `-` opens a path (`fn/a.ts:3:`,
// `package.json:2:`), not code. `** (CompileError) x.ex:3: …` is Elixir's report, no comment.
const codeLine =
  /^\s*(?:(?:raise|except|class|def|return|if|elif|else|for|while|import|from|try|catch|throw|throws|new|const|let|var|function|public|private|protected|static|case|switch|assert|with|yield|await|async|type|interface|enum|struct|impl|fn|pub|use|package|module)\b(?![/\\.-])|#|\/\/|\/\*|\*(?!\* \([A-Z])|@\w)|^\s*[\w.[\]]+\s*(?::\s*[\w.[\]<>, ]+)?\s*=[^=]|[({[,]\s*$/;
// Lines shown with a line-number prefix are file contents (`cat -n`, editors), not failures.
const numberedLine = /^\s*\d+(?:→|:|\t| {2})/;
// ESLint's and stylelint's rows (`  12:5  error  'x' is unused  no-unused-vars`) open with a line
// and column, yet they are the report itself.
const lintRow = /^\s*\d+:\d+\s+error\s/;

/** Error lines whole (whitespace collapsed, not clipped): redact before clipping, never after. */
// The same conditions, for finding the lines that hold one: no branch matches across a line break
// (a newline is a non-word character, as the start and end of a line are), so a line holds a match
// exactly when the scan of the whole output meets one starting in it.
const errorScan = new RegExp(errorPattern.source, 'gi');

// Markers test runners and package managers print in capitals, matched in that case only: `FAIL
// src/a.test.ts`, `FAILED tests/x.py::t`, `npm ERR! code E404`, `ERROR in ./src/x.ts`, `E   assert`
// (pytest's failure detail). In lower case they are ordinary words of prose.
// PowerShell's error record opens with the failing cmdlet, named by an approved verb (`Get-Content :
// Cannot find path 'x' because it does not exist.`; PowerShell 7 drops the space before the colon),
// and its message is a sentence. A header (`Set-Cookie: a=b; Path=/`) is not one.
const powerShellVerbs =
  'Add|Approve|Assert|Backup|Block|Build|Checkpoint|Clear|Close|Compare|Complete|Compress|Confirm|Connect|Convert|ConvertFrom|ConvertTo|Copy|Debug|Deny|Deploy|Disable|Disconnect|Dismount|Edit|Enable|Enter|Exit|Expand|Export|Find|ForEach|Format|Get|Grant|Group|Hide|Import|Initialize|Install|Invoke|Join|Limit|Lock|Measure|Merge|Mount|Move|New|Open|Optimize|Out|Ping|Pop|Protect|Publish|Push|Read|Receive|Redo|Register|Remove|Rename|Repair|Request|Reset|Resize|Resolve|Restart|Restore|Resume|Revoke|Save|Search|Select|Send|Set|Show|Skip|Sort|Split|Start|Step|Stop|Submit|Suspend|Switch|Sync|Tee|Test|Trace|Unblock|Undo|Uninstall|Unlock|Unprotect|Unpublish|Unregister|Update|Use|Wait|Watch|Where|Write';
const powerShellRecord = String.raw`^[ \t]*(?:${powerShellVerbs})-[A-Z][A-Za-z]+ ?: [^\n]*\.[ \t\r]*$`;
const upperCaseErrorScan = new RegExp(
  String.raw`\b(?:FAIL(?:ED|URE)?|ERROR|FATAL|PANIC)\b|\bERR!|^E {2,}\S|^[ \t]*(?:● .*›|[✕✗×❌] )|^e: \S|${powerShellRecord}|${unknownProgramSource}`,
  'gm',
);
const powerShellRecordLine = new RegExp(powerShellRecord);
// What PowerShell prints under an error record: where it happened (`At line:1 char:1`, `At
// C:\x\build.ps1:12 char:5`) and its category (`+ CategoryInfo : …`, `+ FullyQualifiedErrorId :
// …`). `Get-Help` and `Get-Command` list cmdlets in the record's shape (`Set-Location : Sets the
// current working location…`) with neither.
const powerShellContext =
  /^[ \t]*(?:At (?:line:\d+|\S[^\n]*:\d+) char:\d+|\+ (?:CategoryInfo|FullyQualifiedErrorId)\s*:)/;
// How many lines under a record its context may start: the message may wrap onto a few.
const powerShellContextReach = 8;

/** Whether one of the lines after offset `end` of `output` is a PowerShell record's context. */
function powerShellContextFollows(output: string, end: number): boolean {
  let start = end + 1;
  for (let line = 0; line < powerShellContextReach && start < output.length; line++) {
    let stop = output.indexOf('\n', start);
    if (stop === -1) stop = output.length;
    const text = output.slice(start, Math.min(stop, start + 300));
    if (powerShellContext.test(text)) return true;
    if (powerShellRecordLine.test(text)) return false;
    start = stop + 1;
  }
  return false;
}

// Lines that report a failure by their shape alone, whatever their length: a failed test as Jest
// (`● Suite › case`) or Vitest and Mocha (`× case`, `✕ case`) mark it, a Kotlin compiler error
// (`e: file.kt:3:5 Unresolved reference`), a linter's row (`12:5  error  'x' is unused  rule`), a
// Ruby exception (`x.rb:3:in 'm': undefined method 'y' for nil (NoMethodError)`).
const reportShape =
  /^\s*(?:● .*›|[✕✗×❌] \S|e: \S|\d+:\d+\s+error\s)|\((?:[A-Z]\w*::)*[A-Z]\w*(?:Error|Exception)\)\s*$/;

// A count of none (`0 failed`, `Failures: 0`, `0 Error(s)`, `errors=0`): a summary of a run that
// passed. A line that says nothing else of a failure is not an error line.
const noneCounted =
  /\b0 (?:failed|failures?|errors?|error\(s\)|problems?)\b|\b(?:failed|failures?|errors?)\s*[:=]\s*0\b/gi;

// What an error line says in any format: `TypeError: x`, `error: x`, `error[E0308]:`, `error
// TS2345:`, `fatal: x`, `npm ERR!`, `FAIL`, an exit code, a traceback, the shell's own messages.
const errorShape =
  /\b(?:error|fatal|panic|failure|warning)(?:\[\w+\]|\s+[A-Z]+\d+)?:|exit(?:ed)?(?: with)?[ _-]?(?:code|status)|return[ _-]?code|<returncode>|traceback|command not found|no such file|permission denied|segmentation fault|core dumped|timed out|^\s*(?:error|fatal|panic|failed)\b/i;
// A Markdown list item, heading or quote, or a long sentence: documentation and plans that talk
// about errors ("- On invalid params, set span status `error`") rather than report one.
const proseShape = /^\s*(?:[-*+>•]|#{1,6}|\d+[.)])\s/;

// Exception class names and runners' markers, in their case only (`set_error(` and
// `record_exception` are code words, "the failure" is prose).
const exceptionName = /[a-z](?:Error|Exception|Failure)\b|\bERR!|\bFAIL|\bERROR\b|^E {2,}\S/;

// A whole line that is a call or a member chain (`console.error('Failed', e)`, `.typeError('x')`,
// `error?.message ?? 'Failed to load'`): code shown by a search or a diff, in any language.
const callLine = /^\s*[\w$.?]*[\w$]\s*\(.*\)\s*[;,]?\s*$|^\s*\??\.[A-Za-z_$]|\?\.\w|\s\?\?\s/;
// A file position opening a line, as grep, rg, compilers and linters print it: `src/a.ts:12:`,
// `C:\x\y.cs:3:5-`. The token holds a `.` or a separator, so `Line 12:` is not one.
const searchHit = /^\s*(?:[A-Za-z]:)?[^\s:]*[./\\][^\s:]*:\d+(?::\d+)?(?:[:-]|\s)\s*/;
// What a diagnostic says after the position: `error: x`, `error[E0308]:`, `warning TS1: x`,
// `ValueError: x`, pytest's `AssertionError`, or a failure word opening it.
const diagnostic =
  /^(?:-\s+)?(?:\w+\s+)?(?:error|fatal|panic|failure|warning)(?:\[\w+\]|\s+[A-Z]+\d+)?\s*:|^[A-Z]\w*(?:Error|Exception|Failure)\b|^(?:FAIL|ERROR|FAILED|E\s)/i;

function proseLine(raw: string): boolean {
  if (errorShape.test(raw) || exceptionName.test(raw) || reportShape.test(raw)) return false;
  if (proseShape.test(raw)) return true;
  return raw.trim().split(/\s+/).length >= 12;
}

/**
 * Start offsets of the lines of `output` that hold a match of `scan`, added to `into` (a list made
 * at the first match: most outputs hold none), repeats included.
 */
function scanLines(output: string, scan: RegExp, into: number[] | undefined): number[] | undefined {
  scan.lastIndex = 0;
  for (let match = scan.exec(output); match; match = scan.exec(output)) {
    into ??= [];
    into.push(output.lastIndexOf('\n', match.index - 1) + 1);
    let end = output.indexOf('\n', match.index);
    if (end === -1) end = output.length;
    scan.lastIndex = end;
  }
  return into;
}

/**
 * What is known of the run an output came from: `failed` (flagged, or a non-zero exit status),
 * `succeeded` (it stated exit status 0), or `unknown`; and what it searched for, when it did.
 */
interface RunContext {
  status: 'failed' | 'succeeded' | 'unknown';
  searchWords: string[] | 'all' | undefined;
}

const unknownRun: RunContext = { status: 'unknown', searchWords: undefined };

// A unified diff's hunk (`@@ -4,3 +4,3 @@`, or apply_patch's bare `@@`) and the lines it holds:
// context, removed and added lines, and blank ones (some tools strip a context line's space).
const hunkHeader = /^@@(?:[ \t]|$)/;
const hunkBody = /^(?:[ +\-\\]|\r?$)/;
const hunkCounts = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * Start offsets of the lines inside diff hunks of `output` (undefined when it holds none): they
 * show a file's old and new text, so `-    raise ValueError("x")` is code that changed, not a
 * failure of the run that printed the diff.
 */
function hunkLineStarts(output: string): Set<number> | undefined {
  if (!output.startsWith('@@') && !output.includes('\n@@')) return undefined;
  const starts = new Set<number>();
  let inHunk = false;
  // Lines the header counts (old side, new side); a bare `@@` counts none and runs while lines fit.
  let oldLeft = Number.POSITIVE_INFINITY;
  let newLeft = Number.POSITIVE_INFINITY;
  for (let start = 0; start < output.length; ) {
    let end = output.indexOf('\n', start);
    if (end === -1) end = output.length;
    const line = output.slice(start, Math.min(end, start + 4));
    if (hunkHeader.test(line)) {
      inHunk = true;
      // What a command prints after a diff (`  ● suite › test`, `--- FAIL: TestA`) is no hunk's.
      const counts = hunkCounts.exec(output.slice(start, Math.min(end, start + 80)));
      oldLeft = counts === null ? Number.POSITIVE_INFINITY : Number(counts[1] ?? 1);
      newLeft = counts === null ? Number.POSITIVE_INFINITY : Number(counts[2] ?? 1);
    } else if (inHunk && (oldLeft > 0 || newLeft > 0) && hunkBody.test(line)) {
      starts.add(start);
      const mark = line.charAt(0);
      if (mark !== '+' && mark !== '\\') oldLeft--;
      if (mark !== '-' && mark !== '\\') newLeft--;
    } else inHunk = false;
    start = end + 1;
  }
  return starts;
}

// PowerShell 7's concise error view: the cmdlet and where (`Get-Content: C:\x\run.ps1:3`), `Line
// |`, the code row (`   3 |  Get-Content x`), an underline (`     |  ~~~~`), then the message on
// `     | ` lines, wrapped. The message holds no error word ("Cannot find path 'x' because it does not
// exist."): the block's shape says it is one.
const conciseViewHead = /^Line \|[ \t\r]*$/;
const conciseViewRow = /^[ \t]*\d+ \|/;
const conciseViewUnderline = /^[ \t]*\|[ \t]*~+[ \t\r]*$/;
// Greedy to the line's end (trimmed when collapsed): a lazy body before trailing blanks was
// quadratic on a long line of spaces.
const conciseViewMessage = /^[ \t]*\|(.*)$/;
const conciseViewCommand = /^[ \t]*([A-Za-z][\w.-]*):(?:[ \t]|$)/;
const conciseViewMessageLines = 8;

/** The messages of PowerShell 7's `Line |` error blocks, each after its cmdlet's name. */
function conciseViewErrors(output: string): string[] {
  if (!output.includes('Line |')) return [];
  const lines = output.split('\n');
  const errors: string[] = [];
  for (let at = 0; at < lines.length; at++) {
    if (!conciseViewHead.test(lines[at]!)) continue;
    let next = at + 1;
    while (next < lines.length && conciseViewRow.test(lines[next]!)) next++;
    if (next === at + 1 || next >= lines.length || !conciseViewUnderline.test(lines[next]!)) {
      continue;
    }
    next++;
    const message: string[] = [];
    for (; next < lines.length && message.length < conciseViewMessageLines; next++) {
      const part = conciseViewMessage.exec(lines[next]!);
      if (part === null) break;
      message.push(part[1]!);
    }
    const text = collapseWhitespace(message.join(' '));
    if (text.length < 6 || text.length > 1000) continue;
    const command = at > 0 ? conciseViewCommand.exec(lines[at - 1]!)?.[1] : undefined;
    errors.push(command === undefined ? text : `${command}: ${text}`);
    at = next - 1;
  }
  return errors;
}

function rawErrorLines(output: string, run: RunContext = unknownRun): string[] {
  const starts = scanLines(output, upperCaseErrorScan, scanLines(output, errorScan, undefined));
  const lines = conciseViewErrors(output);
  if (starts === undefined) return lines;
  starts.sort((a, b) => a - b);
  const inHunks = hunkLineStarts(output);
  for (let at = 0; at < starts.length; at++) {
    const start = starts[at]!;
    // Each line once, however many matches it holds.
    if (at > 0 && starts[at - 1] === start) continue;
    if (inHunks?.has(start)) continue;
    let end = output.indexOf('\n', start);
    if (end === -1) end = output.length;
    const raw = output.slice(start, end);
    if (raw.length > 500 || (numberedLine.test(raw) && !lintRow.test(raw))) continue;
    if (countsNone(raw) || emptyField(raw, run)) continue;
    // A line in the shape of PowerShell's error record is one when its context follows or its
    // run failed; otherwise it is a cmdlet listed with its description.
    if (powerShellRecordLine.test(raw)) {
      if (run.status === 'failed' || powerShellContextFollows(output, end)) {
        lines.push(collapseWhitespace(raw));
      }
      continue;
    }
    // `exit_code=1` reads like an assignment, yet it is the status the tool reported; cmd's
    // message about a missing program ends with a comma, as a line of code may.
    if (!nonZeroExit.test(raw) && !unknownProgram.test(raw)) {
      if (codeLine.test(raw)) continue;
      if (proseLine(raw) || callLine.test(raw)) continue;
      // A search hit (`src/a.ts:12: const msg = error?.message`) shows a line of a file: it
      // reports a failure only when what follows the position is a diagnostic (`a.c:3:5: error:`).
      const hit = searchHit.exec(raw);
      if (hit) {
        const rest = raw.slice(hit[0].length);
        if (codeLine.test(rest) || callLine.test(rest)) continue;
        if (!diagnostic.test(rest) && !reportShape.test(rest)) continue;
        // A line the run's own search printed is a line of a file, whatever it says.
        if (isSearchHit(rest, run.searchWords)) continue;
      }
    }
    const line = collapseWhitespace(raw);
    if (line.length < 6) continue;
    lines.push(line);
  }
  return lines;
}

// A compiler's or vet tool's diagnostic without a severity word (Go: `./pkg/x.go:12:5: undefined:
// foo`): a file, line and column, then the message. Search tools print the same shape
// (`rg --vimgrep`), so it reports a failure only in the output of a run that failed. The token
// before the position is bounded: each line start is tried once, in bounded steps.
const positionedDiagnostic = /^[ \t]*(?:[A-Za-z]:)?[^\s:]{1,400}:\d+:\d+: +\S/gm;
// An interpreter naming itself before the position, which may lack a column (`lua: x.lua:3: attempt
// to call a nil value`, `awk: cmd. line:1: syntax error`): the program's one-word name and `: `.
const programPrefix = /^[ \t]*[A-Za-z][\w.+-]{0,40}: (?=(?:[A-Za-z]:)?[^\s:]{1,400}:\d+: +\S)/;
const prefixedDiagnostic = /^[ \t]*[A-Za-z][\w.+-]{0,40}: (?:[A-Za-z]:)?[^\s:]{1,400}:\d+: +\S/gm;

/**
 * Diagnostic lines of a failed run's output that name no severity (`x.go:3:5: undefined: y`), less
 * the hits of a search the run made (`rg --vimgrep TODO && make`: rg's lines hold `TODO`).
 */
function positionedDiagnosticLines(
  output: string,
  searchWords: string[] | 'all' | undefined,
): string[] {
  const starts = scanLines(
    output,
    prefixedDiagnostic,
    scanLines(output, positionedDiagnostic, undefined),
  );
  const lines: string[] = [];
  if (starts === undefined) return lines;
  starts.sort((a, b) => a - b);
  for (let at = 0; at < starts.length; at++) {
    const start = starts[at]!;
    if (at > 0 && starts[at - 1] === start) continue;
    let end = output.indexOf('\n', start);
    if (end === -1) end = output.length;
    const raw = output.slice(start, end);
    if (raw.length > 500) continue;
    const prefix = programPrefix.exec(raw);
    const located = prefix === null ? raw : raw.slice(prefix[0].length);
    const hit = searchHit.exec(located);
    // The position names a file (a separator or an extension), and what follows it is no code.
    if (!hit || !/\.[A-Za-z]\w*:\d/.test(hit[0])) continue;
    const rest = located.slice(hit[0].length);
    if (codeLine.test(rest) || callLine.test(rest) || isSearchHit(rest, searchWords)) continue;
    const line = collapseWhitespace(raw);
    if (line.length >= 6) lines.push(line);
  }
  return lines;
}

// An exit status and little else (`exit status 2`, `[Process exited with code 1]`, `✖ Command failed
// with exit code 1.`): the rest of such a line is a few words at most.
const exitAlone = new RegExp(`^.{0,32}${exitWords}-?\\d+.{0,8}$`, 'i');

/**
 * The one line a short output states besides its exit status (whitespace collapsed): a program
 * that died saying why in a line (`Can't locate Foo.pm in @INC …`, `Killed`, `HTTP/1.1 502 Bad
 * Gateway`). Undefined for a longer output, whose lines a reader cannot rank without knowing it.
 */
function onlyStatedLine(output: string): string | undefined {
  if (output.length > 1000) return undefined;
  let found: string | undefined;
  for (const raw of output.split('\n')) {
    if (raw.trim() === '') continue;
    const line = collapseWhitespace(raw);
    if (exitAlone.test(line) || countsNone(raw) || emptyErrorField.test(raw)) continue;
    if (found !== undefined) return undefined;
    found = line;
  }
  return found !== undefined && found.length >= 6 ? found : undefined;
}

/** True for an error line that says what failed: not a count, a verdict or an exit status. */
function namesFailure(line: string): boolean {
  return !isRunSummary(line) && !(line.length <= 80 && exitAlone.test(line));
}

// A result's error field that holds nothing (Gemini CLI's `Error: (none)`, `error: null`, `stderr:
// (empty)`): the harness saying that no error happened.
const emptyErrorField =
  /^[\s"'{[]*(?:errors?|stderr|exception|error_message|failure)["']?\s*[:=]\s*(?:\(none\)|\(empty\)|<nil>|none|null|nil|undefined|empty|n\/a|\[\]|\{\}|""|'')[\s"',}\]]*$/i;
// The same words are also the headline of an exception whose message was a language's nothing:
// Node's `Error: undefined` (`throw new Error(String(x))`), Python's `Exception: None`. Written as
// an exception class writes it, such a line is a field only in a run that stated its success.
const nothingHeadline = /^[ \t]*(?:Error|Exception): (?:None|null|nil|undefined)[ \t\r]*$/;

/** True for an error field that holds nothing, not for the headline of a failed run. */
function emptyField(raw: string, run: RunContext): boolean {
  if (!emptyErrorField.test(raw)) return false;
  return run.status === 'succeeded' || !nothingHeadline.test(raw);
}

/** True for a run's summary that counts no failure and says nothing else of one. */
function countsNone(raw: string): boolean {
  noneCounted.lastIndex = 0;
  if (!noneCounted.test(raw)) return false;
  const rest = raw.replace(noneCounted, ' ');
  errorScan.lastIndex = 0;
  upperCaseErrorScan.lastIndex = 0;
  const failing = errorScan.test(rest) || upperCaseErrorScan.test(rest);
  errorScan.lastIndex = 0;
  upperCaseErrorScan.lastIndex = 0;
  return !failing;
}

/** Error lines of a tool output, in order: failing lines, tracebacks, non-zero exit codes. */
export function extractErrorLines(output: string): string[] {
  return rawErrorLines(output)
    .map((line) => itemKey(line))
    .filter((line) => line.length >= 6);
}

function fail(path: string, message: string): never {
  throw new ReceiptInputError({ path, message });
}

// Paths of invalid input are built only when one is reported: built up front, they were two
// strings for every message and part of a large window, almost never used.
/** `joined` and `line` on separate lines (`line` alone when `joined` is undefined). */
const joinLine = (joined: string | undefined, line: string) =>
  joined === undefined ? line : `${joined}\n${line}`;

const messagePath = (index: number) => `messages[${index}]`;
const partPath = (index: number, partIndex: number) =>
  `${messagePath(index)}.content[${partIndex}]`;

interface OutputText {
  text: string;
  failed: boolean;
  denied: boolean;
  /** A non-zero exit status a JSON result gave in a field of its own. */
  exitCode?: number | undefined;
  /** The message of a JSON result's `error` field: the line that says what failed. */
  errorText?: string | undefined;
}

/** A JSON result read as text lines, its failure flags and exit status kept. */
function jsonOutput(value: unknown, failed: boolean): OutputText {
  const reading = readJsonOutput(value);
  return {
    text: reading.text,
    failed: failed || reading.failed,
    denied: false,
    exitCode: reading.exitCode,
    errorText: reading.errorText,
  };
}

/**
 * Where a tool output sits, for an error: `messages[i].content[j].output`, or `output` alone when
 * `index` is negative. Numbers rather than a closure: one was made per tool result of a window.
 */
function outputPath(index: number, partIndex: number): string {
  return index < 0 ? 'output' : `${partPath(index, partIndex)}.output`;
}

/** A tool output as text, terminal colour codes removed (they hide words, lines and paths). */
function stringifyOutput(output: unknown, messageIndex: number, partIndex: number): OutputText {
  const read = readOutputText(output, messageIndex, partIndex);
  read.text = stripTerminalCodes(read.text);
  if (read.errorText !== undefined) read.errorText = stripTerminalCodes(read.errorText);
  return read;
}

function readOutputText(output: unknown, messageIndex: number, partIndex: number): OutputText {
  if (typeof output !== 'object' || output === null) {
    fail(outputPath(messageIndex, partIndex), 'expected a tool output object');
  }
  const { type } = output as { type?: unknown };
  const value = (output as { value?: unknown }).value;
  switch (type) {
    case 'text':
    case 'error-text': {
      if (typeof value !== 'string')
        fail(`${outputPath(messageIndex, partIndex)}.value`, 'expected a string');
      // Many tools return a JSON document as text (MCP servers, HTTP APIs, Codex's exec results).
      const document = parseJsonDocument(value);
      if (document !== undefined) return jsonOutput(document, type === 'error-text');
      return { text: value, failed: type === 'error-text', denied: false };
    }
    case 'json':
    case 'error-json':
      return jsonOutput(value, type === 'error-json');
    case 'execution-denied': {
      const reason = (output as { reason?: unknown }).reason;
      return { text: typeof reason === 'string' ? reason : '', failed: false, denied: true };
    }
    case 'content': {
      if (!Array.isArray(value))
        fail(`${outputPath(messageIndex, partIndex)}.value`, 'expected an array of content parts');
      const texts = value.map((part, index) => {
        if (typeof part !== 'object' || part === null)
          fail(`${outputPath(messageIndex, partIndex)}.value[${index}]`, 'expected a part');
        const record = part as {
          type?: unknown;
          text?: unknown;
          filename?: unknown;
          url?: unknown;
        };
        if (record.type === 'text') {
          if (typeof record.text !== 'string')
            fail(
              `${outputPath(messageIndex, partIndex)}.value[${index}].text`,
              'expected a string',
            );
          return record.text;
        }
        if (typeof record.filename === 'string') return `[file ${record.filename}]`;
        if (typeof record.url === 'string') return `[file ${record.url}]`;
        return `[${String(record.type)}]`;
      });
      return { text: texts.join('\n'), failed: false, denied: false };
    }
    default:
      return fail(
        `${outputPath(messageIndex, partIndex)}.type`,
        `unknown tool output type ${describeInvalid(type)}`,
      );
  }
}

/**
 * The first non-empty line of `text`, redacted, whitespace collapsed and clipped at a word boundary.
 * Only that line is redacted: redacting a whole 30 kB tool output to show 100 characters of it is
 * where time went.
 */
function firstLine(
  text: string,
  length: number,
  redactText: (text: string) => string = redact,
): string {
  // `/\S[^\n]*/` in the first 20,000 characters, found by a scan: the match (and the slice it was
  // run on) was a few strings per call of a long window, and most targets are one whole line.
  const limit = Math.min(text.length, 20_000);
  let start = 0;
  while (start < limit && isSpace(text.charCodeAt(start))) start++;
  if (start === limit) return '';
  let end = text.indexOf('\n', start);
  if (end === -1 || end > limit) end = limit;
  // A secret that starts within the shown part ends well inside 1,000 characters.
  const line = collapseWhitespace(
    redactText(text.slice(start, Math.min(end, start + Math.max(1000, length * 4)))),
  );
  return clipText(line, length);
}

/** What a tool result's line says of it, and the exit status it reports. */
function resultOutcome(
  output: OutputText,
  redactText: (text: string) => string,
): { outcome: string; exit: RegExpExecArray | null; exitCode: number } {
  const exit = exitStatus.exec(output.text);
  const exitCode = output.exitCode ?? (exit ? Number(exit[1]) : 0);
  let outcome = 'ok';
  if (output.denied) outcome = 'denied';
  else if (output.failed)
    outcome = `error: ${firstLine(output.errorText ?? output.text, 100, redactText)}`;
  else if (exitCode !== 0) outcome = `exit ${exitCode}`;
  return { outcome, exit, exitCode };
}

/**
 * A turn as the receipt shows it: the message's text redacted, then a line per tool call, result
 * and attachment; undefined for a message with neither (and for system messages). Read from a
 * message `extractHandoffFacts` has already validated.
 */
function turnText(message: ModelMessage, redactText: (text: string) => string): string | undefined {
  if (message.role === 'system') return undefined;
  const content: unknown = message.content;
  let joinedText: string | undefined;
  const lines: string[] = [];
  if (typeof content === 'string') {
    joinedText = content;
  } else if (Array.isArray(content)) {
    for (let partIndex = 0; partIndex < content.length; partIndex++) {
      if (!(partIndex in content)) continue;
      const record = content[partIndex] as Record<string, unknown>;
      switch (record.type) {
        case 'text':
          joinedText = joinLine(joinedText, record.text as string);
          break;
        case 'tool-call': {
          const target = firstLine(toolTarget(record.input), 160, redactText);
          lines.push(`called ${record.toolName as string}${target ? ` ${target}` : ''}`);
          break;
        }
        case 'tool-result': {
          const output = stringifyOutput(record.output, -1, 0);
          const { outcome } = resultOutcome(output, redactText);
          lines.push(
            `${record.toolName as string} -> ${outcome === 'ok' ? firstLine(output.text, 120, redactText) || 'ok' : outcome}`,
          );
          break;
        }
        case 'image':
        case 'file':
        case 'reasoning-file':
          lines.push(
            `[${record.type}${typeof record.filename === 'string' ? ` ${record.filename}` : ''}]`,
          );
          break;
        default:
          break;
      }
    }
  }
  const trimmed = (joinedText ?? '').trim();
  if (trimmed === '' && lines.length === 0) return undefined;
  if (trimmed !== '') lines.unshift(redact(trimmed));
  return lines.filter((line) => line !== '').join('\n');
}

/** Quotes an argument that would read as several (spaces, empty) the way a shell would need it. */
function shellWord(word: string): string {
  return word === '' || /[\s"']/.test(word) ? JSON.stringify(word) : word;
}

/**
 * A command line from `{ command, args }` (or `cmd` / `arguments`): the program name alone says
 * little when the arguments are what identifies the run (`node --test x.test.js`). Only string
 * arguments are joined; the caller clips the line.
 */
// Module-level: closures made per call (twice per tool call: target and command) added up.
const isString = (item: unknown) => typeof item === 'string';
const words = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.length > 0 && value.every(isString)
    ? (value as string[])
    : undefined;

// Other names harnesses give the shell line (`commandLine`, `script`, `shell_command`).
const commandKeys = [
  'command',
  'cmd',
  'commandLine',
  'command_line',
  'cmdline',
  'shell_command',
  'shellCommand',
  'script',
];

function commandLine(record: Record<string, unknown>, nested = true): string | undefined {
  let program: unknown;
  for (let at = 0; at < commandKeys.length && program === undefined; at++) {
    program = record[commandKeys[at]!];
  }
  const args = record.args ?? record.arguments ?? record.argv;
  // `{ argv: ['sh', '-c', 'make all'] }`: the argument vector alone is the whole command.
  const programWords =
    typeof program === 'string'
      ? [program]
      : (words(program) ?? (program === undefined ? words(record.argv) : undefined));
  if (programWords === undefined || programWords.join('').trim() === '') {
    // `{ params: { script: 'make' } }`: one level of wrapping around the command's own fields.
    if (!nested || program !== undefined) return undefined;
    for (const field in record) {
      if (!Object.hasOwn(record, field)) continue;
      const value = record[field];
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      const inner = commandLine(value as Record<string, unknown>, false);
      if (inner !== undefined) return inner;
    }
    return undefined;
  }
  if (program === undefined) {
    const [first, ...rest] = programWords;
    return [first!, ...rest.map(shellWord)].join(' ');
  }
  const argumentWords = words(args) ?? [];
  if (programWords.length === 1 && argumentWords.length === 0) return programWords[0]!;
  // The program itself may already be a shell line (`bash -lc "..."`): keep it as written.
  const [first, ...rest] = programWords;
  return [first!, ...[...rest, ...argumentWords].map(shellWord)].join(' ');
}

function toolTarget(input: unknown): string {
  if (typeof input === 'string') return input;
  if (typeof input !== 'object' || input === null) return '';
  const record = input as Record<string, unknown>;
  const command = commandLine(record);
  if (command !== undefined) return command;
  for (let at = 0; at < targetFields.length; at++) {
    const value = record[targetFields[at]!];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  // Any other path-named argument (`target_file`, `absolute_path`, `paths: [...]`) says what the
  // call acted on better than the first string of the input.
  for (const [field, value] of Object.entries(record)) {
    if (!pathFields.test(field)) continue;
    const paths = pathValues(value);
    if (paths.length > 0) return paths.join(' ');
  }
  // A value shown out of its object loses its key: skip it when the key names a secret.
  for (const [field, value] of Object.entries(record)) {
    if (typeof value === 'string' && value.trim() !== '' && !isKeyedSecret(field, value)) {
      return value;
    }
  }
  return '';
}

// File headers of a patch: OpenAI's `*** Update File: x` / `*** Add File:` / `*** Delete File:` /
// `*** Move to:` and a unified diff's `+++ b/x` (or `--- a/x` of a file the patch deletes).
const patchHeader =
  /^\*\*\* (?:(?:Update|Add|Delete) File|Move to): *(\S[^\n]*?)\s*$|^(?:\+\+\+|---) (?:[ab]\/)?([^\s]+)/gm;

/**
 * The files a patch handed to a writing tool changes, from its headers (however long the patch:
 * its body is not read for paths). Only string arguments one level down are patches.
 */
function collectPatchedFiles(input: unknown, into: PathSink): void {
  if (typeof input === 'string') {
    collectPatchHeaders(input, into);
  } else if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const record = input as Record<string, unknown>;
    for (const field in record) {
      if (!Object.hasOwn(record, field)) continue;
      const value = record[field];
      if (typeof value === 'string') collectPatchHeaders(value, into);
    }
  }
}

function collectPatchHeaders(text: string, into: PathSink): void {
  if (!text.includes('*** ') && !text.includes('+++ ')) return;
  for (const match of text.matchAll(patchHeader)) {
    const path = (match[1] ?? match[2])!.trim();
    // A removed `-- comment` line reads `--- comment` in a diff body: a header names a path.
    if (path !== '/dev/null' && !/\s/.test(path) && /[./]/.test(path)) into.push(path);
  }
}

// Where an absolute or explicitly relative path starts (`/`, `~/`, `./`, `../`, `C:\`).
const pathRoot = String.raw`(?:\/|~\/|\.\.?\/|[A-Za-z]:[\\/])`;
const spacedPath = new RegExp(`^${pathRoot}[^\\n\\r\\t]*$`);
const laterRoot = new RegExp(`\\s${pathRoot}`);

/**
 * True when `value`, holding a space, is still one path (`/Users/me/Application Support/x.json`):
 * it starts at a root and no other root follows a space, as in a list of paths.
 */
function isOneSpacedPath(value: string): boolean {
  return spacedPath.test(value) && !laterRoot.test(value);
}

/** `item` trimmed when it is one path as a path-named argument holds one; undefined otherwise. */
function onePath(item: unknown): string | undefined {
  if (typeof item !== 'string') return undefined;
  const trimmed = item.trim();
  // A `file://` URL under a path-named key (`uri`, `file`) is the file it names.
  const path = trimmed.startsWith('file://') ? fileUrlPath(trimmed) : trimmed;
  if (path === '' || (anySpace.test(path) && !isOneSpacedPath(path))) return undefined;
  return path;
}

/** The path or paths a path-named argument holds: one string, or a list of strings (`paths`). */
function pathValues(value: unknown): string[] {
  if (!Array.isArray(value)) {
    const path = onePath(value);
    return path === undefined ? [] : [path];
  }
  if (value.length === 0 || value.length > 200) return [];
  const paths: string[] = [];
  for (const item of value) {
    const path = onePath(item);
    if (path === undefined) return [];
    paths.push(path);
  }
  return paths;
}

/** `path.replace(/(.)\/$/, '$1')`: a trailing slash dropped unless it is all there is. */
function withoutTrailingSlash(path: string): string {
  const last = path.length - 1;
  if (last < 1 || path.charCodeAt(last) !== 47) return path;
  // `.` matches no line terminator.
  const before = path.charCodeAt(last - 1);
  if (before === 10 || before === 13 || before === 0x2028 || before === 0x2029) return path;
  return path.slice(0, -1);
}

// A file name without a directory, by the extensions of source, documentation and configuration
// files: `README.md`, `setup.py`, `Cargo.toml`. Dotted words of code and prose (`console.log`,
// `process.env`, `mutex.lock`, `example.com`, `gpt-4.1`) are left out, and so are those extensions.
const bareFileName =
  /^[\w@+-][\w@+.-]*\.(?:[cm]?[jt]sx?|json[c5l]?|md|mdx|rst|txt|py|pyi|ipynb|rs|go|java|kt|kts|scala|rb|php|swift|c|cc|cpp|cxx|h|hh|hpp|cs|fs|ex|exs|erl|hs|ml|clj|lua|pl|jl|dart|vue|svelte|astro|html?|css|scss|sass|less|xml|ya?ml|toml|ini|cfg|conf|sql|sh|bash|zsh|ps1|bat|gradle|mk|cmake|proto|graphql|tf|dockerfile|pony|zig|nim|sol|csv|tsv)$/i;

/** Where paths found are put. */
interface PathSink {
  push(path: string): void;
}

/**
 * The paths of one tool call, in a list every call refills: `length = 0` on an array drops its
 * storage, so each call's first push allocated it again. Only the first `length` items count.
 */
class PathList implements PathSink {
  readonly items: string[] = [];
  length = 0;
  push(path: string): void {
    this.items[this.length++] = path;
  }
  clear(): void {
    this.length = 0;
  }
}

/**
 * Objects on the path of the input walk in progress, from its start (`base`) up: one list every
 * walk shares, where a Set made per tool call (and shrunk by each delete) added up over a window.
 */
const inputAncestors: object[] = [];

/** Paths in a tool input; values of path-named fields go to `targets` (what the tool acted on). */
function collectInputPaths(
  input: unknown,
  into: PathSink,
  targets: PathSink,
  depth = 0,
  // Where this walk's ancestors start in `inputAncestors`; set at its first object.
  base = -1,
): void {
  if (typeof input === 'string') {
    // A loop, not `push(...paths)`: a command naming 130k files would overflow the stack.
    const found = findPaths(input);
    for (let at = 0; at < found.length; at++) into.push(found[at]!);
    return;
  }
  // Tool inputs are JSON in the protocol; a cycle or absurd nesting is not walked (never a crash).
  if (typeof input !== 'object' || input === null || depth > maxWalkDepth) return;
  if (base < 0) base = inputAncestors.length;
  else if (inputAncestors.indexOf(input, base) !== -1) return;
  inputAncestors.push(input);
  try {
    if (Array.isArray(input)) {
      for (const item of input) collectInputPaths(item, into, targets, depth + 1, base);
      return;
    }
    const record = input as Record<string, unknown>;
    // Own keys by `for...in`: `Object.keys` made a list per object of every call's input.
    for (const field in record) {
      if (!Object.hasOwn(record, field)) continue;
      const value = record[field];
      if (typeof value === 'string' && isKeyedSecret(field, value)) continue;
      if (pathFields.test(field)) {
        // One path (most path arguments) without a list around it.
        const path = Array.isArray(value) ? undefined : onePath(value);
        if (path !== undefined) {
          targets.push(withoutTrailingSlash(path));
          continue;
        }
        const paths = Array.isArray(value) ? pathValues(value) : [];
        if (paths.length > 0) {
          for (const item of paths) targets.push(withoutTrailingSlash(item));
          continue;
        }
      }
      if (typeof value === 'string') {
        // A whole argument that is one file name (`SECURITY.md`), under whatever key a tool uses.
        if (bareFileName.test(value)) targets.push(value);
        // Long file bodies (a `Write` tool's `content`) hold code, not references to other files.
        else if (value.length <= 4000) {
          const found = findPaths(value);
          for (let at = 0; at < found.length; at++) into.push(found[at]!);
        }
      } else {
        collectInputPaths(value, into, targets, depth + 1, base);
      }
    }
  } finally {
    inputAncestors.pop();
  }
}

// `Working directory: /repo`, `<cwd>/repo</cwd>`, `cwd: /repo` in a system prompt or environment
// note, and the other ways agents announce it: `workspace_root: /repo`, `Project root: /repo`, `The
// user's workspace is at /repo`, `You are working in the repository at /repo`. Only linking words
// may stand between (`working in claude, hitting /clear` names no directory), and words inside a
// path (`/workspace/app/x.ts`) announce nothing.
const workingDirectoryMention =
  /(?<![\w/\\.-])(?:working directory|current directory|cwd|workdir|workspace(?:[_ ]?(?:root|path|folder|dir(?:ectory)?))?|project[_ ](?:root|dir(?:ectory)?|folder|path)|repo(?:sitory)?[_ ]root|working in)(?:<\/?[a-z_]+>|(?:[ \t:=]|\b(?:is|at|in|set|to|located|the|repository|repo|project|folder)\b)*)[`"']?(\/[^\s`"'<>,;]+|[A-Za-z]:[\\/][^\s`"'<>,;]*|\\\\[^\s`"'<>,;]+)/gi;

// A command line that opens by entering a directory (after an optional `bash -lc` and quote).
// The spaces around a closing quote are one run, then the quote and a second run: two runs of
// `\s*` side by side split n spaces n ways (a long `cd /a    x` was quadratic).
const enteredDirectory =
  /^\s*(?:(?:ba|z)?sh\s+-l?c\s+["']?)?cd\s+(?:"([^"\n]+)"|([~/][^\s;&|'"]*|[A-Za-z]:\\[^\s;&|'"]*))\s*(?:["']\s*)?(?:&&|;|$)/;
// A `cd` opens a command line: its head is enough, whatever follows (a heredoc, a script).
const enteredDirectoryHead = 4096;
/** The directory a command line enters first (`cd /repo && make`), read from its head only. */
function enteredDirectoryIn(command: string): string | null {
  const head = command.slice(0, enteredDirectoryHead);
  const entered = enteredDirectory.exec(head);
  if (entered === null) return null;
  // A line cut inside the `cd` (its `$` is the cut, not the end) names no directory.
  if (head.length < command.length && entered[0].length === head.length) return null;
  return entered[1] ?? entered[2]!;
}
// A command line that opens by entering a directory named relative to the working directory (`cd
// packages/api && pnpm test`), then runs something: what it runs names files from there. Not `cd
// -` (the previous directory) nor a variable or a command substitution (unknown here).
const enteredRelative =
  /^\s*(?:(?:ba|z)?sh\s+-l?c\s+["']?)?cd\s+(?:"([\w@+.][^"\n]*)"|([\w@+.][^\s;&|'"$`]*))\s*(?:["']\s*)?(?:&&|;)/;
/** The relative directory a command line enters first (`cd packages/api && …`), `/`-separated. */
function enteredRelativeIn(command: string): string | undefined {
  const entered = enteredRelative.exec(command.slice(0, enteredDirectoryHead));
  if (entered === null || driveStart.test(entered[1] ?? entered[2]!)) return undefined;
  const directory = (entered[1] ?? entered[2]!).replace(/\\/g, '/').replace(/\/+$/, '');
  return directory === '' || directory === '.' ? undefined : directory;
}
const driveStart = /^[A-Za-z]:/;
const namedAbsolute = /^(?:\/|~|[A-Za-z]:[\\/]|\\\\|[A-Za-z][\w+.-]*:)/;

/**
 * `path` as named from the directory a command entered: a relative path under it, unless the path
 * already starts there (`git diff` names files from the repository's root) or is absolute, a URL,
 * or a runtime's own file (`internal/modules/cjs/loader.js`, which is nobody's project file).
 */
function underEntered(directory: string, path: string): string {
  if (namedAbsolute.test(path) || isInternalPath(path)) return path;
  const slashed = path.replace(/\\/g, '/');
  if (slashed === directory || slashed.startsWith(`${directory}/`)) return path;
  // `packages/web/src/view.ts` printed after `cd packages/api` (`git diff` names files from the
  // repository's root): a path opening with the entered directory's own first folder is the root's.
  const top = directory.split('/', 1)[0]!;
  if (top !== '.' && top !== '..' && slashed.startsWith(`${top}/`)) return path;
  return withoutDotSegments(`${directory}/${slashed}`) ?? path;
}

/**
 * `a/b/../c/./d` as `a/c/d`; undefined when `..` climbs above where the path starts (the
 * directory the `cd` left from is not known here).
 */
function withoutDotSegments(path: string): string | undefined {
  if (!path.includes('./')) return path;
  const kept: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '.' || segment === '') continue;
    if (segment !== '..') kept.push(segment);
    else if (kept.length === 0 || kept[kept.length - 1] === '..') return undefined;
    else kept.pop();
  }
  return kept.join('/');
}

const printsDirectory = /^(?:(?:ba|z)?sh\s+-l?c\s+["']?)?pwd["']?$/;
const rootedLine = /^(?:\/|[A-Za-z]:\\)[^\n]*$/;

/** `cwd`, `workdir`, `working_directory` arguments of a tool call (shell tools carry them). */
// Regex literals in functions called per message or per call are hoisted: each evaluation of a
// literal makes a new RegExp object.
const directoryField = /^(?:cwd|workdir|working_?dir(?:ectory)?)$/i;
const namesDirectory = /directory|cwd|workdir|workspace|project|repo|working in/i;
const anySpace = /\s/;

function noteInputDirectories(input: unknown, into: string[]): void {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return;
  const record = input as Record<string, unknown>;
  for (const field in record) {
    if (!Object.hasOwn(record, field)) continue;
    const value = record[field];
    if (typeof value === 'string' && directoryField.test(field)) {
      into.push(value.trim());
    }
  }
}

const redact = (text: string) => redactSecretsShared(text).text;

/** Tools that write share one kind (a failed `edit` is redone by `write`); others are their own. */
function callKind(call: ToolCallFact): string {
  return writingTool.test(call.name) ? 'write' : call.name.toLowerCase();
}

/**
 * The programs and subcommands a command line runs (`npx vitest run`, `cat`), without its paths,
 * flags, environment assignments and `cd` steps: what kind of operation it is.
 */
function commandVerbs(target: string): string {
  const verbs: string[] = [];
  for (const segment of target.split(/&&|\|\||;|\|/)) {
    const words = segment.trim().split(/\s+/);
    if (/^(?:cd|pushd|export|source|\.)$/.test(words[0] ?? '')) continue;
    const verb: string[] = [];
    for (const word of words) {
      if (/^[A-Za-z_]\w*=/.test(word) && verb.length === 0) continue;
      if (word === '' || /^-/.test(word) || /[/\\.:]/.test(word) || verb.length === 3) break;
      verb.push(word);
    }
    if (verb.length > 0) verbs.push(verb.join(' '));
  }
  return verbs.join(' | ');
}

/**
 * The keys under which a later call redoes what a call did: the same kind of call (the same tool,
 * or any writing tool after a failed write) with the same target, or running the same program on
 * a path the target names. Reading a test file is not re-running the test; reading a file is not
 * the edit that failed on it. None for a call without a target.
 */
function targetKeys(target: CallTarget, lookup = false): string[] {
  if (target.text === '') return [];
  const selection = target.selection();
  // A later run of the same selection redoes a failed one, and so does a run of everything; a
  // run of other tests of the same file (`pytest f.py -k other`) does not.
  const selections = lookup && selection !== '' ? [selection, ''] : [selection];
  const keys = [`text\u0000${target.kind}\u0000${target.text}`];
  for (const path of target.paths()) {
    for (const chosen of selections) {
      keys.push(`path\u0000${target.kind}\u0000${target.verbs()}\u0000${chosen}\u0000${path}`);
    }
  }
  return keys;
}

// Flags that run some tests of a file by name or mark (`-k`, `-t`, `--grep`, go's `-run`), and
// pytest node ids (`f.py::test_x`).
const testSelector =
  /(?:^|\s)(?:-k|-t|-m|-g|-run|--run|--grep|--testNamePattern|--test-name-pattern|--filter|--only)(?:=|\s+)("[^"]*"|'[^']*'|\S+)|::([\w[\]:.-]+)/g;

/** The tests a command line picks by name, sorted; empty when it runs all its files hold. */
function testSelection(target: string): string {
  const picked: string[] = [];
  for (const match of target.matchAll(testSelector)) picked.push(match[1] ?? match[2] ?? '');
  return picked.sort().join(' ');
}

/** What `targetKeys` is built from, worked out once per call. */
interface CallTarget {
  kind: string;
  text: string;
  verbs: () => string;
  selection: () => string;
  paths: () => string[];
}

// A shell asked to run one line (`sh -c "make"`, `bash -lc 'make'`, `zsh -c make`): the same run
// as the line itself, however the harness wraps it.
const shellWrapper =
  /^(?:\S*\/)?(?:ba|z|da|k)?sh\s+-l?c\s+(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+))$/;

function unwrapShell(text: string): string {
  const match = shellWrapper.exec(text);
  if (match === null) return text;
  const inner = match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? match[3]!);
  return inner.trim() === '' ? text : inner.trim();
}

function callTarget(call: ToolCallFact, targets: Map<ToolCallFact, CallTarget>): CallTarget {
  let target = targets.get(call);
  if (target === undefined) {
    const text = unwrapShell(collapseWhitespace(call.target));
    let verbs: string | undefined;
    let selection: string | undefined;
    let paths: string[] | undefined;
    target = {
      kind: callKind(call),
      text,
      verbs: () => {
        verbs ??= commandVerbs(text);
        return verbs;
      },
      selection: () => {
        selection ??= testSelection(text);
        return selection;
      },
      paths: () => {
        paths ??= extractPaths(text);
        return paths;
      },
    };
    targets.set(call, target);
  }
  return target;
}
/** How many trailing turns `extractHandoffFacts` keeps (redacted) in `turns`. */
export const lastTurnCount = 12;

/**
 * Reads a window of AI SDK messages into the facts a receipt is built from. Also the single
 * definition of "ground truth" for the retention benchmark: asks, tool names, paths and error
 * lines are extracted here once. Throws `ReceiptInputError` for input no `ModelMessage` can be.
 */
export function extractHandoffFacts(messages: readonly ModelMessage[]): HandoffFacts {
  return readingMessages(() => readHandoffFacts(messages));
}

function readHandoffFacts(messages: readonly ModelMessage[]): HandoffFacts {
  if (!Array.isArray(messages)) fail('messages', 'expected an array of messages');
  // `forEach` skips holes; a sparse list is as invalid as one holding `undefined`.
  for (let index = 0; index < messages.length; index++) {
    if (!(index in messages)) fail(`messages[${index}]`, 'expected a message object');
  }
  const roleCounts: Record<string, number> = {};
  const asks = new Map<string, AskFact>();
  let latestAsk: AskFact | undefined;
  const toolCalls: ToolCallFact[] = [];
  const callsById = new Map<string, ToolCallFact>();
  const files = new Map<string, FileFact>();
  const errors = new Map<string, ErrorFact>();

  const namedDirectories: string[] = [];
  const noteDirectories = (text: string) => {
    if (!namesDirectory.test(text)) return;
    for (const match of text.matchAll(workingDirectoryMention)) namedDirectories.push(match[1]!);
  };
  // One redaction per distinct text of the window, shared by paths and call targets: a tool's
  // target (`src/a.ts`) is redacted for its call line and again as the path it names, and texts that
  // short are below the length `redactSecrets` memoises. Longer ones are left to its memo: a second
  // table of every path of a long window cost megabytes and saved nothing (redaction is
  // deterministic, so a text the memo has dropped redacts the same again).
  const redactedTexts = new Map<string, string>();
  const redactText = (text: string) => {
    if (text.length >= redactionMemoMinLength) return redact(text);
    let redacted = redactedTexts.get(text);
    if (redacted === undefined) {
      redacted = redact(text);
      redactedTexts.set(text, redacted);
    }
    return redacted;
  };
  // Indexed loops over the first `count` paths: the lists of a call are reused (`PathList`).
  const notePaths = (
    paths: readonly string[],
    index: number,
    written = false,
    read = false,
    count = paths.length,
  ) => {
    for (let at = 0; at < count; at++) {
      const raw = paths[at]!;
      const path = redactText(raw);
      const fact = files.get(path);
      if (fact) {
        fact.references++;
        fact.lastIndex = index;
        fact.written ||= written;
        fact.read ||= read;
      } else {
        files.set(path, { path, references: 1, lastIndex: index, written, read });
      }
    }
  };
  // Sets what a call did to paths the window already counts (or counts them once, when a long
  // command was not read for mentions).
  const markPaths = (
    paths: readonly string[],
    index: number,
    flag: 'written' | 'read',
    count = paths.length,
  ) => {
    for (let at = 0; at < count; at++) {
      const raw = paths[at]!;
      const path = redactText(raw);
      const fact = files.get(path);
      if (fact) fact[flag] = true;
      else notePaths([raw], index, flag === 'written', flag === 'read');
    }
  };
  const redactedErrors = new Map<string, string>();
  // Which calls each error line came from (undefined: a result whose call is not in the window).
  // A set: a retry log repeats one line thousands of times from one call, and copying a list per
  // repeat made a 500 KB output take 24 s.
  const errorSources = new Map<string, Set<ToolCallFact | undefined>>();
  const reportedErrors = new Set<ToolCallFact>();
  // Where each call's result came: a success resolves a source's error when it came after that
  // source's output (not after the line's last output from any source: one line printed by two
  // failing tests, each fixed in turn, stayed open).
  const resultIndexes = new Map<ToolCallFact, number>();
  const noteErrors = (
    lines: string[],
    index: number,
    flagged: boolean,
    source: ToolCallFact | undefined,
    succeeded: boolean,
    failedCall: boolean,
  ) => {
    let naming = false;
    for (let at = 0; at < lines.length && !naming; at++) naming = namesFailure(lines[at]!);
    for (let at = 0; at < lines.length; at++) {
      const raw = lines[at]!;
      const accompanied = naming && isRunSummary(raw);
      let line = redactedErrors.get(raw);
      if (line === undefined) {
        line = itemKey(redact(raw));
        redactedErrors.set(raw, line);
      }
      const fact = errors.get(line);
      if (fact) {
        fact.count++;
        fact.lastIndex = index;
        fact.flagged ||= flagged;
        fact.fromSucceededCall &&= succeeded;
        fact.fromFailedCall ||= failedCall;
        fact.accompanied &&= accompanied;
      } else {
        errors.set(line, {
          line,
          count: 1,
          lastIndex: index,
          flagged,
          fromSucceededCall: succeeded,
          fromFailedCall: failedCall,
          accompanied,
          resolved: false,
        });
      }
      const sources = errorSources.get(line);
      if (sources === undefined) errorSources.set(line, new Set([source]));
      else sources.add(source);
    }
  };

  // A call's paths, in lists every call reuses (each is read before the next call fills it).
  // Calls whose command entered a relative directory first, and that directory.
  const enteredDirectories = new Map<ToolCallFact, string>();
  const rebase = (list: PathList, directory: string) => {
    for (let at = 0; at < list.length; at++) {
      list.items[at] = underEntered(directory, list.items[at]!);
    }
  };
  const inputPaths = new PathList();
  const writtenPaths = new PathList();
  const patchedPaths = new PathList();
  // Loops rather than `forEach`: the callbacks' contexts and the closures that built each message's
  // turn were allocated per message and part of a large window, for the dozen turns ever shown.
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (typeof message !== 'object' || message === null) {
      fail(messagePath(index), 'expected a message object');
    }
    const role = (message as { role?: unknown }).role;
    if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool') {
      fail(`${messagePath(index)}.role`, `unknown role ${describeInvalid(role)}`);
    }
    roleCounts[role] = (roleCounts[role] ?? 0) + 1;
    const content = (message as { content?: unknown }).content;
    // The text parts joined by newlines, built as they come, and the activity lines, listed from
    // the first: most messages hold one text or none, and an empty list grown by one item reserves
    // room for 17 (per message of a large window).
    let joinedText: string | undefined;
    if (typeof content === 'string') {
      joinedText = content;
    } else if (Array.isArray(content)) {
      if (role === 'system') {
        fail(`${messagePath(index)}.content`, 'system content must be a string');
      }
      for (let partIndex = 0; partIndex < content.length; partIndex++) {
        // `forEach` skipped holes, and so does this loop: a sparse part list is read as before.
        if (!(partIndex in content)) continue;
        const part: unknown = content[partIndex];
        if (
          typeof part !== 'object' ||
          part === null ||
          typeof (part as { type?: unknown }).type !== 'string'
        ) {
          fail(partPath(index, partIndex), 'expected a part with a string type');
        }
        const record = part as Record<string, unknown>;
        switch (record.type) {
          case 'text':
          case 'reasoning': {
            if (typeof record.text !== 'string')
              fail(`${partPath(index, partIndex)}.text`, 'expected a string');
            if (record.type === 'text') joinedText = joinLine(joinedText, record.text);
            else notePaths(findPaths(record.text), index);
            break;
          }
          case 'tool-call': {
            if (typeof record.toolName !== 'string')
              fail(`${partPath(index, partIndex)}.toolName`, 'expected a string');
            if (typeof record.toolCallId !== 'string')
              fail(`${partPath(index, partIndex)}.toolCallId`, 'expected a string');
            const name = record.toolName;
            const target = firstLine(toolTarget(record.input), 160, redactText);
            const call: ToolCallFact = {
              ordinal: toolCalls.length + 1,
              name,
              target,
              outcome: 'no result',
              failed: false,
              index,
            };
            toolCalls.push(call);
            callsById.set(record.toolCallId, call);
            inputPaths.clear();
            writtenPaths.clear();
            collectInputPaths(record.input, inputPaths, writtenPaths);
            // Patch headers say which files change whatever the tool is called.
            patchedPaths.clear();
            collectPatchedFiles(record.input, patchedPaths);
            noteInputDirectories(record.input, namedDirectories);
            const command =
              typeof record.input === 'object' && record.input !== null
                ? commandLine(record.input as Record<string, unknown>)
                : undefined;
            // After `cd packages/api &&`, the command's other paths and its output's are named
            // from there.
            const relativeBase = command === undefined ? undefined : enteredRelativeIn(command);
            if (relativeBase !== undefined) {
              enteredDirectories.set(call, relativeBase);
              rebase(inputPaths, relativeBase);
              rebase(writtenPaths, relativeBase);
            }
            notePaths(inputPaths.items, index, false, false, inputPaths.length);
            notePaths(
              writtenPaths.items,
              index,
              writingTool.test(name),
              !writingTool.test(name),
              writtenPaths.length,
            );
            markPaths(patchedPaths.items, index, 'written', patchedPaths.length);
            // `cd /repo && make`, `bash -lc 'cd /repo; pytest'`: the shell's working directory.
            const entered = command === undefined ? null : enteredDirectoryIn(command);
            if (entered !== null) namedDirectories.push(entered);
            if (command !== undefined && command.length <= 20_000) {
              // A shell writes and prints files with no path argument to say so.
              const effects = shellFileEffects(command);
              const named = (paths: string[]) =>
                relativeBase === undefined
                  ? paths
                  : paths.map((path) => underEntered(relativeBase, path));
              markPaths(named(effects.written.flatMap(extractPaths)), index, 'written');
              markPaths(named(effects.read.flatMap(extractPaths)), index, 'read');
            }
            break;
          }
          case 'tool-result': {
            if (typeof record.toolName !== 'string')
              fail(`${partPath(index, partIndex)}.toolName`, 'expected a string');
            if (typeof record.toolCallId !== 'string')
              fail(`${partPath(index, partIndex)}.toolCallId`, 'expected a string');
            const output = stringifyOutput(record.output, index, partIndex);
            const call = callsById.get(record.toolCallId);
            // A file a reading tool returned is content: its `logger.error(...)` lines are code.
            // Many agents report a failed read as plain text (`Error: file not found`,
            // `<tool_use_error>…`): an output that opens with such a line is a failure.
            const reading =
              !output.failed && !output.denied && readingTool.test(call?.name ?? record.toolName);
            const readFailed = reading && opensWithFailure(output.text);
            const readContent = reading && !readFailed;
            const { outcome, exit, exitCode } = resultOutcome(output, redactText);
            // Only an exit status the output states counts as success; silence proves nothing.
            const succeeded =
              outcome === 'ok' &&
              (output.exitCode === 0 || (output.exitCode === undefined && exit !== null));
            const runFailed = output.failed || readFailed || exitCode !== 0;
            const searchWords = searchPatternWords(
              call?.name ?? record.toolName,
              call?.target ?? '',
            );
            const errorLines = readContent
              ? []
              : rawErrorLines(output.text, {
                  status: runFailed ? 'failed' : succeeded ? 'succeeded' : 'unknown',
                  searchWords,
                });
            if (!readContent && (output.failed || exitCode !== 0)) {
              for (const line of positionedDiagnosticLines(output.text, searchWords)) {
                if (!errorLines.includes(line)) errorLines.push(line);
              }
            }
            // A failed run that printed one line besides its status, with no error word in it,
            // said why it failed in that line.
            if (
              !readContent &&
              !output.failed &&
              exitCode !== 0 &&
              !errorLines.some(namesFailure)
            ) {
              const stated = onlyStatedLine(output.text);
              if (stated !== undefined) errorLines.unshift(stated);
            }
            if (output.failed || readFailed) {
              const first = (/\S[^\n]*/.exec(output.errorText ?? output.text)?.[0] ?? '')
                .slice(0, 4000)
                .replace(/\s+/g, ' ')
                .trim();
              if (first !== '' && !errorLines.includes(first)) errorLines.unshift(first);
            }
            const printed = findPaths(output.text);
            const base = call === undefined ? undefined : enteredDirectories.get(call);
            notePaths(
              base === undefined ? printed : printed.map((path) => underEntered(base, path)),
              index,
            );
            // What `pwd` printed is the working directory.
            if (call !== undefined && printsDirectory.test(call.target)) {
              const printed = output.text.trim();
              if (rootedLine.test(printed)) namedDirectories.push(printed);
            }
            if (call) {
              resultIndexes.set(call, index);
              call.outcome = outcome;
              call.failed = output.failed || exitCode !== 0;
            }
            // Error lines in an output that did not state its success (no exit status, no flag:
            // a harness that returns stdout and nothing else) say the run failed: it fixes no
            // earlier failure of the same command.
            if (call && errorLines.length > 0 && !succeeded) reportedErrors.add(call);
            noteErrors(errorLines, index, output.failed, call, succeeded, runFailed);
            break;
          }
          default:
            // Approval requests/responses and custom parts carry no history worth a line.
            break;
        }
      }
    } else {
      fail(`${messagePath(index)}.content`, 'expected a string or an array of parts');
    }
    const text = joinedText ?? '';
    if (text.trim() !== '') {
      notePaths(findPaths(text), index);
      if (role === 'system' || role === 'user') noteDirectories(text);
    }
    if (role === 'user' && text.trim() !== '') {
      const redacted = redact(text.trim());
      const ask: AskFact = { text: redacted, key: itemKey(redacted), index };
      asks.delete(ask.key);
      asks.set(ask.key, ask);
      latestAsk = ask;
    }
  }

  const targets = new Map<ToolCallFact, CallTarget>();
  // The last successful call per target key. A failure is resolved when such a call came after it,
  // and the last one does whenever any does (calls are in window order): one pass over the calls
  // and one look-up per key of each failing call, where comparing every pair was quadratic.
  // Only keys a failing source looks up are ever read, and every key holds its call's kind: the
  // keys of a successful call of a kind no error came from are not built (most calls of a long
  // window, and all of them in a window without errors).
  const sourceKinds = new Set<string>();
  for (const sources of errorSources.values()) {
    for (const source of sources) if (source !== undefined) sourceKinds.add(callKind(source));
  }
  const lastSuccess = new Map<string, ToolCallFact>();
  if (sourceKinds.size > 0) {
    for (const call of toolCalls) {
      if (call.outcome !== 'ok' || call.failed || reportedErrors.has(call)) continue;
      if (!sourceKinds.has(callKind(call))) continue;
      for (const key of targetKeys(callTarget(call, targets))) lastSuccess.set(key, call);
    }
  }
  for (const error of errors.values()) {
    const sources = errorSources.get(error.line);
    error.resolved =
      sources !== undefined &&
      sources.size > 0 &&
      [...sources].every(
        (source) =>
          source !== undefined &&
          targetKeys(callTarget(source, targets), true).some((key) => {
            const later = lastSuccess.get(key);
            return (
              later !== undefined &&
              later.ordinal > source.ordinal &&
              later.index > (resultIndexes.get(source) ?? error.lastIndex)
            );
          }),
      );
  }

  const toolCountMap = new Map<string, number>();
  for (const call of toolCalls) toolCountMap.set(call.name, (toolCountMap.get(call.name) ?? 0) + 1);
  const toolCounts = [...toolCountMap].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));

  return {
    messageCount: messages.length,
    roleCounts,
    asks: [...asks.values()].sort((a, b) => a.index - b.index),
    latestAsk,
    toolCalls,
    toolCounts,
    files: readFlagged(normalizeFiles([...files.values()], namedDirectories)),
    errors: [...errors.values()],
    turns: lastTurns(messages, redactText),
  };
}

/** `files` with `read` set on each (false when absent); they are `normalizeFiles`' own copies. */
function readFlagged(files: RawFileFact[]): FileFact[] {
  for (let at = 0; at < files.length; at++) files[at]!.read = files[at]!.read === true;
  return files as FileFact[];
}

/**
 * The last `lastTurnCount` turns, read back from the end of the window: only they are ever shown,
 * and redacting the whole window (or keeping a closure per message to do it later) would cost time
 * and memory for nothing.
 */
function lastTurns(
  messages: readonly ModelMessage[],
  redactText: (text: string) => string,
): TurnFact[] {
  const turns: TurnFact[] = [];
  for (let index = messages.length - 1; index >= 0 && turns.length < lastTurnCount; index--) {
    const message = messages[index]!;
    const text = turnText(message, redactText);
    if (text !== undefined) turns.push({ role: message.role, index, text });
  }
  return turns.reverse();
}
