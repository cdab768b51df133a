import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

// First bytes of media and document files, as the formats define them.
const fileHeaders = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52], // PNG
  [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46], // JPEG (JFIF)
  [...Buffer.from('GIF89a')],
  [...Buffer.from('%PDF-1.7\n')],
  [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // WebAssembly
  [...Buffer.from('RIFF'), 0x24, 0x10, 0, 0, ...Buffer.from('WEBPVP8 ')],
];

const randomBytes = (minLength: number, maxLength: number) =>
  fc.noBias(fc.uint8Array({ minLength, maxLength })).map((bytes) => Buffer.from(bytes));

// Wrapped as encoders and serialisers print it: raw line breaks (indented in YAML or a heredoc),
// or escaped once or twice inside JSON strings.
const wrap = fc.record({
  width: fc.constantFrom(60, 64, 72, 76),
  separator: fc.constantFrom('\n', '\r\n', '\n    ', '\\n', '\\\\n', '\\r\\n'),
});
const wrapped = (base64: string, { width, separator }: { width: number; separator: string }) =>
  (base64.match(new RegExp(`.{1,${width}}`, 'g')) ?? []).join(separator);

const places: Array<(body: string) => string> = [
  (body) => `fixture = """\n${body}\n"""`,
  (body) => `{"screenshot":"${body}","width":800}`,
  (body) => `$ base64 logo\n${body}\n$ echo done`,
  (body) => `  icon: |\n    ${body}\n  name: app`,
];

describe('base64 of a media or document file', () => {
  it('is content: left alone, wrapped or not (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...fileHeaders),
        // Three lines and more when wrapped: a file's short second line is read as any text.
        randomBytes(180, 900),
        fc.option(wrap, { nil: undefined }),
        fc.nat({ max: places.length - 1 }),
        (header, body, wrapping, place) => {
          const base64 = Buffer.concat([Buffer.from(header), body]).toString('base64');
          const text = places[place]!(wrapping ? wrapped(base64, wrapping) : base64);
          expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: 800, endOnFailure: true },
    );
  });

  it('the same random bytes with no file header are still redacted there (property)', () => {
    fc.assert(
      fc.property(
        // Below 1,000 characters on one line: longer runs are content by design.
        randomBytes(40, 700),
        fc.option(wrap, { nil: undefined }),
        fc.nat({ max: places.length - 1 }),
        (body, wrapping, place) => {
          const base64 = body.toString('base64');
          // Only bodies the redactor takes for a key when they stand alone (random base64 with few
          // digits can read otherwise, with or without this exemption).
          const first = wrapping ? base64.slice(0, wrapping.width) : base64;
          fc.pre(redactSecrets(first).findings.length > 0);
          const text = places[place]!(wrapping ? wrapped(base64, wrapping) : base64);
          expect(redactSecrets(text).text).not.toContain(first);
        },
      ),
      { numRuns: 800, endOnFailure: true },
    );
  });

  it('ends at the first line that is not base64: a token after it is redacted', () => {
    const image = Buffer.concat([Buffer.from(fileHeaders[0]!), Buffer.alloc(300, 7)]);
    const key = Buffer.from(Array.from({ length: 30 }, (_, index) => (index * 97 + 13) % 256));
    const token = `tok_${key.toString('hex')}`;
    const text = `${wrapped(image.toString('base64'), { width: 76, separator: '\n' })}\n${token}`;
    expect(redactSecrets(text).text).not.toContain(key.toString('hex'));
  });

  it('costs linear time on a long wrapped block', () => {
    const header = Buffer.from(fileHeaders[0]!).toString('base64');
    const lines = Array.from({ length: 6_000 }, () => 'QUJD'.repeat(19)).join('\\n');
    const text = `${header}${lines}\n`.repeat(2);
    expect(text.length).toBeGreaterThan(900_000);
    // CPU time: a loaded machine stretches wall time, not the work done.
    const started = process.cpuUsage();
    expect(redactSecrets(text).text).toBe(text);
    const spent = process.cpuUsage(started);
    expect((spent.user + spent.system) / 1000).toBeLessThan(5_000);
  });
});
