import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

const pem = () =>
  generateKeyPairSync('ec', { namedCurve: 'P-384' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();

describe('private keys whose BEGIN line was cut off', () => {
  it('redacts the body inside a JSON string (escaped line breaks), wherever the cut falls', () => {
    const key = pem();
    const lines = key.trim().split('\n').slice(1, -1);
    for (let cut = 30; cut < key.length - 60; cut += 17) {
      const text = JSON.stringify({ stdout: `…${key.slice(cut)}` });
      const out = redactSecrets(text).text;
      expect(lines.filter((line) => line.length >= 24 && out.includes(line))).toEqual([]);
      expect(out).toContain('[REDACTED:private-key]');
    }
  });

  it('leaves base64 lines before a certificate END line, and text around the key, alone', () => {
    const body = randomBytes(96)
      .toString('base64')
      .match(/.{1,64}/g)!
      .join('\n');
    const certificate = `${body}\n-----END CERTIFICATE-----\n`;
    expect(redactSecrets(certificate).text).toBe(certificate);
    const key = pem();
    const text = `before\n${key.slice(40)}after: kept`;
    const out = redactSecrets(text).text;
    expect(out.startsWith('before\n')).toBe(true);
    expect(out.endsWith('\nafter: kept')).toBe(true);
  });
});
