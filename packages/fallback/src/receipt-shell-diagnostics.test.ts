import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createTokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, extractHandoffFacts } from './index.js';

// Failures printed by shells and tools the dev corpus does not hold: cmd's and PowerShell's own
// error messages, and compiler diagnostics that name no severity (Go's `x.go:3:5: undefined: y`).
const counter = createTokenCounter({ encoding: 'o200k_base' });

function run(command: string, output: string, id: string): ModelMessage[] {
  return [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: 'shell', input: { command } }],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: 'shell',
          output: { type: 'text', value: output },
        },
      ],
    },
  ];
}

function errorLines(messages: ModelMessage[]): string[] {
  return extractHandoffFacts([{ role: 'user', content: 'fix the build' }, ...messages]).errors.map(
    (error) => error.line,
  );
}

const name = fc.noBias(fc.stringMatching(/^[a-z]{3,10}$/));

describe('error lines of other shells and compilers', () => {
  it("takes cmd's unknown-program message, though it ends with a comma like code", () => {
    fc.assert(
      fc.property(name, (program) => {
        const line = `'${program}' is not recognized as an internal or external command,`;
        const lines = errorLines(
          run(`${program} build`, `${line}\noperable program or batch file.\nExit code: 1`, 'c1'),
        );
        expect(lines).toContain(line);
      }),
    );
  });

  it("takes PowerShell's error record in both spellings, not a header named like a cmdlet", () => {
    fc.assert(
      fc.property(
        name,
        fc.constantFrom('Get-Content', 'Import-Module', 'Invoke-WebRequest', 'Remove-Item'),
        fc.boolean(),
        (word, cmdlet, spaced) => {
          const line = `${cmdlet}${spaced ? ' :' : ':'} Cannot find path 'C:\\repo\\${word}.json' because it does not exist.`;
          const output = `${line}\nAt C:\\repo\\scripts\\build.ps1:12 char:1\n+ ${cmdlet} $${word}\nExit code: 1`;
          expect(errorLines(run('.\\scripts\\build.ps1', output, 'p1'))).toContain(line);
          // Control: response headers of a failed request; `Set` is a cmdlet verb, yet this is no
          // error record (no sentence).
          const headers = `HTTP/1.1 500 Internal Server Error\nSet-Cookie: ${word}=a3; Path=/; HttpOnly\nExit code: 22`;
          expect(errorLines(run('curl -i https://x.test', headers, 'h1'))).not.toContain(
            `Set-Cookie: ${word}=a3; Path=/; HttpOnly`,
          );
        },
      ),
    );
  });

  it('takes a diagnostic without a severity word from a failed run only, not from a search', () => {
    fc.assert(
      fc.property(name, name, fc.integer({ min: 1, max: 999 }), (dir, symbol, at) => {
        const line = `./pkg/${dir}/${dir}.go:${at}:5: undefined: ${symbol}`;
        const failed = errorLines(
          run('go build ./...', `# example.com/app/pkg/${dir}\n${line}\nexit status 1`, 'g1'),
        );
        expect(failed).toContain(line);
        // Control: the same shape printed by a search that succeeded is a hit, not a failure.
        const searched = errorLines(run(`rg --vimgrep ${symbol}`, `${line}\nexit status 0`, 's1'));
        expect(searched).not.toContain(line);
      }),
    );
  });
});

describe('error fields that hold nothing', () => {
  it("are not error lines (Gemini CLI's `Error: (none)`); a field that holds a message is", () => {
    fc.assert(
      fc.property(
        fc.constantFrom('Error', 'error', 'Stderr', 'errors', '"error"'),
        fc.constantFrom('(none)', 'null', 'None', '(empty)', '[]', '""'),
        fc.boolean(),
        name,
        (label, empty, equals, word) => {
          const separator = equals ? '=' : ': ';
          const output = `Command: make ${word}\nStdout: built ${word}\n${label}${separator}${empty}\nExit Code: 0`;
          expect(errorLines(run(`make ${word}`, output, 'e1'))).not.toContain(
            `${label}${separator}${empty}`,
          );
          // Control: an error field holding a message.
          const failing = `Command: make ${word}\nError: ${word} not found\nExit Code: 2`;
          expect(errorLines(run(`make ${word}`, failing, 'e2'))).toContain(
            `Error: ${word} not found`,
          );
        },
      ),
    );
  });
});

