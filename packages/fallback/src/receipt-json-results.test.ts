import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, extractHandoffFacts } from './index.js';
import { expectResolvedAfterOpen } from './test-utils/expect-resolved-after-open.js';

// Tools of agents we have never seen return JSON in shapes of their own: the failure flag, the exit
// status, the error message and the text are under keys drawn here at test time, and the text is
// JSON-escaped onto one line. The receipt must read them without knowing the tool or the agent.

const word = fc.noBias(fc.stringMatching(/^[a-z][a-z0-9]{2,7}$/));
// A key whose letters name a secret (`pw00`, `pin7`) hides its value by design, so no drawn word
// holds one of those segments (the key-name reader splits at digits).
const secretSegments =
  /^(?:pass\w*|pwd|pw|secrets?|credentials?|tokens?|keys?|auth\w*|salt|session\w*|cookie|licen[cs]e|dsn|pat|bearer|jwt|otp|pin|sig|login)$/;
const plainWord = word.filter(
  (text) =>
    !/err|fail|fatal|panic|exit|denied|timeout|exc|ok|success|status|code/.test(text) &&
    !text.split(/\d+/).some((segment) => secretSegments.test(segment)),
);
const key = fc
  .tuple(plainWord, fc.constantFrom('', '_out', 'Text', '_data'))
  .map(([a, b]) => a + b);
const sentence = fc
  .array(plainWord, { minLength: 2, maxLength: 5 })
  .map((words) => words.join(' '));
const file = fc
  .tuple(
    fc.array(plainWord, { minLength: 1, maxLength: 3 }),
    plainWord,
    fc.constantFrom('ts', 'py', 'rs', 'go', 'md'),
  )
  .map(([dirs, name, ext]) => `${dirs.join('/')}/${name}.${ext}`);
const errorLine = fc
  .tuple(fc.constantFrom('ValueError', 'error', 'fatal', 'TypeError', 'error[E0308]'), sentence)
  .map(([marker, text]) => `${marker}: ${text}`);
const exitKey = fc.constantFrom('exit_code', 'exitCode', 'returncode', 'exit_status', 'ExitCode');
const failureShape = fc.constantFrom(
  'isError',
  'is_error',
  'success-false',
  'ok-false',
  'status-failed',
  'error-field',
  'error-object',
);

let calls = 0;
function exchange(toolName: string, input: unknown, output: unknown): ModelMessage[] {
  const toolCallId = `j${++calls}`;
  return [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName, input }] },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId, toolName, output: output as never }],
    },
  ];
}

/** A failed result in one of the shapes, with `message` as what it says failed. */
function failedValue(shape: string, textKey: string, message: string, detail: string) {
  switch (shape) {
    case 'isError':
      return { isError: true, content: [{ type: 'text', text: `${message}\n${detail}` }] };
    case 'is_error':
      return { is_error: true, [textKey]: `${message}\n${detail}` };
    case 'success-false':
      return { success: false, [textKey]: `${message}\n${detail}` };
    case 'ok-false':
      return { ok: false, [textKey]: `${message}\n${detail}` };
    case 'status-failed':
      return { status: 'failed', [textKey]: `${message}\n${detail}` };
    case 'error-field':
      return { [textKey]: detail, error: message };
    default:
      return { error: { message, [textKey]: detail } };
  }
}

const sections = (messages: ModelMessage[]) =>
  createReceipt(messages, { maxTokens: 2000 }).sections;

