import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets } from './credential-families.js';
import { redactSecrets } from './index.js';
import { oneOf, randomValue } from './test-utils/generated-values.js';

// Issue 11: a short random value (10 to 12 letters and digits) under a key naming a token
// (`TOKEN=`, `API_TOKEN=`, `<ApiKey>…</ApiKey>`, `ApiKey="…"`) leaked about 60 % of the time: the
// keyed judge wanted 12+ characters of measured entropy for such keys.
const positions: Array<(value: string) => string> = [
  (value) => `TOKEN=${value}`,
  (value) => `export API_TOKEN=${value}`,
  (value) => `<ApiKey>${value}</ApiKey>`,
  (value) => `<add ApiKey="${value}" />`,
  (value) => `{"token": "${value}"}`,
  (value) => `access_token: ${value}`,
];
const position = oneOf(positions);

describe('short random values under token keys', () => {
  it('at most one in eight random 10-12 character values leaks, in every position', () => {
    // Measured over 40 seeds of 1,000 draws: 2.4-5.2 % leak (values whose letters happen to read
    // as a word or whose digits fall in one run); before the change 59-65 %.
    let drawn = 0;
    let leaked = 0;
    fc.assert(
      fc.property(randomValue([alphabets.alnum], 10, 12), position, (value, place) => {
        if (!/[A-Za-z]/.test(value) || !/\d/.test(value)) return;
        drawn++;
        if (redactSecrets(place(value)).text.includes(value)) leaked++;
      }),
      { numRuns: 1000 },
    );
    expect(drawn).toBeGreaterThan(600);
    expect(leaked / drawn).toBeLessThan(0.125);
  });

  it('names, versions, placeholders and code under the same keys stay', () => {
    const kept = [
      'TOKEN=build2024x',
      'API_TOKEN=getToken12',
      '<ApiKey>myApiKey12</ApiKey>',
      'TOKEN=ipv4addr22',
      'TOKEN=v2beta1abc',
      'TOKEN=node18x64a',
      'TOKEN=ReactDom18x',
      'TOKEN=abc1234567',
      'API_TOKEN=MyPassWord12',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell template in the text under test
      'TOKEN=${TOKEN_2024}',
      'TOKEN=xxxxxxxxx1',
      'token: getToken()',
      '<ApiKey>your-key-1</ApiKey>',
    ];
    for (const text of kept) expect(redactSecrets(text).text).toBe(text);
  });
});
