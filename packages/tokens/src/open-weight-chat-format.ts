import type { OpenWeightTokenizer } from './load-open-weight-tokenizer.js';

/** The chat-template cost of a conversation for one open-weight family. */
export interface OpenWeightChatFormat {
  /**
   * Tokens each message costs besides its content (role header, turn delimiters), by role; the
   * role's own text is included. Other roles (`tool`) are charged the largest of the three.
   */
  messageOverhead: { system: number; user: number; assistant: number };
  /** Once per request: begin-of-text, the reply header, any text the template adds itself. */
  perRequest: number;
}

/**
 * Measured by rendering each family's own `chat_template` (bundled with its tokenizer package) with
 * `@huggingface/jinja` and tokenizing the result (`src/test-utils/chat-template-overhead.ts`;
 * `node bench/measure-chat-templates.ts` prints them, and `open-weight.test.ts` re-derives them).
 * Assistant turns are measured as history (followed by a user turn): Qwen3 adds an empty thinking
 * block (4 tokens) to a reply that ends the conversation. Llama 3.x:
 * `<|start_header_id|>role<|end_header_id|>\n\n…<|eot_id|>`; Qwen: `<|im_start|>role\n…<|im_end|>\n`;
 * DeepSeek V3: `<｜User｜>…`, `<｜Assistant｜>…<｜end▁of▁sentence｜>`, system text bare; Gemma 3:
 * `<start_of_turn>user\n…<end_of_turn>\n`, the system text joined to the first user turn with
 * `\n\n`; Mistral NeMo: `[INST]…[/INST]`, `…</s>`, the system text joined to the last user turn
 * with `\n\n` (1 token; 0 after punctuation, which the newlines join: counted as 1).
 */
export const openWeightChatFormats: Readonly<Record<OpenWeightTokenizer, OpenWeightChatFormat>> =
  Object.freeze({
    llama3: { messageOverhead: { system: 5, user: 5, assistant: 5 }, perRequest: 5 },
    llama3_1: { messageOverhead: { system: 5, user: 5, assistant: 5 }, perRequest: 5 },
    qwen3: { messageOverhead: { system: 5, user: 5, assistant: 5 }, perRequest: 3 },
    deepseek_v3: { messageOverhead: { system: 0, user: 1, assistant: 2 }, perRequest: 2 },
    gemma3: { messageOverhead: { system: 1, user: 5, assistant: 5 }, perRequest: 4 },
    mistral_nemo: { messageOverhead: { system: 1, user: 2, assistant: 1 }, perRequest: 1 },
  });

/** The overhead of a message of `role` in `format`. */
export function messageOverhead(format: OpenWeightChatFormat, role: string): number {
  const { system, user, assistant } = format.messageOverhead;
  if (role === 'system' || role === 'developer') return system;
  if (role === 'user') return user;
  if (role === 'assistant') return assistant;
  return Math.max(user, assistant);
}
