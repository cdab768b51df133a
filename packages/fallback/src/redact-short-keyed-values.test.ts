import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { oneOf } from './test-utils/generated-values.js';

// Short values (10 to 12 letters and digits) under a key naming a token are judged as before: a
// rule taking random-looking ones, tried this session, closed a leak (about 60 % of random values
// under `TOKEN=`, `<ApiKey>`) but redacted product codes, nanoids and video ids under `key`
// (69-98 % of generated ones) and was withdrawn. What such keys hold in ordinary work stays.
const positions: Array<(value: string) => string> = [
  (value) => `TOKEN=${value}`,
  (value) => `export API_TOKEN=${value}`,
  (value) => `<ApiKey>${value}</ApiKey>`,
  (value) => `<add ApiKey="${value}" />`,
  (value) => `{"token": "${value}"}`,
  (value) => `access_token: ${value}`,
];
const _position = oneOf(positions);

describe('short random values under token keys', () => {
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
