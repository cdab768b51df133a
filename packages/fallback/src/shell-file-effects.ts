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
const heredoc = /<<-?\s*(['"]?)(\w+)\1([^\n]*)\n[\s\S]*?\n\s*\2(?=\n|$)/g;
// `> x`, `>> x`, `2> x`, `&> x`; not `2>&1`, `<`, `=>` or `->`.
const redirection = /(?:^|[^<>&=-])(?:\d|&)?>>?\s*([^\s;&|<>()]+)/g;
const word = /'[^']*'|"(?:\\.|[^"\\])*"|[^\s'"]+/g;
const printers = /^(?:cat|head|tail|less|more|nl|bat|batcat)$/;
const wrappers = /^(?:sudo|command|exec|time|nohup|xargs)$/;

const unquote = (text: string) => text.replace(/^(['"])([\s\S]*)\1$/, '$2');

/** The words of one command (quotes removed), without environment assignments and wrappers. */
function commandWords(segment: string): string[] {
  const words = (segment.match(word) ?? []).map(unquote);
  while (words.length > 0 && (/^[A-Za-z_]\w*=/.test(words[0]!) || wrappers.test(words[0]!))) {
    words.shift();
  }
  return words;
}

export function shellFileEffects(command: string): ShellFileEffects {
  const written: string[] = [];
  const read: string[] = [];
  const text = command.replace(heredoc, '$3');
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
    if (program === 'tee') written.push(...operands);
    else if (printers.test(program)) read.push(...operands);
    else if (program === 'sed' || program === 'perl') {
      // The first operand is the script unless `-e` gave it.
      const files = script ? operands : operands.slice(1);
      (inPlace ? written : read).push(...files);
    }
  }
  return { written, read };
}
