/** An OpenAI Chat Completions message, typed structurally so this package does not depend on `openai`. */
export type OpenAIChatContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } }
  | { type: 'refusal'; refusal: string }
  | { type: string; [key: string]: unknown };

export interface OpenAIChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type OpenAIChatMessage =
  | { role: 'system' | 'developer'; content: string | OpenAIChatContentPart[]; name?: string }
  | { role: 'user'; content: string | OpenAIChatContentPart[]; name?: string }
  | {
      role: 'assistant';
      content?: string | OpenAIChatContentPart[] | null;
      tool_calls?: OpenAIChatToolCall[];
      refusal?: string | null;
      name?: string;
    }
  | {
      role: 'tool';
      tool_call_id: string;
      content: string | OpenAIChatContentPart[];
      /** Tool name some producers add; used when no earlier call names the tool. */
      name?: string;
    };
