import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { TokenCounter } from '@baton/tokens';
import { openingTagEnd, openingTagTokens } from './opening-tag-tokens.js';

/**
 * Exact tokens of a serialised message's line from the count its source message already has,
 * instead of tokenising the line again (re-tokenising a span's lines cost as much as the first
 * count of its messages).
 *
 * A line is `A + D + B`: `A` the opening tag (and a tool result's header), `D` the message's one
 * data string, `B` = `\n</message>\n`. The counter priced the source message as its header plus
 * `count(D)` (plus a tool call id), so `count(D)` is known. Tiktoken's o200k and cl100k patterns
 * split text into pieces that BPE never merges across, so counts add up at every place where a
 * piece must end whatever follows (a forced split):
 * - at the start of `D`: `A` ends with `>`, `]` or `)` and a newline, which end the punctuation
 *   piece (`[^\s\p{L}\p{N}]+[\r\n/]*`) unless `D` opens with `\r`, `\n` or `/`;
 * - inside `D`, between two ASCII characters after a digit not followed by a digit, or after a
 *   letter followed by neither a letter nor an apostrophe (see lastForcedSplit).
 * With `s` the last forced split inside `D` and `T = D.slice(s)`,
 * `count(line) = count(A) + count(D) + (count(T + B) - count(T))`: only the short end is tokenised
 * (and remembered, see closingTokens), and the opening tag's count comes from its parts
 * (openingTagTokens). The line is compared
 * with `A + D + B` character by character, so escaped or redacted data, a clipped output or
 * another message shape is refused (undefined: the caller counts the line); nothing else is
 * trusted.
 */
export function derivedLineTokens(
  line: string,
  source: ModelMessage,
  counter: TokenCounter,
): number | undefined {
  const data = dataOf(source, counter);
  if (data === undefined) return derivedPartsTokens(line, source, counter);
  const { text, tokens } = data;
  const start = line.length - closing.length - text.length;
  if (start < 2 || text.length === 0) return undefined;
  const before = line.charCodeAt(start - 2);
  if (
    line.charCodeAt(start - 1) !== newline ||
    (before !== greaterThan && before !== closeBracket && before !== closeParen)
  ) {
    return undefined;
  }
  const first = text.charCodeAt(0);
  if (first === newline || first === carriageReturn || first === slash) return undefined;
  const split = lastForcedSplit(text);
  if (split <= 0) return undefined;
  // Both comparisons are of characters, far cheaper than tokenising them.
  if (!line.endsWith(closing) || !line.startsWith(text, start)) return undefined;
  return (
    openingTagTokens(line, start, source.role, counter) +
    tokens +
    closingTokens(text.slice(split), closing, closings, counter)
  );
}

/**
 * `count(tail + end) - count(tail)`: what the closing tag (`end`, after a tool call its `]` too)
 * adds after the data's last piece (often a merge with trailing punctuation). Short tails repeat
 * (`;`, `.`, `)`, `"}`), so they are remembered per counter and end.
 */
function closingTokens(
  tail: string,
  end: string,
  memo: WeakMap<TokenCounter, Map<string, number>>,
  counter: TokenCounter,
): number {
  if (tail.length > longestRemembered) {
    return counter.count(tail + end) - counter.count(tail);
  }
  let known = memo.get(counter);
  if (known === undefined || known.size >= maxRemembered) {
    known = new Map();
    memo.set(counter, known);
  }
  let tokens = known.get(tail);
  if (tokens === undefined) {
    tokens = counter.count(tail + end) - counter.count(tail);
    known.set(tail, tokens);
  }
  return tokens;
}

const longestRemembered = 16;
const maxRemembered = 4_096;
const closings = new WeakMap<TokenCounter, Map<string, number>>();
const callClosings = new WeakMap<TokenCounter, Map<string, number>>();

const closing = '\n</message>\n';
const longestTail = 512;
const newline = 10;
const carriageReturn = 13;
const apostrophe = 39;
const slash = 47;
const closeParen = 41;
const greaterThan = 62;
const closeBracket = 93;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * The last index `s` (> 0) of `text` where a piece must end, within the last `longestTail`
 * characters (its tail is tokenised); 0 when none. Between two ASCII characters a piece must end
 * after a digit not followed by a digit (number pieces hold digits only, in threes from the run's
 * start, and no other piece holds a digit), and after a letter followed by neither a letter nor an
 * apostrophe (letter pieces end in letters or a contraction; no other piece holds a letter).
 */
function lastForcedSplit(text: string): number {
  const end = Math.max(0, text.length - longestTail);
  let next = text.charCodeAt(text.length - 1);
  for (let at = text.length - 1; at > end; at--) {
    const code = next;
    next = text.charCodeAt(at - 1);
    if (code >= 128) continue;
    if (isDigit(next) ? !isDigit(code) : isLetter(next) && !isLetter(code) && code !== apostrophe) {
      return at;
    }
  }
  return 0;
}

