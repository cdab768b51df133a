import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from './credential-families.js';
import { redactSecrets } from './index.js';

// Freenet keys drawn at test time: 32 random bytes for the routing and the crypto key each, in
// Freenet's base64 (`~` and `-` for `+` and `/`, no padding), then the extra bytes. A request key
// sets no insert flag (`AQACAAE`); the insert key of the same site does (`AQECAAE`).
const key32 = fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 })).map((seed) => {
  const random = seededRandom(seed);
  const bytes = Buffer.from(Array.from({ length: 32 }, () => Math.floor(random.next() * 256)));
  return bytes.toString('base64').replace(/=+$/, '').replace(/\+/g, '~').replace(/\//g, '-');
});
const site = fc.constantFrom('WebOfTrust/2', 'mysite/14/', 'index.html', 'Freetalk/0');
const forms = [
  (uri: string) => `<Trust Identity="${uri}" Value="100"/>`,
  (uri: string) => `Fetch freenet:${uri} from the node.`,
  (uri: string) => `{"requestURI": "${uri}"}`,
];
const form = fc.noBias(fc.integer({ min: 0, max: forms.length - 1 })).map((at) => forms[at]!);

describe('Freenet keys', () => {
  it('a content key or a request key names content to fetch: left alone', () => {
    fc.assert(
      fc.property(
        key32,
        key32,
        fc.constantFrom('SSK', 'USK', 'CHK'),
        site,
        form,
        (routing, crypto, type, path, wrap) => {
          const extra = type === 'CHK' ? 'AAMC--8' : 'AQACAAE';
          const text = wrap(`${type}@${routing},${crypto},${extra}/${path}`);
          expect(redactSecrets(text).findings, text).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('an insert key carries the private key: its routing part is redacted', () => {
    // The generic layer judges the random parts (statistical: a random run reads as words now and
    // then), so the insert keys are a rate; the exemption must never apply to them.
    let redacted = 0;
    fc.assert(
      fc.property(
        key32,
        key32,
        fc.constantFrom('SSK', 'USK'),
        site,
        form,
        (routing, crypto, type, path, wrap) => {
          const text = wrap(`${type}@${routing},${crypto},AQECAAE/${path}`);
          if (!redactSecrets(text).text.includes(routing)) redacted++;
        },
      ),
      { numRuns: 200 },
    );
    expect(redacted).toBeGreaterThanOrEqual(185);
  });
});
