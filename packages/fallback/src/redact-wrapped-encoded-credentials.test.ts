import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

// `base64` and most encoders wrap at 76 characters (PEM at 64): in a JSON string the line breaks
// are written `\n`, and a `user:password` pair long enough to wrap leaves its tail on the next
// lines. Drawn without bias: biased draws repeat one character.
const drawn = (characters: string, minLength: number, maxLength: number) =>
  fc
    .noBias(fc.array(fc.integer({ min: 0, max: characters.length - 1 }), { minLength, maxLength }))
    .map((indexes) => indexes.map((index) => characters[index]).join(''));
const printable = Array.from({ length: 94 }, (_, index) => String.fromCharCode(33 + index)).join(
  '',
);
const pair = fc
  .tuple(
    drawn('abcdefghijklmnopqrstuvwxyz', 1, 1),
    drawn('abcdefghijklmnopqrstuvwxyz0123456789._-', 2, 23),
    drawn(printable, 8, 120),
  )
  // A user name holds a letter (`-2.:…` is no pair); `user://…` decoded is a URL, not a pair.
  .filter(([, , password]) => !password.startsWith('//'))
  .map(([first, user, password]) => `${first}${user}:${password}`);
const encoded = pair.map((value) => Buffer.from(value).toString('base64'));
const wrapWidth = fc.constantFrom(76, 64, 60, 40, 16, 12);
const lineBreak = fc.constantFrom(
  '\\n',
  '\\r\\n',
  '\\\\n',
  '\\\\r\\\\n',
  '\n',
  '\r\n',
  '\n    ',
  '\r\n\t',
);

/** The lines of `value` cut every `width` characters. */
const wrap = (value: string, width: number) =>
  Array.from({ length: Math.ceil(value.length / width) }, (_, index) =>
    value.slice(index * width, (index + 1) * width),
  );

describe('an encoded user:password pair wrapped over lines', () => {
  it('is redacted whole, every line of it (property)', () => {
    const contexts = fc.constantFrom(
      (body: string) => `{"log":"auth blob ${body}","level":"info"}`,
      (body: string) => `{"auth":"${body}"}`,
      (body: string) => `Authorization: Basic ${body}`,
      (body: string) => `data:\n  creds: ${body}\n`,
    );
    fc.assert(
      fc.property(encoded, wrapWidth, lineBreak, contexts, (value, width, separator, context) => {
        const lines = wrap(value, width);
        const output = redactSecrets(context(lines.join(separator))).text;
        for (const line of lines) {
          // Padding alone (`==`) or two or three characters say nothing of the pair.
          if (line.replace(/=+$/, '').length >= 4) expect(output).not.toContain(line);
        }
      }),
      { numRuns: 2000, endOnFailure: true },
    );
  });

  it('leaves wrapped base64 of other content alone (property)', () => {
    // Encoded text with no pair (a sentence, JSON without a secret) is content.
    const sentence = fc
      .array(fc.constantFrom('the', 'build', 'passed', 'on', 'main', 'after', 'retry', 'log'), {
        minLength: 12,
        maxLength: 40,
      })
      .map((words) => Buffer.from(words.join(' ')).toString('base64'));
    fc.assert(
      fc.property(sentence, wrapWidth, lineBreak, (value, width, separator) => {
        const text = `{"body":"${wrap(value, width).join(separator)}"}`;
        expect(redactSecrets(text).findings).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('costs linear time on many wrapped lines that never end a pair', () => {
    const line = Buffer.from('abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTU').toString(
      'base64',
    );
    const text = Array.from({ length: 3_000 }, () => line).join('\\n');
    expect(text.length).toBeGreaterThan(200_000);
    expect(redactSecrets(text).text.length).toBeGreaterThan(0);
  });
});
