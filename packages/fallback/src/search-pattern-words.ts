// A search program that a shell line runs as a command of its own (`rg -n TODO src && make`, `git
// grep foo`, `Select-String`), and its arguments up to the next command. One fed by a pipe (`make
// 2>&1 | grep error`) filters the other program's lines: those are its diagnostics, not hits.
const searchCommand =
  /(?:^|&&|\|\||;|\(|["'])\s*(rg|grep|egrep|fgrep|ag|ack|git\s+grep|findstr|select-string|sls)\s+([^\n;&|]{0,400})/gi;
// Tools that are a search themselves (`Grep`, `grep_search`, `codebase_search`, `search_files`,
// `mcp__search__ripgrep`): every line of their output is a line of a file. An editing tool named
// for what it does (`search_replace`) is none.
const searchTool = /grep|ripgrep|(?:^|[_-])(?:rg|search)$|^search[_-]?(?:files?|code|text)?$/i;
// Regex escapes (`\s`, `\b`, `\.`) are no letters of the pattern.
const regexEscape = /\\./g;
const maxWords = 16;

/**
 * How a program whose arguments are read as grep reads them: the short and long options that take
 * a value (`-g '*.ts'`, `--max-count 5`), which is then neither pattern nor path.
 */
interface OptionTable {
  shortValued: string;
  longValued: ReadonlySet<string>;
}

// ripgrep: `rg [OPTIONS] PATTERN [PATH...]`, `rg [OPTIONS] -e PATTERN... [PATH...]`.
const ripgrep: OptionTable = {
  shortValued: 'ABCEMTdefgjmrt',
  longValued: new Set([
    'after-context',
    'before-context',
    'color',
    'colors',
    'context',
    'context-separator',
    'dfa-size-limit',
    'encoding',
    'engine',
    'field-context-separator',
    'field-match-separator',
    'file',
    'generate',
    'glob',
    'hyperlink-format',
    'iglob',
    'ignore-file',
    'max-columns',
    'max-count',
    'max-depth',
    'max-filesize',
    'path-separator',
    'pre',
    'pre-glob',
    'regex-size-limit',
    'regexp',
    'replace',
    'sort',
    'sortr',
    'threads',
    'type',
    'type-add',
    'type-clear',
    'type-not',
  ]),
};

// GNU/BSD grep and `git grep`. `--color[=WHEN]` takes its value only after `=`.
const grep: OptionTable = {
  shortValued: 'ABCDdefm',
  longValued: new Set([
    'after-context',
    'before-context',
    'binary-files',
    'context',
    'devices',
    'directories',
    'exclude',
    'exclude-dir',
    'exclude-from',
    'file',
    'group-separator',
    'include',
    'label',
    'max-count',
    'max-depth',
    'regexp',
    'threads',
  ]),
};

// Options that list files instead of searching: such a call has no pattern.
const listsFiles = new Set(['--files', '--type-list']);

/**
 * Arguments of a command line as a shell splits them, quotes removed (unclosed: to the end), less
 * the shell's redirections (`2>/dev/null`, `> out.txt`, `2>&1`). Only an unquoted `<`/`>` redirects:
 * a quoted pattern may open with one (`rg '<Button'`, `grep '<<<<<<< HEAD'`).
 */
function shellWords(text: string): string[] {
  const words: string[] = [];
  const word = /(?:[^\s"']|"[^"]*"?|'[^']*'?)+/g;
  let target = false;
  for (let match = word.exec(text); match; match = word.exec(text)) {
    const raw = match[0];
    // A redirection's target is the next word when the operator stands alone (`2> /dev/null`).
    if (target) {
      target = false;
      continue;
    }
    if (redirection.test(raw)) {
      target = redirectionAlone.test(raw);
      continue;
    }
    words.push(raw.replaceAll(/"([^"]*)"?|'([^']*)'?/g, (_, d, s) => d ?? s ?? ''));
  }
  return words;
}
const redirection = /^\d*[<>]/;
const redirectionAlone = /^\d*[<>]+&?$/;

/**
 * The patterns a grep-like call searches for, read as the program reads its arguments: the first
 * operand, unless `-e`/`--regexp` named them (then every operand is a path). Undefined when a
 * pattern is in a file (`-f FILE`) or the call lists files: its words are unknown.
 */
function grepPatterns(args: string[], table: OptionTable): string[] | undefined {
  const given: string[] = [];
  const operands: string[] = [];
  let fromFile = false;
  let options = true;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (!options || arg === '-' || !arg.startsWith('-')) {
      operands.push(arg);
      continue;
    }
    if (arg === '--') {
      options = false;
      continue;
    }
    if (arg.startsWith('--')) {
      if (listsFiles.has(arg)) return undefined;
      const equals = arg.indexOf('=');
      const name = arg.slice(2, equals === -1 ? undefined : equals);
      if (!table.longValued.has(name)) continue;
      const value = equals === -1 ? args[++index] : arg.slice(equals + 1);
      if (name === 'regexp' && value !== undefined) given.push(value);
      if (name === 'file') fromFile = true;
      continue;
    }
    // A cluster of short options (`-nA3`, `-ie foo`): the first that takes a value takes the rest
    // of the cluster, or the next argument.
    for (let at = 1; at < arg.length; at++) {
      const flag = arg[at]!;
      if (!table.shortValued.includes(flag)) continue;
      const value = at + 1 < arg.length ? arg.slice(at + 1) : args[++index];
      if (flag === 'e' && value !== undefined) given.push(value);
      if (flag === 'f') fromFile = true;
      break;
    }
  }
  if (fromFile) return undefined;
  if (given.length > 0) return given;
  return operands.length > 0 ? [operands[0]!] : undefined;
}

/** The arguments of a program read some other way: every one but its options, as before. */
function otherPatterns(args: string[]): string[] {
  return args.filter((arg) => arg !== '' && !arg.startsWith('-'));
}

/**
 * What a call searched for, as lower-case word runs of 3+ characters of its pattern: a line of its
 * output that holds one is a hit of the search, not a diagnostic. For rg, grep and git grep only
 * the pattern counts (a path searched in, `src`, is no word of it); for other programs every
 * argument but options does. `all` when the tool is a search itself (its whole output is hits);
 * undefined when the call ran no search or its pattern is unknown (`-f FILE`).
 */
export function searchPatternWords(toolName: string, target: string): string[] | 'all' | undefined {
  if (searchTool.test(toolName)) return 'all';
  let words: string[] | undefined;
  searchCommand.lastIndex = 0;
  for (let match = searchCommand.exec(target); match; match = searchCommand.exec(target)) {
    const program = match[1]!.toLowerCase().replaceAll(/\s+/g, ' ');
    const args = shellWords(match[2]!);
    const table =
      program === 'rg' ? ripgrep : /^(?:e|f)?grep$|^git grep$/.test(program) ? grep : undefined;
    const patterns = table ? grepPatterns(args, table) : otherPatterns(args);
    for (const pattern of patterns ?? []) {
      for (const run of pattern.replace(regexEscape, ' ').split(/[^\p{L}\p{N}_]+/u)) {
        if (run.length < 3) continue;
        words ??= [];
        if (words.length < maxWords) words.push(run.toLowerCase());
      }
    }
  }
  return words;
}

/** Whether `message` (what follows a file position) holds one of a search's `words`. */
export function isSearchHit(message: string, words: string[] | 'all' | undefined): boolean {
  if (words === undefined) return false;
  if (words === 'all') return true;
  const lower = message.toLowerCase();
  return words.some((word) => lower.includes(word));
}
