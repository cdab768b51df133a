import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractHandoffFacts } from './extract-handoff-facts.js';
import { ReceiptInputError } from './receipt-input-error.js';

// The paths of invalid input are built only when one is reported (not for every message and part
// of a large window): the reported path must still name the exact spot, wherever it is.

const goodParts = [
  { type: 'text', text: 'reading src/a.ts' },
  { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'src/a.ts' } },
  {
    type: 'tool-result',
    toolCallId: 'c1',
    toolName: 'read',
    output: { type: 'text', value: 'ok' },
  },
];

/** A defect planted in a part, and the path suffix it must be reported under. */
const partDefects: Array<{ part: unknown; suffix: string }> = [
  { part: 7, suffix: '' },
  { part: { type: 'text', text: 3 }, suffix: '.text' },
  { part: { type: 'tool-call', toolCallId: 'x', input: {} }, suffix: '.toolName' },
  { part: { type: 'tool-call', toolName: 'read', input: {} }, suffix: '.toolCallId' },
  { part: { type: 'tool-result', toolCallId: 'x', output: {} }, suffix: '.toolName' },
  {
    part: { type: 'tool-result', toolName: 'read', toolCallId: 'x', output: 1 },
    suffix: '.output',
  },
  {
    part: {
      type: 'tool-result',
      toolName: 'r',
      toolCallId: 'x',
      output: { type: 'text', value: 2 },
    },
    suffix: '.output.value',
  },
  {
    part: { type: 'tool-result', toolName: 'r', toolCallId: 'x', output: { type: 'nope' } },
    suffix: '.output.type',
  },
  {
    part: {
      type: 'tool-result',
      toolName: 'r',
      toolCallId: 'x',
      output: { type: 'content', value: [{ type: 'text', text: 'a' }, null] },
    },
    suffix: '.output.value[1]',
  },
  {
    part: {
      type: 'tool-result',
      toolName: 'r',
      toolCallId: 'x',
      output: { type: 'content', value: [{ type: 'text', text: 5 }] },
    },
    suffix: '.output.value[0].text',
  },
];

/** A defect planted in a message itself. */
const messageDefects: Array<{ message: unknown; suffix: string }> = [
  { message: null, suffix: '' },
  { message: { role: 'robot', content: 'x' }, suffix: '.role' },
  { message: { role: 'user', content: 4 }, suffix: '.content' },
  { message: { role: 'system', content: [{ type: 'text', text: 'x' }] }, suffix: '.content' },
];

function thrownPath(messages: unknown[]): string | undefined {
  try {
    extractHandoffFacts(messages as ModelMessage[]);
  } catch (error) {
    if (ReceiptInputError.isInstance(error)) return error.path;
    throw error;
  }
  return undefined;
}

const filler = fc.array(
  fc.oneof(
    fc.constant({ role: 'user', content: 'go on' }),
    fc.constant({ role: 'assistant', content: goodParts.slice(0, 2) }),
  ),
  { maxLength: 30 },
);

describe('extractHandoffFacts input paths', () => {
  it('reports a defective part at its message and part index', () => {
    fc.assert(
      fc.property(
        filler,
        fc.array(fc.constantFrom(...goodParts), { maxLength: 5 }),
        fc.nat({ max: partDefects.length - 1 }),
        filler,
        (before, partsBefore, which, after) => {
          const defect = partDefects[which]!;
          const messages = [
            ...before,
            { role: 'assistant', content: [...partsBefore, defect.part] },
            ...after,
          ];
          expect(thrownPath(messages)).toBe(
            `messages[${before.length}].content[${partsBefore.length}]${defect.suffix}`,
          );
        },
      ),
    );
  });

  it('reports a defective message at its index', () => {
    fc.assert(
      fc.property(
        filler,
        fc.nat({ max: messageDefects.length - 1 }),
        filler,
        (before, which, after) => {
          const defect = messageDefects[which]!;
          expect(thrownPath([...before, defect.message, ...after])).toBe(
            `messages[${before.length}]${defect.suffix}`,
          );
        },
      ),
    );
  });

  it("joins a message's text parts with newlines, as one ask", () => {
    const line = fc.stringMatching(/^[a-z][a-z ]{0,20}[a-z]$/);
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), (texts) => {
        const facts = extractHandoffFacts([
          { role: 'user', content: texts.map((text) => ({ type: 'text', text })) },
        ]);
        expect(facts.latestAsk?.text).toBe(texts.join('\n').trim());
        expect(facts.turns.map((turn) => turn.text)).toEqual([texts.join('\n').trim()]);
      }),
    );
  });
});
