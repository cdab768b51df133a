import type { TokenCounter } from '@baton/tokens';
import { roleTag } from './summary-prompt.js';

/**
 * Exact tokens of `line.slice(0, end)`, the text before a serialised message's data, without
 * tokenising the opening tag on every line: `<message index="`, the index digits, then the role
 * tag (`roleTag` of `role`, flagged or not), then whatever follows up to `end` (a tool result's
 * header). The index is new on every line, so the tag was tokenised once per line, about a third
 * of the characters a large span's derived counts still tokenised. Tiktoken's o200k and cl100k
 * patterns split the tag into pieces BPE never merges across: the prefix ends with the punctuation
 * piece `="`, which stops at a digit; digits form pieces of their own, three at a time from the
 * run's start, and the `"` after them starts a new piece; the tag's last piece `">\n` ends unless
 * `\r`, `\n` or `/` follows. So the count is the prefix's, each three-digit group's and the role
 * tag's (each remembered per counter), plus the rest tokenised. Anything else is tokenised whole.
 */
export function openingTagTokens(
  line: string,
  end: number,
  role: string,
  counter: TokenCounter,
): number {
  const digitsEnd = indexDigitsEnd(line, end);
  if (digitsEnd > 0) {
    const tag = matchingTag(line, digitsEnd, end, role);
    if (tag !== undefined) {
      const known = knownParts(counter);
      const tagEnd = digitsEnd + tag.length;
      return (
        known.prefix +
        digitTokens(line, prefix.length, digitsEnd, known, counter) +
        tagTokens(tag, known, counter) +
        (tagEnd === end ? 0 : counter.count(line.slice(tagEnd, end)))
      );
    }
  }
  return counter.count(line.slice(0, end));
}

/**
 * Where the opening tag of a line serialised from a message of `role` ends (after its line break),
 * or -1 when the line does not open with one.
 */
export function openingTagEnd(line: string, role: string): number {
  const digitsEnd = indexDigitsEnd(line, line.length);
  if (digitsEnd < 0) return -1;
  for (let flagged = 0; flagged < 2; flagged++) {
    const tag = roleTag(role, flagged === 1);
    if (line.startsWith(tag, digitsEnd)) return digitsEnd + tag.length;
  }
  return -1;
}

const prefix = '<message index="';
const maxDigits = 15;
const newline = 10;
const carriageReturn = 13;
const slash = 47;

/** Where the index's digits end (they start right after `prefix`), or -1 when not that shape. */
function indexDigitsEnd(line: string, end: number): number {
  if (!line.startsWith(prefix)) return -1;
  let at = prefix.length;
  const last = Math.min(end, prefix.length + maxDigits);
  while (at < last && isDigit(line.charCodeAt(at))) at++;
  // The role tag opens with `"`, which the digits must be followed by (checked with the tag).
  return at > prefix.length ? at : -1;
}

/**
 * The role tag at `at` (unflagged or flagged), ending at `end` or before a character that starts
 * a piece of its own; undefined otherwise.
 */
function matchingTag(line: string, at: number, end: number, role: string): string | undefined {
  for (let flagged = 0; flagged < 2; flagged++) {
    const tag = roleTag(role, flagged === 1);
    const tagEnd = at + tag.length;
    if (tagEnd > end || !line.startsWith(tag, at)) continue;
    if (tagEnd === end) return tag;
    const next = line.charCodeAt(tagEnd);
    return next === newline || next === carriageReturn || next === slash ? undefined : tag;
  }
  return undefined;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

interface KnownParts {
  prefix: number;
  /** Tokens of each digit group by slot (1,110 groups of one to three digits); -1 unknown. */
  groups: Int32Array;
  tags: Map<string, number>;
}

const parts = new WeakMap<TokenCounter, KnownParts>();

function knownParts(counter: TokenCounter): KnownParts {
  let known = parts.get(counter);
  if (known === undefined) {
    known = {
      prefix: counter.count(prefix),
      groups: new Int32Array(1_110).fill(-1),
      tags: new Map(),
    };
    parts.set(counter, known);
  }
  return known;
}

/** Tokens of the digits `line[from, to)`, a group of up to three at a time from the first. */
function digitTokens(
  line: string,
  from: number,
  to: number,
  known: KnownParts,
  counter: TokenCounter,
): number {
  let tokens = 0;
  for (let at = from; at < to; at += 3) {
    const length = Math.min(3, to - at);
    let value = 0;
    for (let digit = at; digit < at + length; digit++) {
      value = value * 10 + line.charCodeAt(digit) - 48;
    }
    // Groups of one digit take slots 0–9, of two 10–109, of three 110–1,109 (leading zeros kept).
    const slot = value + (length === 1 ? 0 : length === 2 ? 10 : 110);
    let group = known.groups[slot]!;
    if (group < 0) {
      group = counter.count(line.slice(at, at + length));
      known.groups[slot] = group;
    }
    tokens += group;
  }
  return tokens;
}

/** Role tags are a handful of strings (per role, flagged or not); a custom role's are kept too. */
const maxTags = 256;

function tagTokens(tag: string, known: KnownParts, counter: TokenCounter): number {
  let tokens = known.tags.get(tag);
  if (tokens === undefined) {
    tokens = counter.count(tag);
    if (known.tags.size < maxTags) known.tags.set(tag, tokens);
  }
  return tokens;
}
