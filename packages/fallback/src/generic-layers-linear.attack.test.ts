import { describe } from 'vitest';
import { itStaysLinear } from './test-utils/generated-values.js';

/**
 * The issuer-free layers (basic-auth flags, signed URLs' signatures, netrc entries) read untrusted
 * text with one regex pass each: many flags, entries or signatures, unclosed quotes, and long runs
 * after a flag must cost time linear in the text.
 */
const shapes: Record<string, (count: number) => string> = {
  'basic-auth flags with unclosed quotes': (count) => 'tool -u "bob:'.repeat(count),
  'basic-auth flags with found passwords': (count) => 'tool --user bob:Zq8sPl0wKm '.repeat(count),
  'a flag then one long word': (count) => `tool -u bob:${'a"b'.repeat(count)}`,
  'netrc entries without a password': (count) => 'machine h.example.com login bob '.repeat(count),
  'netrc entries with passwords': (count) =>
    'machine h login bob password Zq8sPl0wKm\n'.repeat(count),
  'signed-URL names without a value': (count) => '&sig=&signature=&hmac='.repeat(count),
  'signatures in one query': (count) => '&signature=uN6YuSXOBpX0qO4yEcA3BIXsC5gJ81Pj'.repeat(count),
};

describe('attack: issuer-free credential layers stay linear', () => {
  itStaysLinear(shapes);
});
