// Measures each open-weight family's per-message chat-template overhead by rendering the family's
// own `chat_template` (from the tokenizer package's tokenizer_config.json) with @huggingface/jinja
// and tokenizing the result with the family's tokenizer. Used by the test that re-derives the
// constants of open-weight-chat-format.ts and by bench/run.ts.
import { createRequire } from 'node:module';
import { Template } from '@huggingface/jinja';
import { type OpenWeightTokenizer, tokenizerPackages } from '../load-open-weight-tokenizer.ts';

const require = createRequire(import.meta.url);

export interface Message {
  role: string;
  content: string;
}

export interface MeasuredFormat {
  /** Tokens per message besides its content, by role. */
  messageOverhead: { system: number; user: number; assistant: number };
  /** Once per request: begin-of-text token, default system text, the assistant reply header. */
  perRequest: number;
}

export function measureChatFormat(name: OpenWeightTokenizer): MeasuredFormat {
  const module = require(tokenizerPackages[name]) as {
    fromPreTrained(): { encode(text: string, options?: object): number[] };
    tokenizerConfig: Record<string, unknown>;
  };
  const tokenizer = module.fromPreTrained();
  const config = module.tokenizerConfig;
  const special = (key: string): string | undefined => {
    const value = config[key] as string | { content: string } | undefined;
    return typeof value === 'object' && value !== null ? value.content : value;
  };
  const template = new Template(config.chat_template as string);
  const tokens = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).length;
  const renderText = (messages: Message[], addGenerationPrompt: boolean) =>
    template.render({
      messages,
      add_generation_prompt: addGenerationPrompt,
      bos_token: special('bos_token') ?? '',
      eos_token: special('eos_token') ?? '',
    });
  const render = (messages: Message[], addGenerationPrompt: boolean) =>
    tokens(renderText(messages, addGenerationPrompt));
  const system = { role: 'system', content: 'You are a careful assistant.' };
  const user1 = { role: 'user', content: 'Please list the files here.' };
  const assistant1 = { role: 'assistant', content: 'There are three files.' };
  const user2 = { role: 'user', content: 'Open the second one.' };
  const text = (message: Message) => tokens(message.content);

  // The begin-of-text token some templates emit with the first message belongs to the request.
  const bos = special('bos_token') ?? '';
  const empty = bos !== '' && renderText([user1], false).startsWith(bos) ? tokens(bos) : 0;
  // Two user turns in a row isolate one user turn between renders that end alike (Llama 3's
  // template always appends the reply header). Gemma's template rejects that (roles must
  // alternate); it adds nothing after the last turn, so the first turn alone is measured there.
  let user: number;
  try {
    user = render([user1, user2], false) - render([user1], false) - text(user2);
  } catch {
    user = render([user1], false) - empty - text(user1);
  }
  // Conversations that end with a user turn, so the assistant turn is rendered as history
  // (Qwen3 adds an empty thinking block to the latest reply only).
  const pair =
    render([system, user1, assistant1, user2], false) -
    render([system, user1], false) -
    text(assistant1) -
    text(user2);
  const assistant = pair - user;
  // Templates that join the system text to a user turn (Gemma, Mistral NeMo: `\n\n`) cost a
  // token less when the system text ends in punctuation (BPE glues the newlines to it): the
  // larger of the two is the cost that never undercounts.
  const bare = { role: 'system', content: 'You are a careful assistant' };
  const systemOverhead = Math.max(
    render([system, user1], false) - render([user1], false) - text(system),
    render([bare, user1], false) - render([user1], false) - text(bare),
  );
  // Everything a one-turn request costs besides that turn: begin-of-text, the reply header, and
  // any text the template adds on its own.
  const perRequest = render([user1], true) - user - text(user1);
  return {
    messageOverhead: { system: systemOverhead, user, assistant },
    perRequest,
  };
}

/** Tokens of `messages` rendered by `name`'s template with the reply header (the prompt sent). */
export function renderConversation(name: OpenWeightTokenizer, messages: Message[]): number {
  const module = require(tokenizerPackages[name]) as {
    fromPreTrained(): { encode(text: string, options?: object): number[] };
    tokenizerConfig: Record<string, unknown>;
  };
  const config = module.tokenizerConfig;
  const special = (key: string): string => {
    const value = config[key] as string | { content: string } | undefined;
    return (typeof value === 'object' && value !== null ? value.content : value) ?? '';
  };
  const text = new Template(config.chat_template as string).render({
    messages,
    add_generation_prompt: true,
    bos_token: special('bos_token'),
    eos_token: special('eos_token'),
  });
  let tokenizer = builtTokenizers.get(name);
  if (!tokenizer) {
    tokenizer = module.fromPreTrained();
    builtTokenizers.set(name, tokenizer);
  }
  return tokenizer.encode(text, { add_special_tokens: false }).length;
}

// Building a tokenizer takes seconds for the large vocabularies: once per family per test run.
const builtTokenizers = new Map<
  OpenWeightTokenizer,
  { encode(text: string, options?: object): number[] }
>();
