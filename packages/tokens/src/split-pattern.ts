import { newerThanTiktoken } from './newer-than-tiktoken.js';
import type { TiktokenEncoding } from './types.js';

// tiktoken's patterns are written for Rust's regex engine. Two translations keep JavaScript's
// splits identical: `\s` there is Unicode White_Space (with U+0085, without U+FEFF, unlike JS), and
// the case-insensitive contraction groups `(?i:'s|...)` are spelled out (Node 22 lacks inline
// modifiers; Unicode simple case folding also maps `s` to `ſ`).
const space = '\\t-\\r \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';
const S = `[${space}]`;
const notSpace = `[^${space}]`;
const contraction = "'(?:[sSſ]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD])";

interface Classes {
  letter: string;
  number: string;
  upperish: string;
  lowerish: string;
}

// The Unicode classes as tiktoken's tables have them (`v`-mode classes without the characters
// assigned since), and their restriction to ASCII. On ASCII-only text both give the same splits,
// and the ASCII pattern runs several times faster (no Unicode property tables).
const unicodeClasses: Classes = {
  letter: `[\\p{L}--${newerThanTiktoken}]`,
  number: `[\\p{N}--${newerThanTiktoken}]`,
  upperish: `[[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]--${newerThanTiktoken}]`,
  lowerish: `[[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]--${newerThanTiktoken}]`,
};
const asciiClasses: Classes = { letter: 'A-Za-z', number: '0-9', upperish: 'A-Z', lowerish: 'a-z' };

function o200k({ letter, number, upperish, lowerish }: Classes): string {
  return [
    `[^\\r\\n${letter}${number}]?[${upperish}]*[${lowerish}]+(?:${contraction})?`,
    `[^\\r\\n${letter}${number}]?[${upperish}]+[${lowerish}]*(?:${contraction})?`,
    `[${number}]{1,3}`,
    ` ?[^${space}${letter}${number}]+[\\r\\n\\/]*`,
    `${S}*[\\r\\n]+`,
    `${S}+(?!${notSpace})`,
    `${S}+`,
  ].join('|');
}

function cl100k({ letter, number }: Classes): string {
  return [
    contraction,
    `[^\\r\\n${letter}${number}]?[${letter}]+`,
    `[${number}]{1,3}`,
    ` ?[^${space}${letter}${number}]+[\\r\\n]*`,
    `${S}*[\\r\\n]+`,
    `${S}+(?!${notSpace})`,
    `${S}+`,
  ].join('|');
}

// r50k and p50k keep GPT-2's pattern, whose contractions are case-sensitive.
function gpt2({ letter, number }: Classes): string {
  return [
    "'s|'t|'re|'ve|'m|'ll|'d",
    ` ?[${letter}]+`,
    ` ?[${number}]+`,
    ` ?[^${space}${letter}${number}]+`,
    `${S}+(?!${notSpace})`,
    `${S}+`,
  ].join('|');
}

const builders: Record<TiktokenEncoding, (classes: Classes) => string> = {
  o200k_base: o200k,
  cl100k_base: cl100k,
  p50k_base: gpt2,
  r50k_base: gpt2,
};

/**
 * tiktoken's pre-tokenisation pattern of `encoding` as a global Unicode RegExp. BPE runs on each
 * match separately, so a text's token count is the sum of its pieces' counts.
 */
export function splitPattern(encoding: TiktokenEncoding): RegExp {
  return new RegExp(builders[encoding](unicodeClasses), 'gv');
}

/** The Unicode classes of the patterns (`v`-mode class sources), for scanners that share them. */
export function unicodeClassSources(): Readonly<Classes> {
  return unicodeClasses;
}

/** The same pattern restricted to ASCII: identical splits, but only valid on ASCII-only text. */
export function asciiSplitPattern(encoding: TiktokenEncoding): RegExp {
  return new RegExp(builders[encoding](asciiClasses), 'g');
}
