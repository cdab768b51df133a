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
