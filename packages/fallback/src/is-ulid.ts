/**
 * ULIDs (github.com/ulid/spec): 26 characters of Crockford base32, the first ten a 48-bit
 * millisecond timestamp and the rest random. Systems print them as record ids after a name
 * (`order.01hq…`, `events/01HQ…`), so after a prefix they read as a generated body.
 */

const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ulidShape = /^[0-9A-HJKMNP-TV-Z]{26}$/i;
const hexOnly = /^[0-9a-f]+$/i;
// From 2016 (the spec's first release) to 2031: fixed, so that redaction stays a function of the
// text alone. A random Crockford body of 26 has its first ten characters in this window about
// once in 600 draws (a random base36 body of 26 is Crockford at all about once in 20).
const firstMillisecond = Date.UTC(2016, 0, 1);
const lastMillisecond = Date.UTC(2031, 0, 1);

/** True when `value` is a ULID minted between 2016 and 2031, in either case. */
export function isUlid(value: string): boolean {
  // Sixteen random Crockford characters hold a letter past `F` but once in 65,000 draws: a body
  // of hex alone is hex (a vendor's short hex body), whatever it could also spell.
  if (!ulidShape.test(value) || hexOnly.test(value)) return false;
  let milliseconds = 0;
  const upper = value.toUpperCase();
  for (let index = 0; index < 10; index++) {
    milliseconds = milliseconds * 32 + crockford.indexOf(upper[index]!);
  }
  return milliseconds >= firstMillisecond && milliseconds < lastMillisecond;
}
