import type { ModelMessage } from '@ai-sdk/provider-utils';
import { validateToolPairs } from '@baton/compressor';
import { loadTranscripts } from '@baton/test-corpus';
import type { TokenCounter } from '@baton/tokens';

export interface CorpusWindow {
  name: string;
  messages: ModelMessage[];
  tokens: number;
}

/**
 * Up to `count` windows of about `windowTokens` tokens, one per transcript, the transcripts spread
 * evenly over the sorted corpus (so a grown corpus moves the choice, never breaks it). A window is
 * the transcript's opening turns (a user message, or an assistant message with the tool results
 * answering it) up to the size; a turn over a third of the size is left out so that one log does not
 * make the window; windows whose tool calls and results do not pair are skipped.
 */
export function corpusWindows(
  count: number,
  windowTokens: number,
  counter: TokenCounter,
): CorpusWindow[] {
  const transcripts = loadTranscripts();
  const windows: CorpusWindow[] = [];
  const step = Math.max(1, Math.floor(transcripts.length / Math.min(count, transcripts.length)));
  for (let offset = 0; offset < step && windows.length < count; offset++) {
    for (let index = offset; index < transcripts.length && windows.length < count; index += step) {
      const transcript = transcripts[index]!;
      if (windows.some((window) => window.name === transcript.name)) continue;
      const units: ModelMessage[][] = [];
      for (const message of transcript.messages as ModelMessage[]) {
        if (message.role === 'system') continue;
        if (message.role === 'tool' && units.length > 0) units.at(-1)!.push(message);
        else units.push([message]);
      }
      const messages: ModelMessage[] = [];
      let tokens = 0;
      for (const unit of units) {
        const unitTokens = counter.countMessages(unit);
        if (unitTokens > windowTokens / 3) continue;
        if (tokens + unitTokens > windowTokens) break;
        messages.push(...unit);
        tokens += unitTokens;
      }
      const users = messages.filter((message) => message.role === 'user').length;
      if (tokens < windowTokens * 0.6 || users === 0 || messages[0]?.role !== 'user') continue;
      if (!validateToolPairs(messages).valid) continue;
      windows.push({ name: transcript.name, messages, tokens: counter.countMessages(messages) });
    }
  }
  return windows;
}
