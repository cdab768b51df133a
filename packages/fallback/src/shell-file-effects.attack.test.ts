import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellFileEffects } from './shell-file-effects.js';

/**
 * Attack suite (reviewer): hostile command lines. Heredoc bodies were dropped with a lazy
 * `[\s\S]*?` search per opener and words read with a regex that rescanned to the end at every
 * unclosed quote: both quadratic (a 400,000-character command of `<<A1` openers took 26 s, of
 * escaped quotes 30 s; extractHandoffFacts reads commands up to 20,000 characters, about 150 ms
 * each, per call).
 */

// The command reader as it was (regex heredocs and words), for a differential check.
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

function oldShellFileEffects(command: string): { written: string[]; read: string[] } {
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

const fragment = fc.constantFrom(
  'cat ',
  'tee ',
  'sed -i ',
  "sed -n '1,20p' ",
  'head -n 20 ',
  'echo x ',
  '> out.txt ',
  '>> log.txt ',
  '2>&1 ',
  'src/a.ts ',
  '"my file.txt" ',
  "'q w' ",
  '\\" ',
  '" ',
  "' ",
  '; ',
  ' && ',
  ' | ',
  '\n',
  "<<'EOF'\n",
  '<<EOF\n',
  '<<-PY\n',
  '\nEOF\n',
  '\n  PY\n',
  'body line\n',
);

describe('attack: hostile shell commands', () => {
  it('reads the same files as the regex reader did (property)', () => {
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 40 }), (parts) => {
        const command = parts.join('');
        expect(shellFileEffects(command)).toEqual(oldShellFileEffects(command));
      }),
      { numRuns: 1000 },
    );
  });

  it('stays linear on unclosed heredocs and quotes (time at 100k vs 400k characters)', () => {
    const repeat = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length));
    const units = [
      (length: number) => repeat('cat <<A1\n', length),
      (length: number) =>
        Array.from({ length: Math.ceil(length / 8) }, (_, index) => `<<M${index}\nx`).join('\n'),
      (length: number) => `echo "${repeat('a \\" b ', length)}`,
      (length: number) => `echo '${repeat("a ' b '' ", length)}`,
    ];
    for (const unit of units) {
      const time = (length: number) => {
        const command = unit(length);
        const started = performance.now();
        shellFileEffects(command);
        return performance.now() - started;
      };
      time(100_000);
      // Quadratic, 400k took 16 times 100k (26 s); linear takes about 4 times (~0.1 s).
      const small = Math.min(time(100_000), time(100_000));
      const large = time(400_000);
      expect(large).toBeLessThan(Math.max(1000, small * 8));
    }
  });
});
