import type { ModelMessage } from '@ai-sdk/provider-utils';
import { BatonError } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, extractHandoffFacts, redactMessages } from './index.js';

// Premise: tool outputs and inputs come from tools and SDK objects the caller does not control; a
// getter or a proxy trap in them may throw anything. Only typed errors may leave the package, and
// their messages must not repeat what the thrown value said (it may hold the data it failed on).
const thrownText = fc.stringMatching(/^[A-Za-z0-9]{24,40}$/).map((body) => `sk-thrown-${body}`);

type Trap = 'getter' | 'get' | 'ownKeys' | 'has' | 'getOwnPropertyDescriptor' | 'thrown proxy';
const traps: Trap[] = [
  'getter',
  'get',
  'ownKeys',
  'has',
  'getOwnPropertyDescriptor',
  'thrown proxy',
];

function hostile(trap: Trap, text: string): object {
  const fail = () => {
    throw new Error(text);
  };
  // What is thrown may itself throw when asked what it is (a `has` trap, a revoked proxy).
  if (trap === 'thrown proxy') {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const thrown = text.length % 2 === 0 ? proxy : new Proxy(new Error(text), { has: fail });
    return {
      path: 'src/a.ts',
      get body() {
        throw thrown;
      },
    };
  }
  if (trap === 'getter')
    return {
      path: 'src/a.ts',
      get body() {
        return fail();
      },
    };
  return new Proxy({ path: 'src/a.ts', body: 'x' }, { [trap]: fail });
}

/** A small window with `value` at one of the places a caller's object can reach. */
function windowWith(place: number, value: unknown): ModelMessage[] {
  const input = place === 0 ? value : { command: 'cat src/a.ts' };
  const output = place === 1 ? { type: 'json', value } : { type: 'text', value: 'ok' };
  const messages = [
    { role: 'user', content: 'read the file and fix it' },
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input }],
    },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'bash', output }],
    },
    place === 2 ? value : { role: 'assistant', content: 'done' },
  ];
  return messages as ModelMessage[];
}

const readers = {
  createReceipt: (messages: ModelMessage[]) => createReceipt(messages),
  redactMessages: (messages: ModelMessage[]) => redactMessages(messages),
  extractHandoffFacts: (messages: ModelMessage[]) => extractHandoffFacts(messages),
};

describe('caller objects that throw while being read', () => {
  for (const [name, read] of Object.entries(readers)) {
    it(`${name} throws only BatonErrors that do not quote the thrown text`, () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...traps),
          fc.integer({ min: 0, max: 2 }),
          thrownText,
          (trap, place, text) => {
            let caught: unknown;
            try {
              read(windowWith(place, hostile(trap, text)));
            } catch (error) {
              caught = error;
            }
            if (caught === undefined) return;
            expect(BatonError.isInstance(caught), String(caught)).toBe(true);
            expect((caught as Error).message).not.toContain(text);
          },
        ),
        { numRuns: 150 },
      );
    });

    it(`${name} reads the same windows with plain objects (control)`, () => {
      for (let place = 0; place < 3; place++) {
        const plain = place === 2 ? { role: 'assistant', content: 'done' } : { path: 'src/a.ts' };
        expect(() => read(windowWith(place, plain))).not.toThrow();
      }
    });
  }
});
