import { describe } from 'vitest';
import { itStaysLinear } from './test-utils/generated-values.js';

/**
 * The run after a gluing escape (`\n`, `%2F`, `\u0026`) is scanned once more on its own; it now
 * runs to the next blank, quote or escape, so it takes punctuation a token may hold (`!`, `{`, `,`).
 * The runs stay disjoint, and a token is cut at its first ellipsis in one pass: many escapes, one
 * escape before a long punctuated run, and ellipses between or inside tokens cost linear time.
 */
const shapes: Record<string, (count: number) => string> = {
  'escapes each before a punctuated run': (count) =>
    '\\n00DAb3Cd4Ef5Gh6Ij!Kl7,{Mn8}:'.repeat(count),
  'one escape before a long punctuated run': (count) => `%2F${'a!b,c{d}e;'.repeat(count)}`,
  'escapes glued to escapes': (count) => '\\n%2F\\u0026'.repeat(count),
  'token bodies cut by ellipses': (count) => 'ghp_Zq8sPl0wKmXy3Tb7Rn...next '.repeat(count),
  'one body of ellipses': (count) => `sk_live_Zq8sPl0wKmXy3Tb7Rn${'...a'.repeat(count)}`,
  'emphasis around near-miss tokens': (count) => ' _AKIAZQ8SPL0WKMXY3TB_ '.repeat(count),
};

describe('attack: runs after escapes, ellipses and emphasis stay linear', () => {
  itStaysLinear(shapes);
});