describe('run summaries beside the failure they count', () => {
  it('are marked accompanied only when their output also said what failed', () => {
    const messages = [
      ...run(
        'pytest',
        'FAILED tests/test_a.py::test_one - assert 1 == 2\n=== 1 failed, 3 passed in 0.20s ===\nexit status 1',
        'a',
      ),
      ...run('make', 'BUILD FAILED in 3s\nexit status 2', 'b'),
    ];
    const facts = extractHandoffFacts([{ role: 'user', content: 'go' }, ...messages]);
    const byLine = new Map(facts.errors.map((error) => [error.line, error]));
    expect(byLine.get('=== 1 failed, 3 passed in 0.20s ===')?.accompanied).toBe(true);
    expect(byLine.get('FAILED tests/test_a.py::test_one - assert 1 == 2')?.accompanied).toBe(false);
    // Control: a verdict that is all its output said stays a line of its own.
    expect(byLine.get('BUILD FAILED in 3s')?.accompanied).toBe(false);
  });

  it('give way to the failures themselves when the budget is short', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.noBias(fc.stringMatching(/^[a-z]{4,9}$/)), {
          minLength: 24,
          maxLength: 40,
        }),
        (names) => {
          const messages: ModelMessage[] = [{ role: 'user', content: 'make the tests pass' }];
          names.forEach((test, at) => {
            messages.push(
              ...run(
                `pytest tests/test_${test}.py`,
                `FAILED tests/test_${test}.py::test_${test} - assert ${at} == ${at + 1}\n=== 1 failed, ${at + 2} passed in 0.${at + 10}s ===\nexit status 1`,
                `t${at}`,
              ),
            );
          });
          const text = createReceipt(messages, { maxTokens: 1000, counter }).text;
          const headlinesShown = names.filter((test) => text.includes(`::test_${test} - assert`));
          const summariesShown = names.filter((_test, at) =>
            text.includes(`=== 1 failed, ${at + 2} passed`),
          );
          // Premise: the budget holds some of the failures, not all.
          expect(headlinesShown.length).toBeGreaterThan(0);
          expect(headlinesShown.length).toBeLessThan(names.length);
          // A short summary may still fill the room a longer failure line did not fit in.
          expect(summariesShown.length).toBeLessThanOrEqual(2);
        },
      ),
      { numRuns: 20 },
    );
  });
});

// Which lines of a run's output are its failure depends on the run: an exception whose message was
// a language's nothing is the headline of a failed run, a cmdlet listing or a quoted message in a
// successful one is no error, and a search's hits are lines of files even when a later command of
// the same shell line failed.
const word = fc.noBias(fc.stringMatching(/^[a-z]{3,10}$/));
const capitalised = word.map((text) => text[0]!.toUpperCase() + text.slice(1));
const sentence = fc
  .array(word, { minLength: 3, maxLength: 9 })
  .map((words) => `${words.join(' ')}.`);

