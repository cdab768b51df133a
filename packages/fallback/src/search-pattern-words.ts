// A search program that a shell line runs as a command of its own (`rg -n TODO src && make`, `git
// grep foo`, `Select-String`), and its arguments up to the next command. One fed by a pipe (`make
// 2>&1 | grep error`) filters the other program's lines: those are its diagnostics, not hits.
const searchCommand =
  /(?:^|&&|\|\||;|\(|["'])\s*(?:rg|grep|egrep|fgrep|ag|ack|git\s+grep|findstr|select-string|sls)\s+([^\n;&|]{0,400})/gi;
// Tools that are a search themselves (`Grep`, `grep_search`, `codebase_search`, `search_files`,
// `mcp__search__ripgrep`): every line of their output is a line of a file. An editing tool named
// for what it does (`search_replace`) is none.
const searchTool = /grep|ripgrep|(?:^|[_-])(?:rg|search)$|^search[_-]?(?:files?|code|text)?$/i;
// Regex escapes (`\s`, `\b`, `\.`) are no letters of the pattern.
const regexEscape = /\\./g;
const maxWords = 16;

/**
 * What a call searched for, as lower-case word runs of 3+ characters of its pattern (and other
 * arguments): a line of its output that holds one is a hit of the search, not a diagnostic. `all`
 * when the tool is a search itself (its whole output is hits); undefined when the call ran no search.
 */
export function searchPatternWords(toolName: string, target: string): string[] | 'all' | undefined {
  if (searchTool.test(toolName)) return 'all';
  let words: string[] | undefined;
  searchCommand.lastIndex = 0;
  for (let match = searchCommand.exec(target); match; match = searchCommand.exec(target)) {
    for (const token of match[1]!.split(/\s+/)) {
      // Options (`-n`, `--vimgrep`) say how, not what.
      if (token === '' || token.startsWith('-')) continue;
      for (const run of token.replace(regexEscape, ' ').split(/[^\p{L}\p{N}_]+/u)) {
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
