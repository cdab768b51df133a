import fc from 'fast-check';
import { credentialFamilies, seededRandom } from '../credential-families.js';

/**
 * A whole token of a documented family, drawn at test time, with its family name; families whose
 * value `skip` turns down (a whole URL where a file name goes) are drawn again.
 */
export function familyToken(
  skip: (token: string, family: string) => boolean = () => false,
): fc.Arbitrary<{ family: string; token: string }> {
  return fc
    .tuple(
      fc.noBias(fc.integer({ min: 0, max: credentialFamilies.length - 1 })),
      fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 })),
    )
    .map(([at, seed]) => {
      const credential = credentialFamilies[at]!;
      return { family: credential.family, token: credential.make(seededRandom(seed)) };
    })
    .filter(({ family, token }) => !skip(token, family));
}

/** Twelve characters from the middle of `token`: left in a redacted text only if it leaked. */
export const middleOf = (token: string) => token.slice(token.length / 2 - 6, token.length / 2 + 6);
