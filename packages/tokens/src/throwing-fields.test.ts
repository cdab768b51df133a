import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from './index.js';

// A message may carry fields no count reads, and one of them may throw when read (a getter, a
// proxy over an SDK object). The count of a message depends only on what is counted, so a fresh
// counter and a re-count of a copy must agree: both the same number, or both the same error.

type Outcome = { tokens: number } | { error: string };

const outcome = (run: () => number): Outcome => {
  try {
    return { tokens: run() };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
};

const text = fc.string({ minLength: 1, maxLength: 30 });

/** A clean message: string content, text parts, or a tool call with a JSON input. */
const message = fc.oneof(
  fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), content: text }),
  fc.record({
    role: fc.constant('user'),
    content: fc.array(fc.record({ type: fc.constant('text'), text }), {
      minLength: 1,
      maxLength: 3,
    }),
  }),
  fc.record({
    role: fc.constant('assistant'),
    content: fc
      .tuple(text, text, fc.dictionary(text, text, { maxKeys: 3 }))
      .map(([toolCallId, toolName, input]) => [{ type: 'tool-call', toolCallId, toolName, input }]),
  }),
);

const boom = () => {
  throw new Error('read of an uncounted field');
};

/** Where the throwing field goes, and how it throws. */
const trap = fc.record({
  on: fc.constantFrom('message', 'part', 'input'),
  kind: fc.constantFrom('getter', 'ownKeys proxy'),
  name: fc.constantFrom('id', 'extra', 'providerOptions', 'metadata'),
});

function withTrap(
  clean: Record<string, unknown>,
  { on, kind, name }: { on: string; kind: string; name: string },
): Record<string, unknown> {
  const copy = structuredClone(clean);
  const arm = (target: Record<string, unknown>): Record<string, unknown> => {
    if (kind === 'ownKeys proxy') return new Proxy(target, { ownKeys: boom });
    Object.defineProperty(target, name, { get: boom, enumerable: true, configurable: true });
    return target;
  };
  const parts = Array.isArray(copy.content) ? (copy.content as Record<string, unknown>[]) : [];
  if (on === 'part' && parts.length > 0) {
    parts[0] = arm(parts[0]!);
    return copy;
  }
  if (on === 'input' && parts[0]?.type === 'tool-call') {
    parts[0].input = arm(parts[0].input as Record<string, unknown>);
    return copy;
  }
  return arm(copy);
}

describe('a field that throws when read', () => {
  it('gives a re-count of a copy the same outcome as a fresh counter (property)', () => {
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 4 }),
        trap,
        fc.nat(),
        (history, where, pick) => {
          const index = pick % history.length;
          const trapped = history.map((item, i) =>
            i === index ? withTrap(item as Record<string, unknown>, where) : structuredClone(item),
          );
          const fresh = outcome(() => createTokenCounter().countMessages(trapped as never));
          const counter = createTokenCounter();
          counter.countMessages(history as never);
          const recount = outcome(() => counter.countMessages(trapped as never));
          expect(recount).toEqual(fresh);
          // A single message counted alone agrees as well.
          expect(outcome(() => counter.countMessage(trapped[index] as never))).toEqual(
            outcome(() => createTokenCounter().countMessage(trapped[index] as never)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
