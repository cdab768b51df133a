import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactMessages } from './redact-messages.js';

// The walk keeps its path and ancestors on stacks instead of allocating per value: these pin the
// cases where a stack could go wrong (an object met twice without a cycle, a cycle at any depth,
// `__proto__` and null-prototype records, holes) to what a plain recursive walk gives.

// Secrets assembled at run time from generated bodies: no token is ever in the source.
const body = fc.stringMatching(/^[A-Za-z0-9]{30,40}$/).map((value) => `${value}Q7z`);
const secret = body.map((value) => `ghp_${value.slice(0, 36)}`);
const text = fc.oneof(
  { weight: 3, arbitrary: fc.noBias(fc.string({ maxLength: 20 })) },
  { weight: 1, arbitrary: secret },
);
const key = fc.oneof(
  fc.constantFrom('__proto__', 'path', 'type', 'value', 'data', '0'),
  fc.string({ minLength: 1, maxLength: 6 }),
);

/** A record whose keys are own properties whatever they are called (`__proto__` included). */
function record(entries: Array<[string, unknown]>, nullPrototype: boolean): object {
  const target: Record<string, unknown> = nullPrototype ? Object.create(null) : {};
  for (const [field, value] of entries) {
    Object.defineProperty(target, field, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return target;
}

const { data } = fc.letrec((tie) => ({
  data: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer(),
    fc.constant(null),
    fc.array(tie('data'), { maxLength: 3 }).map((items) => {
      // A trailing hole: holes must stay holes.
      const holed = [...items];
      holed.length += 1;
      return holed;
    }),
    fc
      .tuple(fc.array(fc.tuple(key, tie('data')), { maxLength: 3 }), fc.boolean())
      .map(([entries, nullPrototype]) => record(entries, nullPrototype)),
  ),
}));

/** Strings of `value` at any depth, each object visited once (cycles allowed). */
function strings(value: unknown, into: string[] = [], seen = new Set<object>()): string[] {
  if (typeof value === 'string') into.push(value);
  else if (typeof value === 'object' && value !== null && !seen.has(value)) {
    seen.add(value);
    for (const field of Object.keys(value)) {
      strings((value as Record<string, unknown>)[field], into, seen);
    }
  }
  return into;
}

describe('redactMessages walk', () => {
  it('redacts an object met twice at both places, and marks only a real cycle', () => {
    fc.assert(
      fc.property(data, fc.boolean(), (shared, cyclic) => {
        const holder: Record<string, unknown> = { first: shared, second: [shared] };
        if (cyclic) holder.back = holder;
        const messages = [
          {
            role: 'assistant',
            content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'x', input: holder }],
          },
        ] as unknown as ModelMessage[];
        const { messages: redacted, findings } = redactMessages(messages);
        const input = (redacted[0]!.content as Array<{ input: Record<string, unknown> }>)[0]!.input;
        // The same redaction at both places: neither is taken for a cycle.
        expect((input.second as unknown[])[0]).toEqual(input.first);
        expect(input.back).toBe(cyclic ? '[omitted: circular reference]' : undefined);
        const planted = strings(shared).filter((value) => value.startsWith('ghp_'));
        const out = strings(input);
        for (const token of planted) expect(out.some((value) => value.includes(token))).toBe(false);
        // Each finding names where it was: a path under this part, `first` or `second[0]`.
        for (const finding of findings) {
          expect(finding.path).toMatch(
            /^messages\[0\]\.content\[0\]\.input\.(?:first|second\[0\])/,
          );
        }
        if (planted.length > 0) expect(findings.length).toBeGreaterThanOrEqual(2 * planted.length);
        // Nothing changed (no secret, no cycle): the very same messages come back.
        if (findings.length === 0 && !cyclic) expect(redacted).toBe(messages);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps `__proto__` an own field and holes as holes in a redacted copy', () => {
    fc.assert(
      fc.property(secret, fc.boolean(), (token, nullPrototype) => {
        // A hole at 1: `delete` makes one without a sparse literal.
        const list: unknown[] = [token, 'hole', 'x'];
        delete list[1];
        const input = record(
          [
            ['list', list],
            ['__proto__', { note: token }],
          ],
          nullPrototype,
        );
        const messages = [
          {
            role: 'assistant',
            content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'x', input }],
          },
        ] as unknown as ModelMessage[];
        const { messages: redacted, findings } = redactMessages(messages);
        const copy = (redacted[0]!.content as Array<{ input: Record<string, unknown> }>)[0]!.input;
        expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
        expect(Object.keys(copy)).toEqual(['list', '__proto__']);
        expect(JSON.stringify(copy)).not.toContain(token);
        const copied = copy.list as unknown[];
        expect(1 in copied).toBe(false);
        expect(copied[2]).toBe('x');
        expect(findings.map((finding) => finding.path)).toEqual([
          'messages[0].content[0].input.list[0]',
          'messages[0].content[0].input.__proto__.note',
        ]);
      }),
      { numRuns: 50 },
    );
  });
});
