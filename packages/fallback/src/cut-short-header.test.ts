import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets, pick, seededRandom } from './credential-families.js';
import { redactSecrets } from './index.js';
import { familyToken, middleOf } from './test-utils/family-tokens.js';

// A self-describing token (an issuer's tag, then base64url of JSON) shown cut short by an ellipsis
// before its first value shows its header alone (`{"signInAddress":"https:`): no secret is in
// view, so it stays. Anything generated in view (a random value, a password, a family's token, in
// a value's or a key's slot) keeps the token redacted. Values are drawn at test time.

const seeds = fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 }));
const ellipsis = fc.constantFrom('...', '\u2026');
// 1Password's documented prefix, and tags no rule knows (the generic layer judges those).
const tags = ['ops_', 'tok_', 'svc_', 'acme_'];
// Words a format's field names are made of, joined in camel case at test time. (A word with a
// consonant pair outside the rule's English list, `type`: `yp`, reads as drawn and stays redacted.)
const words = [
  'sign',
  'address',
  'user',
  'auth',
  'method',
  'email',
  'account',
  'service',
  'region',
  'host',
  'name',
  'version',
  'issuer',
  'created',
  'device',
  'server',
  'domain',
  'scope',
  'client',
];
const schemes = ['https:', 'https://', 'http://', ''];
const positions = [
  (token: string) => token,
  (token: string) => `export SERVICE_ACCOUNT_TOKEN=${token}`,
  (token: string) => `The token starts like ${token} and goes on.`,
  (token: string) => `{"example": "${token}"}`,
  (token: string) => `Set \`${token}\` in the dashboard.`,
];

// Azure SAS URLs: only their signature is the secret, and it is redacted alone.
const tokens = familyToken((_, family) => family === 'azure-sas');

const draw = (random: ReturnType<typeof seededRandom>, count: number) =>
  Math.floor(random.next() * count);

/** A field name of one to three words in camel case (`signInAddress`). */
function fieldName(random: ReturnType<typeof seededRandom>): string {
  const parts = Array.from(
    { length: 1 + draw(random, 3) },
    () => words[draw(random, words.length)]!,
  );
  return parts
    .map((part, at) => (at === 0 ? part : part[0]!.toUpperCase() + part.slice(1)))
    .join('');
}

/** JSON text that opens with field names and a scheme: `{"signInAddress":"https:`. */
function header(random: ReturnType<typeof seededRandom>): string {
  const keys = Array.from({ length: 1 + draw(random, 3) }, () => fieldName(random));
  return `{${keys.map((key) => `"${key}":`).join('{')}"${schemes[draw(random, schemes.length)]}`;
}

/** `tag` and the base64url of `json`, cut after `cut` characters. */
const cutToken = (tag: string, json: string, cut: number) =>
  `${tag}${Buffer.from(json).toString('base64url').slice(0, cut)}`;

describe('a self-describing token cut short before its values', () => {
  it('stays when only its header is in view (property)', () => {
    fc.assert(
      fc.property(seeds, ellipsis, (seed, dots) => {
        const random = seededRandom(seed);
        let json = header(random);
        // Long enough to be judged a token at all: 24+ base64 characters.
        while (json.length < 18) json = `{"${fieldName(random)}":{${json.slice(1)}`;
        const tag = tags[draw(random, tags.length)]!;
        const token = cutToken(tag, json, Math.ceil((json.length * 4) / 3));
        const text = positions[draw(random, positions.length)]!(`${token}${dots}`);
        expect(redactSecrets(text).text).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  // After 1Password's documented prefix, where the old code redacts every one of these (a tag no
  // rule knows is left by the generic layer when its base64 decodes to text, before this change).
  it('stays redacted when a generated value, a password or any family token is in view, in any slot, cut anywhere after it (attack, >= 40 seeds)', () => {
    const alphabetsUsed = [alphabets.alnum, alphabets.lowerAlnum, alphabets.base64url];
    const symbols = `${alphabets.alnum}!#$%&*+-.=?@^_~`;
    let leaks = 0;
    let tries = 0;
    fc.assert(
      fc.property(seeds, ellipsis, tokens, (seed, dots, { token: familyValue }) => {
        const random = seededRandom(seed);
        const secrets = [
          pick(random, alphabetsUsed[draw(random, 3)]!, 16 + draw(random, 24)),
          // A random password: letters, digits and symbols, 8 to 20 long.
          pick(random, symbols, 8 + draw(random, 13)).replace(/["\\]/g, '#'),
          familyValue,
        ];
        for (const secret of secrets) {
          const key = fieldName(random);
          const shapes = [
            `${header(random)}${secret}"`,
            `{"${key}":"${secret}"}`,
            `{"${key}":["${secret}"]}`,
            `{"${key}":{"${secret}":1}}`,
            `{"${key}":"https://${secret}"}`,
            `{"${key}":"${secret.slice(0, 4)}:${secret.slice(4)}"}`,
          ];
          const json = shapes[draw(random, shapes.length)]!;
          // Cut after 8+ characters of a drawn secret are encoded, anywhere up to the end; a
          // family's token whole (a webhook URL's host is not its secret).
          const after = json.indexOf(secret.slice(4));
          const seen = secret === familyValue ? after + secret.length - 4 : after + 8;
          const from = Math.ceil((seen * 4) / 3) + 4;
          const full = Buffer.from(json).toString('base64url').length;
          const cut = Math.min(full, from + draw(random, Math.max(1, full - from)));
          const token = cutToken('ops_', json, cut);
          const text = positions[draw(random, positions.length)]!(`${token}${dots}`);
          tries++;
          if (redactSecrets(text).text.includes(token)) leaks++;
        }
      }),
      { numRuns: 200 },
    );
    expect(tries).toBeGreaterThanOrEqual(600);
    expect(leaks).toBe(0);
  });

  // Glued right after the ellipsis (`ops_<header>...s.<token>`) a token is left by the code before
  // this change too: a run holding `...` reads as a placeholder.
  it('leaves a token of any family next to an exempt header redacted (appended, prepended)', () => {
    fc.assert(
      fc.property(seeds, ellipsis, tokens, (seed, dots, { token }) => {
        const random = seededRandom(seed);
        const json = `{"${fieldName(random)}":{${header(random).slice(1)}`;
        const exempt = cutToken('ops_', json, Math.ceil((json.length * 4) / 3));
        for (const text of [
          `${exempt}${dots} ${token}`,
          `${token} ${exempt}${dots}`,
          `${token}${dots}`,
          `token=${token}${dots}`,
        ]) {
          expect(redactSecrets(text).text).not.toContain(middleOf(token));
        }
      }),
      { numRuns: 300 },
    );
  });
});
