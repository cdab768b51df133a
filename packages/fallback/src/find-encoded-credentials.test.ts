import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Candidates, findEncodedCredentials } from './find-encoded-credentials.js';
import { redactSecrets } from './index.js';

const base64 = (text: string) => Buffer.from(text).toString('base64');
const user = fc.noBias(fc.stringMatching(/^[a-z][a-z0-9._-]{1,15}(?:@[a-z]{2,8}\.com)?$/));
// Any printable ASCII but space; a weak or placeholder-like password counts too. Not one opening
// with `//`: `name://…` decoded reads as a URL, which the finder leaves alone on purpose.
const password = fc
  .noBias(fc.stringMatching(/^[\x21-\x7e]{6,40}$/))
  .filter((value) => !value.startsWith('//'));
// Where encoded pairs stand, with the issuer rules that know these places switched off.
const places: Array<(value: string) => string> = [
  (value) => `apiVersion: v1\ndata:\n  extra: ${value}\nkind: Opaque\n`,
  (value) => `{"auths":{"registry.example.com":{"auth":"${value}"}}}`,
  (value) => `_auth=${value}`,
  (value) => `curl -H "Authorization: Basic ${value}" https://api.example.com`,
  (value) => `the stored value is ${value} for now`,
];
const others = {
  disabledKinds: [
    'kubernetes-secret',
    'authorization',
    'curl-header',
    'npm-auth',
    'secret',
    'password',
  ],
};

describe('findEncodedCredentials', () => {
  it('redacts base64 of user:password wherever it stands', () => {
    fc.assert(
      fc.property(user, password, fc.constantFrom(...places), (name, secret, place) => {
        const value = base64(`${name}:${secret}`);
        const result = redactSecrets(place(value), others);
        expect(result.text).not.toContain(value);
      }),
    );
  });

  it('finds the pair as one span over the encoded value', () => {
    fc.assert(
      fc.property(user, password, (name, secret) => {
        const value = base64(`${name}:${secret}`);
        const text = `data: ${value}\n`;
        const found = findEncodedCredentials(text);
        expect(found.map((span) => text.slice(span.start, span.end))).toContain(value);
      }),
    );
  });

  it('leaves encoded prose, URLs, header lines and random bytes alone', () => {
    const prose = fc
      .array(fc.noBias(fc.stringMatching(/^[a-z]{2,9}$/)), { minLength: 3, maxLength: 8 })
      .map((words) => words.join(' '));
    const url = fc.webUrl();
    const header = fc
      .tuple(fc.constantFrom('Content-Type', 'Accept-Encoding', 'X-Request-Id'), fc.webUrl())
      .map(([name, value]) => `${name}:${value}`);
    const bytes = fc
      .noBias(fc.uint8Array({ minLength: 8, maxLength: 120 }))
      .map((array) => Buffer.from(array).toString('latin1'));
    fc.assert(
      fc.property(fc.oneof(prose, url, header, bytes), (plain) => {
        const value = Buffer.from(plain, 'latin1').toString('base64');
        expect(findEncodedCredentials(`value: ${value}`)).toEqual([]);
      }),
    );
  });

  it('scans for the same candidates as the regex it replaces', () => {
    const reference = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/]{6,256}={0,2}(?![A-Za-z0-9+/=_-])/g;
    const text = fc.noBias(
      fc
        .array(
          fc.constantFrom(
            'a',
            'B',
            '7',
            '+',
            '/',
            '=',
            '_',
            '-',
            ' ',
            ':',
            'aB3dE',
            'x'.repeat(250),
          ),
          {
            maxLength: 80,
          },
        )
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(text, (value) => {
        const expected = [...value.matchAll(reference)].map((match) => [
          match.index,
          match.index + match[0].length,
        ]);
        expect(base64Candidates(value)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('stays linear on a long run of encoded pairs and of base64 characters', () => {
    // Best of three after a warm-up call, on this thread's CPU clock (wall time on a loaded machine
    // is another process's): a ratio near 4 for four times the text is linear, one near 16
    // quadratic.
    const time = (text: string) => {
      findEncodedCredentials(text);
      let best = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 3; round++) {
        const started = process.threadCpuUsage();
        findEncodedCredentials(text);
        const spent = process.threadCpuUsage(started);
        best = Math.min(best, (spent.user + spent.system) / 1000);
      }
      return best;
    };
    for (const unit of ['YWRtaW46cGFzc3dvcmQ= ', 'QUJD', 'x', 'a=']) {
      const small = time(unit.repeat(Math.ceil(200_000 / unit.length)));
      const large = time(unit.repeat(Math.ceil(800_000 / unit.length)));
      expect(large, unit).toBeLessThan(small * 8 + 20);
    }
  });
});

describe('an unpadded encoded pair cut into short runs by `+` or `/`', () => {
  it('is redacted in prose with nothing around it', () => {
    // 12 to 24 characters of base64 with a `+` or `/` inside, so that no run of letters and digits
    // is long enough for the quick check on its own.
    const short = fc
      .tuple(
        fc.noBias(fc.stringMatching(/^[a-z][a-z0-9_]{1,4}$/)),
        fc.noBias(fc.stringMatching(/^[\x21-\x7e]{6,12}$/)),
      )
      .map(([name, secret]) => base64(`${name}:${secret}`))
      .filter(
        (value) => /[+/]/.test(value) && !/[A-Za-z0-9]{10}/.test(value) && !value.endsWith('='),
      )
      .filter((value) => !Buffer.from(value, 'base64').toString().includes('://'));
    fc.assert(
      fc.property(short, (value) => {
        expect(redactSecrets(`the stored value is ${value} for now`, others).text).not.toContain(
          value,
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('words of eight letters and digits', () => {
  it('are never read as an encoded user:password (about 12 in a million decoded to one)', () => {
    const characters = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const word = fc
      .noBias(fc.array(fc.nat({ max: characters.length - 1 }), { minLength: 8, maxLength: 8 }))
      .map((indexes) => indexes.map((index) => characters[index]).join(''))
      .filter((text) => /^[a-z]/.test(text) && /\d/.test(text));
    fc.assert(
      fc.property(fc.array(word, { minLength: 60, maxLength: 60 }), (words) => {
        const found = findEncodedCredentials(`ValueError: ${words.join(' ')}`);
        expect(found).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
});
