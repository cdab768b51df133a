import type { ModelMessage } from '@ai-sdk/provider-utils';
import { type TokenCounter, toolOutputText } from '@baton/tokens';
import { latestAskIndex } from './latest-ask-index.js';
import { clipMiddle } from './peer-api.js';

export interface ClippedToolOutputs {
  /** The conversation with the latest turn's largest tool outputs clipped (same objects elsewhere). */
  messages: ModelMessage[];
  /** Tool outputs (or text parts of `content` outputs) clipped. */
  clippedOutputs: number;
  /** Tokens removed, by the counter, marker included. */
  omittedTokens: number;
}

/** Clipped outputs keep at least this many tokens: enough for the start and the end of an error. */
const smallestKept = 256;

interface Piece {
  message: number;
  part: number;
  /** Index in a `content` output's parts, or -1 for the output's own value. */
  item: number;
  text: string;
  tokens: number;
}

/**
 * Start of the latest turn: the last user message with content (the ask everything after it
 * answers); the last user message when none has content. An empty user message after the ask does
 * not start a turn: the compressor keeps the work done on the ask before it, so its outputs are
 * what must be clipped.
 */
function latestTurnStart(messages: readonly ModelMessage[]): number {
  // Baton's own inserts count as user messages here, as they always did.
  return latestAskIndex(messages, [], 0) + 1;
}

/**
 * The text of an output clipped as a whole (`toolOutputText`): string `text` and `error-text`
 * values, and the JSON of `json` and `error-json`. Undefined for other outputs (the text parts of
 * `content` are clipped one by one).
 */
function outputText(output: Record<string, unknown>): string | undefined {
  const whole =
    ((output.type === 'text' || output.type === 'error-text') &&
      typeof output.value === 'string') ||
    output.type === 'json' ||
    output.type === 'error-json';
  return whole ? toolOutputText(output) : undefined;
}

/**
 * Clips the tool outputs of the latest turn (after the last user message) so that turn fits
 * `maxTokens`: the compressor keeps that turn verbatim, so one huge tool result would otherwise make
 * the request impossible to send. The largest outputs are cut first, down to a common size, keeping
 * their start and end around a `[Baton: N tokens omitted]` marker (`clipMiddle`). Tool calls
 * and results stay paired (only output text changes); JSON outputs become text. Undefined when the
 * turn already fits or has nothing to clip.
 */
export function clipLatestToolOutputs(
  messages: readonly ModelMessage[],
  { counter, maxTokens }: { counter: TokenCounter; maxTokens: number },
): ClippedToolOutputs | undefined {
  const start = latestTurnStart(messages);
  let turnTokens = 0;
  const pieces: Piece[] = [];
  for (let index = start; index < messages.length; index++) {
    const message = messages[index] as ModelMessage;
    turnTokens += counter.countMessage(message);
    if (message.role !== 'tool') continue;
    message.content.forEach((part, partIndex) => {
      if (part.type !== 'tool-result') return;
      const output = part.output as Record<string, unknown>;
      const text = outputText(output);
      if (text !== undefined) {
        pieces.push({
          message: index,
          part: partIndex,
          item: -1,
          text,
          tokens: counter.count(text),
        });
      } else if (output.type === 'content' && Array.isArray(output.value)) {
        output.value.forEach((item: Record<string, unknown>, itemIndex: number) => {
          if (item.type === 'text' && typeof item.text === 'string') {
            pieces.push({
              message: index,
              part: partIndex,
              item: itemIndex,
              text: item.text,
              tokens: counter.count(item.text),
            });
          }
        });
      }
    });
  }
  const excess = turnTokens - maxTokens;
  if (excess <= 0 || pieces.length === 0) return undefined;

  // The largest common size `cap` that removes enough: sum of max(0, tokens - cap) >= excess.
  const removedAt = (cap: number) =>
    pieces.reduce((sum, piece) => sum + Math.max(0, piece.tokens - cap), 0);
  let low = smallestKept;
  let high = Math.max(smallestKept, ...pieces.map((piece) => piece.tokens));
  if (removedAt(low) < excess) high = low;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (removedAt(middle) >= excess) low = middle;
    else high = middle;
  }
  // Markers and tokenisation at the cut cost a little: aim a bit lower.
  const cap = Math.max(smallestKept, Math.floor(low * 0.95));

  const result = [...messages];
  let clippedOutputs = 0;
  let omittedTokens = 0;
  for (const piece of pieces) {
    if (piece.tokens <= cap) continue;
    const clipped = clipMiddle(piece.text, cap, { counter, tokens: piece.tokens });
    omittedTokens += piece.tokens - counter.count(clipped);
    clippedOutputs++;
    const message = result[piece.message] as Extract<ModelMessage, { role: 'tool' }>;
    const content = [...message.content];
    const part = content[piece.part] as Extract<(typeof content)[number], { type: 'tool-result' }>;
    const output = part.output as Record<string, unknown>;
    let nextOutput: Record<string, unknown>;
    if (piece.item < 0) {
      const isError = output.type === 'error-text' || output.type === 'error-json';
      nextOutput = { ...output, type: isError ? 'error-text' : 'text', value: clipped };
    } else {
      const items = [...(output.value as Record<string, unknown>[])];
      items[piece.item] = { ...items[piece.item], text: clipped };
      nextOutput = { ...output, value: items };
    }
    content[piece.part] = { ...part, output: nextOutput as typeof part.output };
    result[piece.message] = { ...message, content };
  }
  if (clippedOutputs === 0) return undefined;
  return { messages: result, clippedOutputs, omittedTokens };
}
