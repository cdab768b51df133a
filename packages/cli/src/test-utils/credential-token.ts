import fc from 'fast-check';

/** `length` characters drawn uniformly from `alphabet` (no bias: every body is a plausible token). */
export const characters = (alphabet: string, length: number) =>
  fc
    .array(
      fc.noBias(fc.integer({ min: 0, max: alphabet.length - 1 })).map((at) => alphabet[at]!),
      { minLength: length, maxLength: length },
    )
    .map((picked) => picked.join(''));

const alphanumeric = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A credential of a shape the redactor knows: a GitHub token, an OpenAI project key, an AWS key id. */
export const credentialToken = fc.oneof(
  characters(alphanumeric, 36).map((rest) => `ghp_${rest}`),
  characters(alphanumeric, 48).map((rest) => `sk-proj-${rest}`),
  characters('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16).map((rest) => `AKIA${rest}`),
);
