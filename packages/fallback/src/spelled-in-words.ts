import { isWordShaped } from './secret-heuristics.js';

// Consonant pairs English words hold (`ch`, `st`, `ng`, `ld`, `tl` in `exactly`); a random run
// of letters pairs consonants at random, and most of the 400 pairs are none of these.
const consonantPairs = new Set(
  (
    'bb bl br bs by cc ch ck cl cr ct cy dd dl dr ds dy ff fl fr ft fy gg gh gl gn gr gs gy hl hm hn hr ' +
    'ht hy kl kn ks ky lb lc ld lf lk ll lm ln lp ls lt lv ly mb mm mn mp ms my nc nd ng nk nn ns nt nv ' +
    'ny ph pl pp pr ps pt py rb rc rd rf rg rk rl rm rn rp rr rs rt rv ry sc sh sk sl sm sn sp ss st sw ' +
    'sy tc th tl tr ts tt tw ty vy wl wn wr ws xt zy'
  ).split(' '),
);

/**
 * True when every pair of neighbouring consonants in `letters` is one English words hold, and its
 * vowels do not pile up as random draws do (`aeoii`, `uu`): three in a row other than `eau`/`iou`,
 * or a doubled `a`, `i` or `u`.
 */
export function pairsAreEnglish(letters: string): boolean {
  const lower = letters.toLowerCase();
  if (/aa|ii|uu/.test(lower) || /[aeiou]{3}/.test(lower.replace(/eau|iou/g, '-'))) return false;
  for (let index = 1; index < lower.length; index++) {
    const pair = lower.slice(index - 1, index + 1);
    if (/[aeiou]/.test(pair)) continue;
    if (!consonantPairs.has(pair)) return false;
  }
  return true;
}

// Runs of letters as a name spells them: a lower-case word, a capitalised one, or capitals
// standing alone (`hellOworld` gives `hell`, `Oworld`; `ELse` gives `E`, `Lse`).
const letterRuns = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g;

/**
 * True when a token body is spelled in words someone typed for an example
 * (`Need5_T00-be-exactly-40-chars--ELse_failing`, `hellOworld380_testin`): three or more runs of four
 * or more letters read as words (pronounceable, with a word's onset), and those runs hold three
 * fifths of the body's letters and digits. A generated body breaks into short runs at digits,
 * separators and case changes, and its longer runs are mostly unpronounceable: measured on
 * 10^6 random bodies of each of the alphabets issuers use (mixed-case alphanumeric, base64url,
 * lower-case alphanumeric, base32) at 16 to 64 characters, none reads so (see the test).
 */
export function isSpelledInWords(body: string): boolean {
  let alphanumerics = 0;
  for (let index = 0; index < body.length; index++) {
    const code = body.charCodeAt(index);
    if ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122)) {
      alphanumerics++;
    }
  }
  if (alphanumerics < 12) return false;
  let words = 0;
  let wordCharacters = 0;
  for (const run of body.match(letterRuns) ?? []) {
    if (run.length >= 4 && isWordShaped(run) && pairsAreEnglish(run)) {
      words++;
      wordCharacters += run.length;
    }
  }
  return words >= 3 && wordCharacters * 5 >= alphanumerics * 3;
}
