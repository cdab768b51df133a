import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseWhitespace, isSpace } from './collapse-whitespace.js';
import { extractHandoffFacts, itemKey } from './extract-handoff-facts.js';

// The scan stands in for `replace(/\s+/g, ' ').trim()` on every ask, error line and call target:
// it must give the same string for any text, and decide "whitespace" exactly as `\s` does.

const reference = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Characters near every branch of the scan: each kind of whitespace, and what neighbours it. */
const alphabet = [
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u200a',
  '\u200b',
  '\u180e',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
  '\u0085',
  'a',
  'Z',
  '/',
  '.',
  '_',
  '\ud83d',
];

describe('collapseWhitespace', () => {
  it('takes a code unit for whitespace exactly when \\s does', () => {
    for (let code = 0; code <= 0xffff; code++) {
      expect(isSpace(code), `U+${code.toString(16)}`).toBe(/\s/.test(String.fromCharCode(code)));
    }
  });

  it('is replace(/\\s+/g, " ").trim() on any text', () => {
    fc.assert(
      fc.property(
        fc.noBias(fc.array(fc.constantFrom(...alphabet), { maxLength: 24 })),
        (characters) => {
          const text = characters.join('');
          expect(collapseWhitespace(text)).toBe(reference(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('returns an already collapsed text itself, and others collapsed', () => {
    expect(collapseWhitespace('')).toBe('');
    expect(collapseWhitespace('a b')).toBe('a b');
    expect(collapseWhitespace(' a')).toBe('a');
    expect(collapseWhitespace('a ')).toBe('a');
    expect(collapseWhitespace('a  b')).toBe('a b');
    expect(collapseWhitespace('a\tb')).toBe('a b');
    expect(collapseWhitespace('a\u00a0b')).toBe('a b');
    expect(collapseWhitespace(' ')).toBe('');
  });

  it('keeps itemKey and call targets as the regex made them', () => {
    // No capitals, digits or key words: nothing here is a secret, so the target is the line itself.
    const plain = alphabet.filter((character) => !/[aZ\ud83d]/.test(character)).concat('x');
    fc.assert(
      fc.property(
        fc.noBias(fc.array(fc.constantFrom(...plain), { minLength: 1, maxLength: 40 })),
        (characters) => {
          const text = `x${characters.join('')}`;
          const collapsed = reference(text);
          expect(itemKey(text)).toBe(collapsed);
          const facts = extractHandoffFacts([
            {
              role: 'assistant',
              content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'run', input: text }],
            },
          ]);
          // The target is the first line of the input, collapsed.
          const firstLine = /\S[^\n]*/.exec(text)?.[0] ?? '';
          expect(facts.toolCalls[0]!.target).toBe(reference(firstLine));
        },
      ),
      { numRuns: 500 },
    );
  });
});
