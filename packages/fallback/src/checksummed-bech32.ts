/**
 * Bech32 and bech32m (BIP-173, BIP-350): a human-readable prefix, `1`, then data in a 32-symbol
 * alphabet ending in a 30-bit checksum. Addresses (`bc1…`, `cosmos1…`, `npub1…`) are public and
 * sit in code, configs and explorer URLs; a random token passes the checksum about once in 2^30.
 */
const alphabet = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
const bech32Constant = 1;
const bech32mConstant = 0x2bc830a3;

/** The prefix of `value` when it is lower-case bech32 or bech32m with a valid checksum. */
export function checksummedBech32Prefix(value: string): string | undefined {
  const separator = value.lastIndexOf('1');
  if (separator < 1 || separator > 83 || value.length - separator - 1 < 6) return undefined;
  const prefix = value.slice(0, separator);
  if (!/^[a-z]+$/.test(prefix)) return undefined;
  let checksum = 1;
  const feed = (symbol: number) => {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ symbol;
    for (let bit = 0; bit < 5; bit++) if ((top >>> bit) & 1) checksum ^= generators[bit]!;
  };
  for (let index = 0; index < prefix.length; index++) feed(prefix.charCodeAt(index) >> 5);
  feed(0);
  for (let index = 0; index < prefix.length; index++) feed(prefix.charCodeAt(index) & 31);
  for (let index = separator + 1; index < value.length; index++) {
    const symbol = alphabet.indexOf(value[index]!);
    if (symbol < 0) return undefined;
    feed(symbol);
  }
  checksum >>>= 0;
  return checksum === bech32Constant || checksum === bech32mConstant ? prefix : undefined;
}
