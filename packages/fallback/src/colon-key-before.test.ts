import { describe, expect, it } from 'vitest';
import { colonKeyBefore } from './colon-key-before.js';

const at = (text: string, key: string) => colonKeyBefore(text, text.indexOf(key));

describe('colonKeyBefore', () => {
  it('gives the plain segments between the chain’s first name and the key, each with its colon', () => {
    expect(at('aaa:1:pat:aab:dabefcgh', 'pat')).toBe('1:');
    expect(at('KEYS dek:0:dsn:aa:defab:cgh', 'dsn')).toBe('0:');
    expect(at('db.internal:5432:orders:token:x', 'token')).toBe('5432:orders:');
    expect(at('cache:*:v2x:user:1:token', 'token')).toBeUndefined(); // `v2x` is no plain segment
    expect(at('app:token:x', 'token')).toBe('');
  });
  it('gives nothing when no colon glues the key to a name, or the chain opens oddly', () => {
    expect(at('token:abc', 'token')).toBeUndefined();
    expect(at('KEYS token:abc', 'token')).toBeUndefined();
    expect(at('app:Pw0rd:1:pat:aab', 'pat')).toBeUndefined(); // a drawn part inside
    expect(at('12:30:pat:aab', 'pat')).toBeUndefined(); // a time, not a name, opens it
    expect(at(':1:pat:aab', 'pat')).toBeUndefined();
    expect(at(`a${':1'.repeat(20)}:pat:x`, 'pat')).toBeUndefined(); // past the bound: unread
  });
});