/** The first index `s` (> 0) of `text` where a piece must end (as in lastForcedSplit), within
 * its first `longestTail` characters; 0 when none. */
function firstForcedSplit(text: string): number {
  const end = Math.min(text.length, longestTail);
  let previous = text.charCodeAt(0);
  for (let at = 1; at < end; at++) {
    const code = text.charCodeAt(at);
    const before = previous;
    previous = code;
    if (code >= 128) continue;
    if (
      isDigit(before) ? !isDigit(code) : isLetter(before) && !isLetter(code) && code !== apostrophe
    ) {
      return at;
    }
  }
  return 0;
}

/**
 * An assistant message of text and tool-call parts, its line `A + F0 + D0 + F1 + D1 + … + Fk`: the
 * opening tag, then per part a frame (`]` after a call, the line break between parts, a call's
 * `[tool call id: name `) and its data (the text, the call's input as JSON), then the closing. The
 * counter priced the message as its header, each text, and per call 3 + its name + its id + its
 * input's JSON, so the data's counts sum to what is left once the names and ids are counted. Each
 * data string `D` has forced splits (lastForcedSplit) after its head `H` and before its tail `T`,
 * so `count(line) = count(A) + Σ count(D) + Σ (count(T + F + H) - count(T) - count(H))` over the
 * frames between (the first after the tag, split as in derivedLineTokens; the last, `T + F`
 * through closingTokens). Every frame and data string is compared with the line, as there.
 */
function derivedPartsTokens(
  line: string,
  message: ModelMessage,
  counter: TokenCounter,
): number | undefined {
  // A short line is tokenised whole sooner than taken apart: the half-dozen counts of its frames,
  // heads, tails, names and ids cost more than the one count of the line (measured on agent
  // traffic, bench/count-phase-ab.ts); a long input (a file written, a patch) is where it pays.
  if (line.length < shortestTakenApart) return undefined;
  const fields = message as Record<string, unknown>;
  const parts = message.content as unknown;
  if (
    message.role !== 'assistant' ||
    !Array.isArray(parts) ||
    parts.length === 0 ||
    fields.name !== undefined ||
    fields.tool_call_id !== undefined ||
    fields.tool_calls !== undefined ||
    fields.function_call !== undefined ||
    !pricesToolCallsAsChat(counter)
  ) {
    return undefined;
  }
  const tagEnd = openingTagEnd(line, message.role);
  if (tagEnd < 0) return undefined;
  // What the counter gave the data strings: the message less its header and each call's extras.
  let data = counter.countMessage(message) - messageHeader - counter.count(message.role);
  let frames = 0;
  let at = tagEnd;
  let tail = '';
  let afterCall = false;
  for (let position = 0; position < parts.length; position++) {
    const part = parts[position] as Record<string, unknown> | null;
    if (typeof part !== 'object' || part === null) return undefined;
    const frameStart = at;
    if (position > 0) {
      if (afterCall && line.charCodeAt(at++) !== closeBracket) return undefined;
      if (line.charCodeAt(at++) !== newline) return undefined;
    }
    let text: string;
    if (part.type === 'text' && typeof part.text === 'string') {
      text = part.text;
      afterCall = false;
    } else if (part.type === 'tool-call') {
      const { toolCallId: id, toolName: name, input } = part;
      // A string input is priced as it is but serialised quoted; none is serialised as nothing.
      if (typeof id !== 'string' || typeof name !== 'string') return undefined;
      if (input === undefined || typeof input === 'string') return undefined;
      if (!line.startsWith(callOpening, at)) return undefined;
      at += callOpening.length;
      if (!line.startsWith(id, at)) return undefined;
      at += id.length;
      if (!line.startsWith(callSeparator, at)) return undefined;
      at += callSeparator.length;
      if (!line.startsWith(name, at)) return undefined;
      at += name.length;
      if (line.charCodeAt(at++) !== space) return undefined;
      let json: string | undefined;
      try {
        json = JSON.stringify(input);
      } catch {
        return undefined;
      }
      if (json === undefined) return undefined;
      text = json;
      data -= toolCallHeader + counter.count(name) + counter.count(id);
      afterCall = true;
    } else {
      return undefined;
    }
    if (text.length === 0 || !line.startsWith(text, at)) return undefined;
    const first = firstForcedSplit(text);
    const last = first > 0 ? lastForcedSplit(text) : 0;
    if (last <= 0) return undefined;
    const head = text.slice(0, first);
    if (position === 0) {
      // The tag's last piece ends before the frame's `[`, or before text that does not open
      // with a character it would take.
      frames += openingTagTokens(line, tagEnd, message.role, counter);
      if (at > frameStart) {
        frames += counter.count(line.slice(frameStart, at) + head) - counter.count(head);
      } else {
        const opening = text.charCodeAt(0);
        if (opening === newline || opening === carriageReturn || opening === slash)
          return undefined;
      }
    } else {
      frames +=
        counter.count(tail + line.slice(frameStart, at) + head) -
        counter.count(tail) -
        counter.count(head);
    }
    tail = text.slice(last);
    at += text.length;
  }
  const end = afterCall ? callClosing : closing;
  if (at + end.length !== line.length || !line.endsWith(end) || data < 0) return undefined;
  return frames + data + closingTokens(tail, end, afterCall ? callClosings : closings, counter);
}

