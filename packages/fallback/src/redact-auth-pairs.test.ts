import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

const characters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#%^*_+=.~-';
// Drawn without bias: biased draws repeat one character, which reads as a placeholder by design.
const password = fc
  .noBias(
    fc.array(fc.integer({ min: 0, max: characters.length - 1 }), { minLength: 6, maxLength: 20 }),
  )
  .map((indexes) => indexes.map((index) => characters[index]).join(''))
  .filter((value) => {
    const core = value.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
    // Starting with a letter or digit: `%NAME%`, `$NAME` and `{name}` are template slots.
    return (
      /^[A-Za-z0-9]/.test(value) && new Set(core).size >= 4 && !/\*{3,}|\.{3,}|x{4,}/i.test(value)
    );
  });
const user = fc
  .noBias(
    fc.array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), { minLength: 3, maxLength: 8 }),
  )
  .map((letters) => letters.join(''));

describe('user and password pairs given as two literals in code', () => {
  it('are redacted (property)', () => {
    const forms = [
      (u: string, p: string) => `requests.get(url, auth=("${u}", "${p}"))`,
      (u: string, p: string) => `httpx.Client(auth=('${u}', '${p}'))`,
      (u: string, p: string) => `Elasticsearch(hosts, http_auth=("${u}", "${p}"))`,
      (u: string, p: string) => `Elasticsearch(hosts, basic_auth=('${u}', '${p}'))`,
      (u: string, p: string) => `session.auth = HTTPBasicAuth("${u}", "${p}")`,
      (u: string, p: string) => `auth = aiohttp.BasicAuth('${u}', '${p}')`,
      (u: string, p: string) => `requests.get(url, auth=HTTPDigestAuth("${u}", "${p}"))`,
    ];
    fc.assert(
      fc.property(fc.nat({ max: forms.length - 1 }), user, password, (form, name, secret) => {
        fc.pre(!secret.includes(name));
        expect(redactSecrets(forms[form]!(name, secret)).text).not.toContain(secret);
      }),
      { numRuns: 500 },
    );
  });

  it('leave variables, environment reads and placeholders alone', () => {
    const kept = [
      'requests.get(url, auth=(user, password))',
      'auth = HTTPBasicAuth(os.environ["USER"], os.environ["PASS"])',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell template in the text under test
      'auth=("${USER}", "${PASSWORD}")',
      'auth=("user", "<password>")',
      'BasicAuth("user", "{password}")',
      "auth: ['read', 'write']",
      'auth = ["none", "basic", "bearer"]',
    ];
    for (const text of kept) expect(redactSecrets(text).findings, text).toEqual([]);
  });
});
