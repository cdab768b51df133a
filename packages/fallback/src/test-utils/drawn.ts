import fc from 'fast-check';

/**
 * Strings of `minLength`–`maxLength` characters of `characters`, each drawn uniformly: fast-check's
 * bias towards small values repeats the first character (`AAAA…`), which no generator of secrets
 * emits and which the redactor rightly keeps as filler.
 */
export const drawn = (characters: string, minLength: number, maxLength: number) =>
  fc
    .noBias(fc.array(fc.integer({ min: 0, max: characters.length - 1 }), { minLength, maxLength }))
    .map((indexes) => indexes.map((index) => characters[index]).join(''));