describe('JSON tool results in shapes of any agent', () => {
  it('a failure flagged in the result lists its message as an open error and the call as failed', () => {
    fc.assert(
      fc.property(
        plainWord,
        key,
        key,
        failureShape,
        errorLine,
        sentence,
        fc.boolean(),
        (tool, argument, textKey, shape, message, detail, asText) => {
          const value = failedValue(shape, textKey, message, detail);
          const output = asText
            ? { type: 'text', value: JSON.stringify(value) }
            : { type: 'json', value };
          const messages: ModelMessage[] = [
            { role: 'user', content: 'run it' },
            ...exchange(tool, { [argument]: detail }, output),
          ];
          const { blockers, completedActions } = sections(messages);
          expect(blockers).toContain(message);
          expect(blockers).not.toContain('resolved');
          expect(completedActions).toMatch(new RegExp(`${tool} .* — error: `));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a non-zero exit status field fails the call and is listed; zero is success', () => {
    fc.assert(
      fc.property(
        plainWord,
        key,
        key,
        exitKey,
        fc.integer({ min: -3, max: 255 }),
        sentence,
        file,
        (tool, argument, textKey, exitName, status, text, path) => {
          const output = {
            type: 'json',
            value: { [textKey]: `${text}\nsee ${path}`, meta: { [exitName]: status } },
          };
          const facts = extractHandoffFacts([
            { role: 'user', content: 'run it' },
            ...exchange(tool, { [argument]: `${tool} ${text}` }, output),
          ]);
          expect(facts.toolCalls[0]!.failed).toBe(status !== 0);
          expect(facts.toolCalls[0]!.outcome).toBe(status === 0 ? 'ok' : `exit ${status}`);
          expect(facts.errors.map((error) => error.line)).toEqual(
            status === 0 ? [] : [`${exitName}: ${status}`],
          );
          // The path inside the escaped text is found as a file.
          expect(facts.files.map((fact) => fact.path)).toContain(path);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('error lines and paths inside one-line JSON text are read as the lines they were', () => {
    fc.assert(
      fc.property(
        plainWord,
        key,
        fc.array(sentence, { minLength: 0, maxLength: 6 }),
        errorLine,
        file,
        fc.nat(),
        (tool, textKey, lines, error, path, at) => {
          const body = [...lines];
          body.splice(at % (lines.length + 1), 0, error, `  at ${path}:12:3`);
          const output = { type: 'text', value: JSON.stringify({ [textKey]: body.join('\n') }) };
          const { blockers, files } = sections([
            { role: 'user', content: 'check' },
            ...exchange(tool, { [textKey]: 'x' }, output),
          ]);
          expect(blockers).toContain(error);
          expect(files?.split(/[\s]/)).toContain(path);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a failed JSON call redone with success on the same input is marked resolved, listed after open ones', () => {
    fc.assert(
      fc.property(
        plainWord,
        plainWord,
        key,
        key,
        failureShape,
        errorLine,
        errorLine,
        sentence,
        (tool, other, argument, textKey, shape, fixed, open, detail) => {
          // `error: x` is part of `ValueError: x`: each line must be told apart by its text.
          fc.pre(!fixed.includes(open) && !open.includes(fixed) && tool !== other);
          const input = { [argument]: `${detail} one` };
          const messages: ModelMessage[] = [
            { role: 'user', content: 'make it pass' },
            ...exchange(tool, input, {
              type: 'json',
              value: failedValue(shape, textKey, fixed, detail),
            }),
            ...exchange(
              other,
              { [argument]: 'two' },
              {
                type: 'json',
                value: failedValue(shape, textKey, open, detail),
              },
            ),
            ...exchange(tool, input, { type: 'json', value: { [textKey]: detail, exit_code: 0 } }),
          ];
          expectResolvedAfterOpen(sections(messages).blockers, fixed, open);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('results without a failure flag report no error, whatever their keys and words', () => {
    const calm = fc.oneof(
      sentence,
      fc.constantFrom(true, false, 0, null, {}),
      fc.record({ error: fc.constantFrom(null, false, '', {}) }),
      fc.record({ isError: fc.constant(false), ok: fc.constant(true), exit_code: fc.constant(0) }),
    );
    fc.assert(
      fc.property(
        plainWord,
        fc.dictionary(key, calm, { minKeys: 1, maxKeys: 5 }),
        fc.boolean(),
        (tool, value, asText) => {
          const output = asText
            ? { type: 'text', value: JSON.stringify(value) }
            : { type: 'json', value };
          const facts = extractHandoffFacts([
            { role: 'user', content: 'go' },
            ...exchange(tool, {}, output),
          ]);
          expect(facts.errors).toEqual([]);
          expect(facts.toolCalls[0]!.outcome).toBe('ok');
        },
      ),
      { numRuns: 200 },
    );
  });
});
