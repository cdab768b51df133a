import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

const alnum = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const secret = () => Array.from({ length: 20 }, () => alnum[randomInt(alnum.length)]).join('');

describe('JSON held in JSON strings', () => {
  it('redacts keyed secrets at every nesting depth and keeps everything else byte for byte', () => {
    for (let round = 0; round < 30; round++) {
      const value = secret();
      let document: unknown = { user: 'bob', client_secret: value, port: 5432 };
      const depth = 1 + (round % 3);
      for (let level = 0; level < depth; level++) document = { body: JSON.stringify(document) };
      const text = JSON.stringify(document);
      const out = redactSecrets(text).text;
      expect(out).not.toContain(value);
      // Whichever rule names it (a draw may open like an issuer's key, `AKC…`), it is one value.
      expect(out.replace(/\[REDACTED:[\w-]+\]/, value)).toBe(text);
    }
  });

  it('unescaped strings of ordinary code stay untouched', () => {
    const text = JSON.stringify({
      stdout: JSON.stringify({ script: 'const token = getToken();', note: 'password: required' }),
    });
    expect(redactSecrets(text).text).toBe(text);
  });
});