describe('the headline of a failed run whose message is a nothing', () => {
  it('is kept when the run failed, dropped as an empty field when it stated success', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          ['Error', 'undefined'],
          ['Error', 'null'],
          ['Exception', 'None'],
          ['Exception', 'null'],
        ),
        word,
        fc.integer({ min: 1, max: 255 }),
        ([label, nothing], file, code) => {
          const headline = `${label}: ${nothing}`;
          const failed = `${headline}\n    at Object.<anonymous> (/app/${file}.js:1:7)\nExit code: ${code}`;
          expect(errorLines(run(`node ${file}.js`, failed, 'f'))).toContain(headline);
          // Control: the same words as a field of a run that stated exit status 0.
          const fields = `Command: node ${file}.js\nStdout: ok\n${headline}\nExit Code: 0`;
          expect(errorLines(run(`node ${file}.js`, fields, 's'))).not.toContain(headline);
        },
      ),
    );
  });

  it("keeps Gemini CLI's `(none)` field an empty field in a failed run too", () => {
    fc.assert(
      fc.property(word, fc.integer({ min: 1, max: 255 }), (file, code) => {
        const output = `Command: make ${file}\nStdout: (empty)\nStderr: make: *** [${file}] Error ${code}\nError: (none)\nExit Code: ${code}`;
        const lines = errorLines(run(`make ${file}`, output, 'g'));
        expect(lines).not.toContain('Error: (none)');
        expect(lines).toContain(`Stderr: make: *** [${file}] Error ${code}`);
      }),
    );
  });
});

describe("PowerShell's error record", () => {
  const verb = fc.constantFrom('Get', 'Set', 'Remove', 'Invoke', 'Import', 'Write', 'New');
  const cmdlet = fc.tuple(verb, capitalised).map(([v, noun]) => `${v}-${noun}`);

  it('is not a cmdlet listed with its description in a successful output', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(cmdlet, sentence), {
          minLength: 1,
          maxLength: 6,
          selector: ([name]) => name,
        }),
        fc.boolean(),
        (entries, spaced) => {
          const listing = entries.map(
            ([name, text]) =>
              `${name}${spaced ? ' :' : ':'} ${text[0]!.toUpperCase()}${text.slice(1)}`,
          );
          const lines = errorLines(
            run('Get-Command | Format-List', `${listing.join('\n')}\nExit code: 0`, 'l'),
          );
          for (const line of listing) expect(lines).not.toContain(line);
        },
      ),
    );
  });

  it('is an error line with its context, or in a failed run', () => {
    fc.assert(
      fc.property(cmdlet, sentence, word, fc.boolean(), (name, text, file, withContext) => {
        const record = `${name} : ${text[0]!.toUpperCase()}${text.slice(1)}`;
        const context = withContext
          ? `\nAt C:\\repo\\${file}.ps1:3 char:1\n+ ${name}\n    + CategoryInfo          : NotSpecified: (:) [${name}], Exception\n    + FullyQualifiedErrorId : ${file}`
          : '';
        // With its context the record counts whatever the status; without, only a failure does.
        const status = withContext ? 'Exit code: 0' : 'Exit code: 1';
        expect(errorLines(run(`.\\${file}.ps1`, `${record}${context}\n${status}`, 'r'))).toContain(
          record,
        );
      }),
    );
  });
});

describe("cmd's message about a missing program", () => {
  it('is an error line as cmd prints it, not quoted inside a sentence', () => {
    fc.assert(
      fc.property(word, sentence, sentence, (program, before, after) => {
        const message = `'${program}' is not recognized as an internal or external command,`;
        const printed = `${message}\noperable program or batch file.\nExit code: 1`;
        expect(errorLines(run(`${program} build`, printed, 'c'))).toContain(message);
        const prose = `${before.slice(0, -1)} if ${message} ${after}\nExit code: 0`;
        expect(errorLines(run('type README.md', prose, 'p'))).toEqual([]);
      }),
    );
  });
});

