import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractHandoffFacts, lastTurnCount } from './extract-handoff-facts.js';
import { redactSecrets } from './redact-secrets.js';

// Only the last turns of a window are shown, so they are read back from its end once the window
// has been read: each must say what its message says however long the window before it, and the
// window's turns must be exactly its last messages that have something to show.

const secret = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
const word = fc.constantFrom('', '  ', 'fix', 'src/a.ts', `token=${secret}`, 'Error: boom', 'ok');
const text = fc.array(word, { maxLength: 4 }).map((words) => words.join(' '));
const output = fc.oneof(
  text.map((value) => ({ type: 'text', value })),
  text.map((value) => ({ type: 'error-text', value })),
  text.map((value) => ({ type: 'text', value: `${value}\nexit code 2` })),
  text.map((value) => ({ type: 'json', value: { exitCode: 0, stdout: value } })),
  text.map((reason) => ({ type: 'execution-denied', reason })),
  text.map((value) => ({ type: 'content', value: [{ type: 'text', text: value }] })),
);
const part = fc.oneof(
  text.map((value) => ({ type: 'text', text: value })),
  text.map((value) => ({ type: 'reasoning', text: value })),
  fc
    .record({ name: fc.constantFrom('bash', 'read_file', 'edit'), target: text })
    .map(({ name, target }) => ({
      type: 'tool-call',
      toolCallId: 'c',
      toolName: name,
      input: { command: target },
    })),
  fc.record({ name: fc.constantFrom('bash', 'read_file'), output }).map(({ name, output }) => ({
    type: 'tool-result',
    toolCallId: 'c',
    toolName: name,
    output,
  })),
  fc.constantFrom(
    { type: 'image', image: 'x', mediaType: 'image/png' },
    { type: 'file', data: 'x', mediaType: 'text/plain', filename: 'notes.md' },
  ),
);
const message: fc.Arbitrary<ModelMessage> = fc.oneof(
  fc.record({ role: fc.constant('system'), content: text }),
  fc.record({
    role: fc.constant('user'),
    content: fc.oneof(text, fc.array(part, { maxLength: 3 })),
  }),
  fc.record({ role: fc.constant('assistant'), content: fc.array(part, { maxLength: 3 }) }),
  fc.record({ role: fc.constant('tool'), content: fc.array(part, { maxLength: 3 }) }),
) as fc.Arbitrary<ModelMessage>;

describe('extractHandoffFacts turns', () => {
  it('are the last messages with something to show, each as it reads alone', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 40 }), (messages) => {
        const turns = extractHandoffFacts(messages).turns;
        const alone = messages.flatMap((item, index) =>
          extractHandoffFacts([item]).turns.map((turn) => ({ ...turn, index })),
        );
        expect(turns).toEqual(alone.slice(-lastTurnCount));
        for (const turn of turns) {
          expect(turn.text).not.toContain(secret);
          // The message's own words open its turn, redacted, before any tool activity.
          const content = messages[turn.index]!.content;
          const words = (
            typeof content === 'string'
              ? content
              : content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n')
          ).trim();
          if (words !== '') expect(turn.text.startsWith(redactSecrets(words).text)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('show each call as the window lists it', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), (messages) => {
        const facts = extractHandoffFacts(messages);
        const shown = facts.turns.flatMap((turn) =>
          turn.text.split('\n').filter((line) => line.startsWith('called ')),
        );
        const listed = facts.toolCalls
          .filter((call) => facts.turns.some((turn) => turn.index === call.index))
          .map((call) => `called ${call.name}${call.target ? ` ${call.target}` : ''}`);
        expect(shown.filter((line) => listed.includes(line))).toEqual(listed);
      }),
      { numRuns: 300 },
    );
  });
});
