import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

// Keyword rules must not fire on code: every shape below is written with identifiers generated at
// run time, under every secret-like key name, so no single spelling is what passes.
const keyNames = [
  'password',
  'Password',
  'secret',
  'Secret',
  'token',
  'apiKey',
  'api_key',
  'auth_token',
  'session',
  'sessionKey',
  'credentials',
  'signature',
  'Label',
];
const identifier = fc.stringMatching(/^[a-z][a-zA-Z]{2,11}$/);
const member = fc
  .tuple(identifier, identifier)
  .map(([object, property]) => `${object}.${property}`);

const codeShapes: Array<fc.Arbitrary<(key: string) => string>> = [
  // JSX / Svelte / Phoenix template expressions.
  fc.tuple(identifier, identifier).map(
    ([fn, field]) =>
      (key: string) =>
        `<span>${key}: {String.${fn}(@${field}, 0..7)}</span>`,
  ),
  member.map((expression) => (key: string) => `<Field ${key}={${expression}} />`),
  member.map((expression) => (key: string) => `${key}: {${expression}}`),
  // Function calls and member access.
  identifier.map((fn) => (key: string) => `${key}: ${fn}()`),
  fc.tuple(identifier, identifier).map(
    ([fn, arg]) =>
      (key: string) =>
        `${key} = ${fn}(${arg})`,
  ),
  member.map((expression) => (key: string) => `${key}: ${expression}`),
  member.map((expression) => (key: string) => `${key}: ${expression}?.split(" ")[1]`),
  // Shell, JS and Ruby interpolation; format strings.
  identifier.map((name) => (key: string) => `${key}=\${${name.toUpperCase()}}`),
  identifier.map((name) => (key: string) => `${key}: \`\${${name}}\``),
  identifier.map((name) => (key: string) => `${key} = "#{${name}}"`),
  identifier.map((name) => (key: string) => `${key} = "%(${name})s"`),
  identifier.map((name) => (key: string) => `${key}: {{ .Values.${name} }}`),
  // Dependency versions and names made of words.
  fc.tuple(fc.nat(40), fc.nat(999), fc.nat(20)).map(
    ([major, minor, patch]) =>
      (key: string) =>
        `"@scope/${key}-providers": "^${major}.${minor}.${patch}"`,
  ),
  fc.tuple(identifier, identifier).map(
    ([a, b]) =>
      (key: string) =>
        `${key}: '${a.toLowerCase()}-${b.toLowerCase()}'`,
  ),
  fc.tuple(identifier, identifier).map(
    ([a, b]) =>
      (key: string) =>
        `**${key} = Multi-${a.toLowerCase()}-${b.toLowerCase()}s**`,
  ),
  // A command line under a script key.
  identifier.map((name) => (key: string) => `"validate:${key}": "node scripts/${name}.js"`),
];

describe('keyword rules leave code alone', () => {
  it('template expressions, calls, member access, interpolation, versions and word names', () => {
    fc.assert(
      fc.property(fc.constantFrom(...keyNames), fc.oneof(...codeShapes), (key, shape) => {
        const text = shape(key);
        expect(redactSecrets(text).findings, text).toEqual([]);
      }),
      { numRuns: 600 },
    );
  });

  it('UUIDs under session keys are ids; a spaced value under a token key is prose', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.uuid(), (a, b) => {
        const text = `{"oldSession": "${a}", "newSession": "${b}", "sessionId": "${a}"}`;
        expect(redactSecrets(text).findings).toEqual([]);
      }),
    );
    expect(redactSecrets('tool --api-key key "optimize performance"').findings).toEqual([]);
    expect(redactSecrets('user_id=Bearer dev-codemie-user').findings).toEqual([]);
  });

  it('leaves signatures and image bytes in JSON alone, but not a key in a long base64 blob', () => {
    const random = (length: number, seed: number) => {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      // xorshift32: a seeded, uniform stream of base64 characters.
      let state = seed | 1;
      let out = '';
      for (let index = 0; index < length; index++) {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        out += alphabet[(state >>> 0) % 64];
      }
      return out;
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.integer({ min: 60, max: 3000 }),
        (seed, length) => {
          const blob = random(length, seed);
          for (const text of [
            `{"type":"thinking","thinking":"plan","signature":"${blob}"}`,
            `{"type":"image","mediaType":"image/png","data":"${blob}"}`,
            `{"type":"reasoning","encrypted_content":"${blob}"}`,
          ]) {
            // A blob that happens to begin like a token with a short prefix (`AP5…`, about once in
            // 16,000) is reported by design: a token at the start of such a value is still one.
            const blobStart = text.indexOf(blob);
            const inside = redactSecrets(text).findings.filter(
              (finding) => finding.start !== blobStart,
            );
            expect(inside, text.slice(0, 60)).toEqual([]);
          }
        },
      ),
      { numRuns: 100 },
    );
    const pem = `-----BEGIN ${'PRIVATE'} KEY-----\n${random(1200, 7)}\n-----END ${'PRIVATE'} KEY-----\n`;
    const encoded = btoa(pem);
    expect(redactSecrets(`{"blob":"${encoded}"}`).text).not.toContain(encoded.slice(0, 40));
  });

  it('still redacts literal secrets under the same keys', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('password', 'secret', 'api_key', 'auth_token'),
        // Uniform draws: the default bias repeats a few letters (`opApeppoAoaaaA0Aaaaa`), which
        // reads as a placeholder and is left alone on purpose.
        fc
          .noBias(fc.stringMatching(/^[A-Za-z0-9]{20,32}$/))
          .filter((value) => /\d/.test(value) && /[A-Z]/.test(value) && /[a-z]/.test(value)),
        (key, value) => {
          expect(redactSecrets(`${key} = "${value}"`).text).not.toContain(value);
        },
      ),
      { numRuns: 200 },
    );
  });
});
