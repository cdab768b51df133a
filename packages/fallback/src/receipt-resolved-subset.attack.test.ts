import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractHandoffFacts } from './index.js';
import { toolExchange as call } from './test-utils/tool-exchange.js';

/**
 * Attack suite (reviewer): "resolved later" was keyed by program and path, with every flag
 * dropped, so a later run of other tests of the same file (`pytest f.py -k other`) marked the
 * failure of a whole-file run resolved. A narrower run that passed says nothing of the rest.
 */

const name = fc.noBias(fc.stringMatching(/^[a-z]{3,10}$/));
// A runner and how it picks tests by name.
const runner = fc.constantFrom(
  ['pytest', (test: string) => `-k ${test}`],
  ['npx vitest run', (test: string) => `-t ${test}`],
  ['npx jest', (test: string) => `--testNamePattern=${test}`],
  ['go test', (test: string) => `-run ${test}`],
  ['npx playwright test', (test: string) => `--grep ${test}`],
) as fc.Arbitrary<[string, (test: string) => string]>;

describe('attack: a narrower passing run does not resolve a broader failure', () => {
  it('a failure of a whole file stays open when only other tests of it pass later', () => {
    fc.assert(
      fc.property(name, name, name, runner, (file, failing, other, [program, select]) => {
        fc.pre(failing !== other);
        const target = `tests/${file}_test.py`;
        const messages = [
          { role: 'user' as const, content: 'fix it' },
          ...call(
            'bash',
            { command: `${program} ${target}` },
            `FAILED ${target}::${failing} - AssertionError\nexit code 1`,
          ),
          ...call('bash', { command: `${program} ${target} ${select(other)}` }, '1 passed'),
        ];
        const facts = extractHandoffFacts(messages);
        expect(facts.errors.length).toBeGreaterThan(0);
        expect(facts.errors.filter((error) => error.resolved)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('a failure of a selection is resolved by the same selection or the whole file passing', () => {
    fc.assert(
      fc.property(name, name, runner, fc.boolean(), (file, failing, [program, select], whole) => {
        const target = `tests/${file}_test.py`;
        const messages = [
          { role: 'user' as const, content: 'fix it' },
          ...call(
            'bash',
            { command: `${program} ${target} ${select(failing)}` },
            `FAILED ${target}::${failing} - AssertionError\nexit code 1`,
          ),
          ...call(
            'bash',
            { command: `${program} ${target}${whole ? '' : ` ${select(failing)}`} -q` },
            '3 passed',
          ),
        ];
        const facts = extractHandoffFacts(messages);
        expect(facts.errors.length).toBeGreaterThan(0);
        expect(facts.errors.every((error) => error.resolved)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
