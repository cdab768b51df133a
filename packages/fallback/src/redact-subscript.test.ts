import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

const alnum = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const value = () => Array.from({ length: 18 }, () => alnum[randomInt(alnum.length)]).join('');

describe('secrets assigned by subscript', () => {
  const containers = ['ENV', 'os.environ', 'process.env', 'config', 'settings.secrets', '$_ENV'];
  const keys = ['DB_PASSWORD', 'api_token', 'clientSecret', 'Authorization'];
  it('redacts a literal under a secret-named subscript, any container and quote', () => {
    for (const container of containers)
      for (const key of keys)
        for (const quote of ["'", '"']) {
          const secret = value();
          const line = `${container}[${quote}${key}${quote}] = ${quote}${secret}${quote}`;
          expect(redactSecrets(line).text, line).not.toContain(secret);
        }
  });

  it('leaves a variable or a call on the right-hand side alone', () => {
    for (const container of containers)
      for (const key of keys)
        for (const right of ['cookieHeader', 'secretValue', 'readSecret(name)', 'args.token']) {
          const line = `${container}['${key}'] = ${right}`;
          expect(redactSecrets(line).text).toBe(line);
        }
  });
});
