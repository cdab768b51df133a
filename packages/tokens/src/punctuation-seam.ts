const punctuationPattern = /[^\s\p{L}\p{M}\p{N}]/u;

/** Whether the code unit is punctuation or a symbol to o200k's split pattern (`[^\s\p{L}\p{N}]`). */
function isPunctuation(code: number): boolean {
  if (code < 128)
    return !(
      code <= 32 ||
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122)
    );
  // A surrogate half (an astral character cut by the unit's bounds) is not told apart here.
  return !(code >= 0xd800 && code <= 0xdfff) && punctuationPattern.test(String.fromCharCode(code));
}

/**
 * Whether copies of the unit of `period` code units at `start` of `text` meet in one punctuation
 * run, cut apart from the letters or numbers the unit also holds: the unit opens and closes with
 * punctuation. Such a copy alone ends in half a piece whose other half opens the next copy, and
 * BPE cuts the joined run differently (`&#123;&` alone is `&#` `123` `;&`, 3 tokens, where each
 * further copy is `123` `;&&#`, 4; `&amp;` alone `&amp` `;`, 2 tokens against 3 priced). A unit
 * that opens or closes with a letter joins the next copy in a letter piece (`the,` → `,the`),
 * which the features read as one word with punctuation inside and price low; a unit of punctuation
 * only is one run, priced as before.
 */
export function isPunctuationSeam(text: string, start: number, period: number): boolean {
  if (!isPunctuation(text.charCodeAt(start)) || !isPunctuation(text.charCodeAt(start + period - 1)))
    return false;
  for (let i = start + 1; i < start + period - 1; i++)
    if (!isPunctuation(text.charCodeAt(i))) return true;
  return false;
}
