/**
 * Speed work must not change what is redacted: this build against a baseline build on generated
 * texts with generated credentials (and their redacted output again), generated histories, the
 * secret fixtures and the dev transcripts.
 * Run: pnpm build && BATON_FALLBACK_BASELINE=/path/to/baseline/dist/index.js node bench/same-output.ts
 */
import { isDeepStrictEqual } from 'node:util';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { loadSecretFixtures, loadTranscripts } from '@baton/test-corpus';
import fc from 'fast-check';
import { credentialFamilies, seededRandom } from '../dist/credential-families.js';
import * as current from '../dist/index.js';

const baselinePath = process.env.BATON_FALLBACK_BASELINE;
if (!baselinePath) {
  console.error('set BATON_FALLBACK_BASELINE to the index.js of a baseline build');
  process.exit(1);
}
const baseline = (await import(baselinePath)) as typeof current;

const credential = fc
  .tuple(fc.integer({ min: 0, max: credentialFamilies.length - 1 }), fc.integer({ min: 1 }))
  .map(([family, seed]) => credentialFamilies[family]!.make(seededRandom(seed)));
const glue = fc.oneof(
  fc.constantFrom(' ', '\n', '=', ':', '"', '/', 'token=', 'password: ', 'Authorization: Bearer '),
  fc.constantFrom(
    'curl -u ',
    'https://',
    '@',
    '-u ',
    'key ',
    'error: failed ',
    '{"secret":"',
    '\\"',
  ),
  fc.string({ maxLength: 8 }),
  fc.stringMatching(/^[A-Za-z0-9_~.-]{0,18}$/),
);
const text = fc
  .array(fc.oneof({ weight: 3, arbitrary: glue }, { weight: 1, arbitrary: credential }), {
    maxLength: 12,
  })
  .map((pieces) => pieces.join(''));

fc.assert(
  fc.property(text, (value) => {
    const before = baseline.redactSecrets(value);
    const after = current.redactSecrets(value);
    return (
      isDeepStrictEqual(before, after) &&
      isDeepStrictEqual(baseline.redactSecrets(before.text), current.redactSecrets(after.text)) &&
      isDeepStrictEqual(baseline.extractErrorLines(value), current.extractErrorLines(value))
    );
  }),
  { numRuns: 20_000 },
);
console.log('redactSecrets (also on its own output), extractErrorLines: same on 20,000 texts');

const history = fc
  .array(fc.tuple(fc.constantFrom('user', 'assistant'), text), { maxLength: 30 })
  .map((turns) =>
    turns.flatMap(([role, value], index): ModelMessage[] =>
      role === 'user'
        ? [{ role: 'user', content: value }]
        : [
            {
              role: 'assistant',
              content: [
                { type: 'text', text: value },
                {
                  type: 'tool-call',
                  toolCallId: `c${index}`,
                  toolName: 'bash',
                  input: { command: value },
                },
              ],
            },
            {
              role: 'tool',
              content: [
                {
                  type: 'tool-result',
                  toolCallId: `c${index}`,
                  toolName: 'bash',
                  output: { type: 'text', value: `error: step ${index} failed\n${value}` },
                },
              ],
            },
          ],
    ),
  );
fc.assert(
  fc.property(
    history,
    (messages) =>
      isDeepStrictEqual(baseline.redactMessages(messages), current.redactMessages(messages)) &&
      isDeepStrictEqual(baseline.createReceipt(messages), current.createReceipt(messages)) &&
      isDeepStrictEqual(
        baseline.extractHandoffFacts(messages),
        current.extractHandoffFacts(messages),
      ),
  ),
  { numRuns: 1_000 },
);
console.log('redactMessages, createReceipt, extractHandoffFacts: same on 1,000 histories');

const fixtures = loadSecretFixtures();
const sameFixtures = fixtures.filter((fixture) =>
  isDeepStrictEqual(baseline.redactSecrets(fixture.text), current.redactSecrets(fixture.text)),
).length;
console.log(`secret fixtures: ${sameFixtures} of ${fixtures.length} the same`);
const transcripts = loadTranscripts();
const sameTranscripts = transcripts.filter((transcript) => {
  const messages = transcript.messages as ModelMessage[];
  return (
    isDeepStrictEqual(baseline.redactMessages(messages), current.redactMessages(messages)) &&
    isDeepStrictEqual(baseline.createReceipt(messages), current.createReceipt(messages))
  );
}).length;
console.log(`dev transcripts: ${sameTranscripts} of ${transcripts.length} the same`);
if (sameFixtures !== fixtures.length || sameTranscripts !== transcripts.length) process.exit(1);
