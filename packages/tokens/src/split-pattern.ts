import type { TiktokenEncoding } from './types.js';

// tiktoken's patterns are written for Rust's regex engine. Two translations keep JavaScript's
// splits identical: `\s` there is Unicode White_Space (with U+0085, without U+FEFF, unlike JS), and
// the case-insensitive contraction groups `(?i:'s|...)` are spelled out (Node 22 lacks inline
// modifiers; Unicode simple case folding also maps `s` to `ſ`).
const space = '\\t-\\r \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';
const S = `[${space}]`;
const notSpace = `[^${space}]`;
const contraction = "'(?:[sSſ]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD])";

const upperish = '[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]';
const lowerish = '[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]';

const o200k = [
  `[^\\r\\n\\p{L}\\p{N}]?${upperish}*${lowerish}+(?:${contraction})?`,
  `[^\\r\\n\\p{L}\\p{N}]?${upperish}+${lowerish}*(?:${contraction})?`,
  '\\p{N}{1,3}',
  ` ?[^${space}\\p{L}\\p{N}]+[\\r\\n/]*`,
  `${S}*[\\r\\n]+`,
  `${S}+(?!${notSpace})`,
  `${S}+`,
].join('|');

const cl100k = [
  contraction,
  '[^\\r\\n\\p{L}\\p{N}]?\\p{L}+',
  '\\p{N}{1,3}',
  ` ?[^${space}\\p{L}\\p{N}]+[\\r\\n]*`,
  `${S}*[\\r\\n]+`,
  `${S}+(?!${notSpace})`,
  `${S}+`,
].join('|');

// r50k and p50k keep GPT-2's pattern, whose contractions are case-sensitive.
const gpt2 = [
  "'s|'t|'re|'ve|'m|'ll|'d",
  ' ?\\p{L}+',
  ' ?\\p{N}+',
  ` ?[^${space}\\p{L}\\p{N}]+`,
  `${S}+(?!${notSpace})`,
  `${S}+`,
].join('|');

const sources: Record<TiktokenEncoding, string> = {
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
  return new RegExp(sources[encoding], 'gu');
}
