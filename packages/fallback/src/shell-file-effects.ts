/**
 * What a shell command line does to files, read from its words: the files it writes (`> x`,
 * `>> x`, `tee x`, `sed -i … x`, `perl -pi … x`) and the files it prints (`cat x`, `head x`,
 * `sed -n … x`). Agents that work through a shell edit and read files this way, with no path
 * argument to say so. Not part of the public API.
 */

export interface ShellFileEffects {
  /** Path words of files the command writes, as written in the command. */
  written: string[];
  /** Path words of files the command prints. */
  read: string[];
}

// `<<'EOF' … EOF`: the body is file content, not commands; the rest of its first line stays.
const heredocOpener = /<<-?\s*(['"]?)(\w+)\1([^\n]*)\n/g;
// A line that can close a heredoc: its marker alone after any indentation.
const closingLine = /^\s*(\w+)$/;
// `> x`, `>> x`, `2> x`, `&> x`; not `2>&1`, `<`, `=>` or `->`.
const redirection = /(?:^|[^<>&=-])(?:\d|&)?>>?\s*([^\s;&|<>()]+)/g;
const printers = /^(?:cat|head|tail|less|more|nl|bat|batcat)$/;
const wrappers = /^(?:sudo|command|exec|time|nohup|xargs)$/;

const unquote = (text: string) => text.replace(/^(['"])([\s\S]*)\1$/, '$2');

/**
 * Drops heredoc bodies, keeping the rest of each opener's line. Each opener takes the first line
 * after it that holds its marker alone; an opener with none is left as text. The closing lines are
 * indexed once, so a command of many unclosed openers (`<<A1 <<A2 …`) costs one pass, not one
 * pass per opener as a lazy `[\s\S]*?` search for each did.
 */
function withoutHeredocs(command: string): string {
  const closings = new Map<string, number[]>();
  for (let start = command.indexOf('\n'); start !== -1; ) {
    const next = command.indexOf('\n', start + 1);
    const line = command.slice(start + 1, next === -1 ? command.length : next);
    const marker = closingLine.exec(line)?.[1];
    if (marker !== undefined) {
      const at = closings.get(marker);
      if (at === undefined) closings.set(marker, [start]);
      else at.push(start);
    }
    start = next;
  }
  // Openers come in order, so each marker's list is read from where the last opener left it.
  const cursors = new Map<string, number>();
  let out = '';
  let kept = 0;
  heredocOpener.lastIndex = 0;
  for (let match = heredocOpener.exec(command); match; match = heredocOpener.exec(command)) {
    const marker = match[2]!;
    const lineEnd = heredocOpener.lastIndex - 1;
    const at = closings.get(marker) ?? [];
    let cursor = cursors.get(marker) ?? 0;
    // The body holds at least its own line end: a closing line's newline comes after the opener's.
    while (cursor < at.length && at[cursor]! <= lineEnd) cursor++;
    cursors.set(marker, cursor);
    if (cursor === at.length) {
      heredocOpener.lastIndex = match.index + 1;
      continue;
    }
    const closing = at[cursor]!;
    const closingEnd = command.indexOf(marker, closing) + marker.length;
    out += command.slice(kept, match.index) + match[3]!;
    kept = closingEnd;
    heredocOpener.lastIndex = closingEnd;
  }
  return out + command.slice(kept);
}

/**
 * The words of a segment: quoted strings and runs of other characters. A quote with no closing
 * quote is skipped as one character; once one `"` (or `'`) has none, no later one has, so the
 * search for a closing quote runs at most once to the end (a regex retried it at every quote).
 */
function segmentWords(segment: string): string[] {
  const words: string[] = [];
  let unclosedSingle = false;
  let unclosedDouble = false;
  let index = 0;
  while (index < segment.length) {
    const character = segment[index]!;
    if (/\s/.test(character)) {
      index++;
    } else if (character === "'") {
      const close = unclosedSingle ? -1 : segment.indexOf("'", index + 1);
      if (close === -1) {
        unclosedSingle = true;
        index++;
      } else {
        words.push(segment.slice(index, close + 1));
        index = close + 1;
      }
    } else if (character === '"') {
      let close = -1;
      if (!unclosedDouble) {
        for (let at = index + 1; at < segment.length; at++) {
          if (segment[at] === '\\') at++;
          else if (segment[at] === '"') {
            close = at;
            break;
          }
        }
      }
      if (close === -1) {
        unclosedDouble = true;
        index++;
      } else {
        words.push(segment.slice(index, close + 1));
        index = close + 1;
      }
    } else {
      const start = index;
      while (index < segment.length && !/[\s'"]/.test(segment[index]!)) index++;
      words.push(segment.slice(start, index));
    }
  }
  return words;
}

/** The words of one command (quotes removed), without environment assignments and wrappers. */
function commandWords(segment: string): string[] {
  const words = segmentWords(segment).map(unquote);
  while (words.length > 0 && (/^[A-Za-z_]\w*=/.test(words[0]!) || wrappers.test(words[0]!))) {
    words.shift();
  }
  return words;
}

export function shellFileEffects(command: string): ShellFileEffects {
  const written: string[] = [];
  const read: string[] = [];
  const text = withoutHeredocs(command);
  for (const segment of text.split(/&&|\|\||[;|\n]/)) {
    for (const match of segment.matchAll(redirection)) {
      const target = unquote(match[1]!);
      if (!target.startsWith('/dev/')) written.push(target);
    }
    const words = commandWords(segment.replace(redirection, ' '));
    const program = words[0]?.replace(/^.*\//, '');
    if (program === undefined) continue;
    const operands: string[] = [];
    let inPlace = false;
    let script = false;
    for (let index = 1; index < words.length; index++) {
      const current = words[index]!;
      if (current.startsWith('-')) {
        if (/^-[a-zA-Z]*i/.test(current) || current.startsWith('--in-place')) inPlace = true;
        // `-e script`: the script is not a file.
        if (/^-[a-zA-Z]*e$/.test(current)) {
          index++;
          script = true;
        }
        // `-n 20`: a count, not a file (only numbers are skipped, as the flag may take none).
        if (/^\d+$/.test(words[index + 1] ?? '')) index++;
        continue;
      }
      operands.push(current);
    }
    // Loops, not `push(...operands)`: a command naming 130k files would overflow the stack.
    let into: string[] | undefined;
    let first = 0;
    if (program === 'tee') into = written;
    else if (printers.test(program)) into = read;
    else if (program === 'sed' || program === 'perl') {
      into = inPlace ? written : read;
      // The first operand is the script unless `-e` gave it.
      first = script ? 0 : 1;
    }
    if (into !== undefined)
      for (let index = first; index < operands.length; index++) into.push(operands[index]!);
  }
  return { written, read };
}