const shortestTakenApart = 400;
const callOpening = '[tool call ';
const callSeparator = ': ';
const callClosing = `]${closing}`;
const space = 32;
/** What `@baton/tokens` adds per tool call beside its name, id and input. */
const toolCallHeader = 3;

/**
 * The one data string of `message` and its exact tokens, from the counter's count of the whole
 * message (remembered by identity) less the parts priced beside it; undefined for other shapes.
 */
function dataOf(
  message: ModelMessage,
  counter: TokenCounter,
): { text: string; tokens: number } | undefined {
  const fields = message as Record<string, unknown>;
  if (
    fields.name !== undefined ||
    fields.tool_call_id !== undefined ||
    fields.tool_calls !== undefined ||
    fields.function_call !== undefined
  ) {
    return undefined;
  }
  const content = message.content as unknown;
  let text: string;
  let priced = 0;
  if (typeof content === 'string') {
    text = content;
  } else if (Array.isArray(content) && content.length === 1) {
    const part = content[0] as Record<string, unknown> | null;
    if (typeof part !== 'object' || part === null) return undefined;
    if (part.type === 'text' && typeof part.text === 'string') {
      text = part.text;
    } else if (message.role === 'tool' && part.type === 'tool-result') {
      const output = part.output as Record<string, unknown> | null;
      if (typeof output !== 'object' || output === null) return undefined;
      if (output.type !== 'text' && output.type !== 'error-text') return undefined;
      if (typeof output.value !== 'string' || typeof part.toolName !== 'string') return undefined;
      const id = part.toolCallId;
      if (id !== undefined && id !== null) {
        if (typeof id !== 'string') return undefined;
        priced += counter.count(id);
      }
      text = output.value;
    } else {
      return undefined;
    }
  } else {
    return undefined;
  }
  const tokens =
    counter.countMessage(message) - messageHeader - counter.count(message.role) - priced;
  return tokens >= 0 ? { text, tokens } : undefined;
}

/** OpenAI's per-message constant, as `@baton/tokens` prices a message beside its role text. */
const messageHeader = 3;

const pricedAsChat = new WeakMap<TokenCounter, boolean>();

/**
 * Whether `counter` prices messages as `@baton/tokens` does for OpenAI encodings (the header, the
 * role text, a tool result's id and its text), checked once on a small message of each role: a custom
 * counter with other pricing never has its counts taken apart.
 */
export function pricesAsChat(counter: TokenCounter): boolean {
  let known = pricedAsChat.get(counter);
  if (known === undefined) {
    const text = 'probe text.';
    const user: ModelMessage = { role: 'user', content: text };
    const tool: ModelMessage = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call-probe',
          toolName: 'probe',
          output: { type: 'text', value: text },
        },
      ],
    };
    // Every role a line is derived for: a counter may price one of them otherwise.
    const assistant: ModelMessage = { role: 'assistant', content: [{ type: 'text', text }] };
    const system: ModelMessage = { role: 'system', content: text };
    known =
      counter.countMessage(user) === messageHeader + counter.count('user') + counter.count(text) &&
      counter.countMessage(assistant) ===
        messageHeader + counter.count('assistant') + counter.count(text) &&
      counter.countMessage(system) ===
        messageHeader + counter.count('system') + counter.count(text) &&
      counter.countMessage(tool) ===
        messageHeader + counter.count('tool') + counter.count('call-probe') + counter.count(text);
    pricedAsChat.set(counter, known);
  }
  return known;
}

const pricedCallsAsChat = new WeakMap<TokenCounter, boolean>();

/**
 * Whether `counter` prices an assistant message's tool call as `@baton/tokens` does (3, its name,
 * its id and its input's JSON beside the text parts), checked once: tool-call lines are taken
 * apart only then.
 */
function pricesToolCallsAsChat(counter: TokenCounter): boolean {
  let known = pricedCallsAsChat.get(counter);
  if (known === undefined) {
    const text = 'probe text.';
    const input = { path: 'src/probe.ts', lines: [1, 2] };
    const call: ModelMessage = {
      role: 'assistant',
      content: [
        { type: 'text', text },
        { type: 'tool-call', toolCallId: 'call-probe', toolName: 'read_probe', input },
      ],
    };
    known =
      counter.countMessage(call) ===
      messageHeader +
        counter.count('assistant') +
        counter.count(text) +
        toolCallHeader +
        counter.count('read_probe') +
        counter.count('call-probe') +
        counter.count(JSON.stringify(input));
    pricedCallsAsChat.set(counter, known);
  }
  return known;
}
