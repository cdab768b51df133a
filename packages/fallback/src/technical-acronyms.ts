/**
 * Name parts that algorithm, protocol and format constants are glued from in capitals
 * (`SHA256WITHRSAANDMGF1`, `TLS13AES128GCMSHA256`, `ASTC10X10SRGBBLOCK`). Ten random capitals
 * spell these for most of their letters about never (measured: 0 of 200,000 AKIA-shaped ids at 70 %).
 */
const acronyms = new Set(
  (
    'SHA MD RSA DSA ECDSA ECDH ECDHE DHE DH AES DES EDE CBC GCM CCM CTR ECB OFB CFB SIV OCB XTS ' +
    'HMAC KMAC CMAC GMAC MGF OAEP PSS PKCS PBKDF HKDF ARGON SCRYPT BLAKE KECCAK SHAKE CHACHA POLY ' +
    'SECP SECT CURVE ED WITH AND NONE TLS SSL DTLS NIST FIPS UTF UCS ISO IEC IEEE RFC RGB RGBA ' +
    'BGRA ARGB YUV SRGB UNORM SNORM UINT SINT SFLOAT INT FLOAT BLOCK ASTC DXT PVRTC HTTP HTTPS TCP ' +
    'UDP IPV DNS QUIC SMTP SSH GRPC ARM AMD CPU GPU USB PCI PCIE DDR LPDDR SPI UART GPIO ADC DAC ' +
    'DMA IRQ HDMI MIPI'
  ).split(' '),
);
const longest = 6;

/** Share of the capitals in `value` that runs of the acronyms above cover (best split of each run). */
export function acronymShare(value: string): number {
  let letters = 0;
  let covered = 0;
  for (const run of value.match(/[A-Z]+/g) ?? []) {
    letters += run.length;
    // best[i]: most letters of run[0, i) the acronyms cover.
    const best = new Array<number>(run.length + 1).fill(0);
    for (let end = 1; end <= run.length; end++) {
      best[end] = best[end - 1]!;
      for (let length = 2; length <= Math.min(longest, end); length++) {
        if (acronyms.has(run.slice(end - length, end))) {
          best[end] = Math.max(best[end]!, best[end - length]! + length);
        }
      }
    }
    covered += best[run.length]!;
  }
  return covered / Math.max(1, letters);
}
