import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, extractHandoffFacts } from './index.js';
import { toolExchange as call } from './test-utils/tool-exchange.js';

const word = fc.noBias(fc.stringMatching(/^[a-z]{4,9}$/));
const exitWordings = [
  (code: number) => `Process exited with code ${code}`,
  (code: number) => `exit code ${code}`,
  (code: number) => `<exit_code>${code}</exit_code>`,
  (code: number) => `returncode=${code}`,
];

/** A log line that mentions an error the command got past, built from generated words. */
const loggedLine = (words: string[]) => `WARN retrying ${words.join(' ')} after a timeout`;
const failureLine = (words: string[]) => `Error: ${words.join(' ')} could not be built`;

describe('error lines of a command that exited 0', () => {
  it('are facts that say so, and give way to failures of calls that failed', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.array(word, { minLength: 3, maxLength: 5 }), {
          minLength: 30,
          maxLength: 45,
          selector: (words) => words.join(' '),
        }),
        fc.uniqueArray(fc.array(word, { minLength: 3, maxLength: 5 }), {
          minLength: 2,
          maxLength: 4,
          selector: (words) => words.join(' '),
        }),
        fc.integer({ min: 0, max: exitWordings.length - 1 }),
        fc.boolean(),
        (logged, failures, wording, failuresFirst) => {
          const exitLine = exitWordings[wording]!;
          const succeeded = call(
            'bash',
            { command: 'make deploy' },
            `${logged.map(loggedLine).join('\n')}\n${exitLine(0)}`,
          );
          const failed = call(
            'bash',
            { command: 'make build' },
            `${failures.map(failureLine).join('\n')}\n${exitLine(2)}`,
          );
          const window = [
            { role: 'user' as const, content: 'ship it' },
            ...(failuresFirst ? [...failed, ...succeeded] : [...succeeded, ...failed]),
          ];
          const facts = extractHandoffFacts(window);
          for (const words of logged) {
            const fact = facts.errors.find((error) => error.line === loggedLine(words));
            expect(fact?.fromSucceededCall).toBe(true);
          }
          for (const words of failures) {
            const fact = facts.errors.find((error) => error.line === failureLine(words));
            expect(fact?.fromSucceededCall).toBe(false);
          }
          // A budget with room for some blockers but not all: no logged line is listed unless
          // every failure line is, whichever call came last.
          const receipt = createReceipt(window, { maxTokens: 480 });
          const blockers = (receipt.text.split('## Blockers and errors')[1] ?? '').split(
            '\n## ',
          )[0]!;
          const listedLogs = logged.filter((words) => blockers.includes(loggedLine(words))).length;
          expect(listedLogs).toBeLessThan(logged.length);
          const listedFailures = failures.filter((words) => blockers.includes(failureLine(words)));
          if (listedLogs > 0) expect(listedFailures.length).toBe(failures.length);
          expect(listedFailures.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a command whose output states no exit status is not taken as a success', () => {
    const quiet = call('bash', { command: 'make deploy' }, 'Error: disk quota exceeded on /srv');
    const facts = extractHandoffFacts([{ role: 'user', content: 'ship it' }, ...quiet]);
    expect(facts.errors.map((error) => error.fromSucceededCall)).toEqual([false]);
  });
});