describe('positioned lines of a failed shell line that searched', () => {
  const position = fc.tuple(
    fc.constantFrom('src', 'lib', 'pkg/app', 'internal'),
    word,
    fc.constantFrom('ts', 'go', 'py', 'rs'),
    fc.integer({ min: 1, max: 999 }),
    fc.integer({ min: 1, max: 80 }),
  );

  it("are the search's hits when they hold what it searched for; the build's diagnostics stay", () => {
    fc.assert(
      fc.property(
        word,
        fc.array(
          fc.tuple(position, fc.array(word, { maxLength: 5 }), fc.array(word, { maxLength: 5 })),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        position,
        fc.constantFrom('undefined', 'declared and not used'),
        fc.boolean(),
        fc.boolean(),
        (pattern, hits, [dir, file, ext, line, column], message, vimgrep, upper) => {
          fc.pre(!message.includes(pattern) && !file.includes(pattern));
          const hitLines = hits.map(
            ([[hDir, hFile, hExt, hLine, hColumn], before, after]) =>
              `${hDir}/${hFile}.${hExt}:${hLine}:${hColumn}: ${[...before, upper ? pattern.toUpperCase() : pattern, ...after].join(' ')}`,
          );
          const diagnostic = `./${dir}/${file}.${ext}:${line}:${column}: ${message}: ${file}`;
          const output = `${hitLines.join('\n')}\n${diagnostic}\nExit code: 2`;
          const search = vimgrep ? `rg --vimgrep ${pattern} src` : `grep -rn ${pattern} .`;
          const lines = errorLines(run(`${search} && go build ./...`, output, 'v'));
          for (const hit of hitLines) expect(lines).not.toContain(hit);
          expect(lines).toContain(diagnostic);
          // Control: a pipe into grep filters the build's own lines, which stay diagnostics.
          const filtered = errorLines(
            run(`go build ./... 2>&1 | grep ${file}`, `${diagnostic}\nExit code: 2`, 'w'),
          );
          expect(filtered).toContain(diagnostic);
        },
      ),
    );
  });

  // A search for markup or a conflict marker quotes a pattern that opens with `<` or `>`: that is no
  // redirection, and the lines it prints are its hits, not the build's diagnostics.
  it('are the hits of a quoted pattern that opens with `<` or `>`', () => {
    fc.assert(
      fc.property(
        word,
        position,
        position,
        fc.constantFrom('<', '</', '>', '<<<<<<< '),
        fc.constantFrom("'", '"'),
        fc.constantFrom('rg --vimgrep', 'grep -rn', 'git grep -n'),
        (pattern, [dir, file, ext, line, column], [bDir, bFile], opening, quote, search) => {
          // The build's line must not hold the pattern (then it reads as a hit, rightly).
          fc.pre(!`undefined: ${bFile}`.includes(pattern) && !file.includes(pattern));
          const hit = `${dir}/${file}.${ext}:${line}:${column}: ${opening}${pattern} undefined: x`;
          const diagnostic = `./${bDir}/${bFile}.go:3:5: undefined: ${bFile}`;
          const command = `${search} ${quote}${opening}${pattern}${quote} src && go build ./...`;
          const lines = errorLines(run(command, `${hit}\n${diagnostic}\nExit code: 2`, 'q'));
          expect(lines).not.toContain(hit);
          expect(lines).toContain(diagnostic);
        },
      ),
    );
  });

  it("are hits whatever they say when the tool is a search (`Grep`), a diagnostic's words or not", () => {
    fc.assert(
      fc.property(
        position,
        word,
        fc.constantFrom('Grep', 'grep_search', 'ripgrep'),
        ([dir, file, ext, line, column], text, tool) => {
          const hit = `${dir}/${file}.${ext}:${line}:${column}: TypeError: ${text}`;
          const facts = extractHandoffFacts([
            { role: 'user', content: 'find it' },
            {
              role: 'assistant',
              content: [
                {
                  type: 'tool-call',
                  toolCallId: 'g',
                  toolName: tool,
                  input: { pattern: 'TypeError' },
                },
              ],
            },
            {
              role: 'tool',
              content: [
                {
                  type: 'tool-result',
                  toolCallId: 'g',
                  toolName: tool,
                  output: { type: 'text', value: hit },
                },
              ],
            },
          ]);
          expect(facts.errors.map((error) => error.line)).not.toContain(hit);
          // Control: the same line printed by a test run is its failure.
          expect(errorLines(run('npm test', `${hit}\nExit code: 1`, 't'))).toContain(hit);
        },
      ),
    );
  });
});
