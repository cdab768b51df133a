import { randomUUID } from 'node:crypto';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { toolOutputText } from '@baton/tokens';
import {
  type AgentAction,
  planNextAction,
  type ToolStep,
  type TurnContext,
} from './agent-script.js';

export interface ScriptedAgentModelOptions {
  /** Pause before each model step, so the session reads like a live agent. Default 250 ms. */
  stepDelayMs?: number;
  /** Pause between streamed text chunks. Default 12 ms. */
  chunkDelayMs?: number;
  /**
   * Counts the prompt's tokens for the reported usage (the compaction middleware calibrates on it).
   * Default: characters / 4.
   */
  countPromptTokens?: (prompt: LanguageModelV4Prompt) => number;
}

/** Whether the script treats a tool output as failed: an error, or a call the user denied. */
function isFailedOutput(output: unknown): boolean {
  const type = (output as { type?: unknown } | null)?.type;
  return type === 'error-text' || type === 'error-json' || type === 'execution-denied';
}

/** What the agent can see of the current turn: the latest user text and the tool work after it. */
export function readTurn(prompt: LanguageModelV4Prompt): TurnContext {
  let lastUser = -1;
  prompt.forEach((message, index) => {
    if (message.role === 'user') lastUser = index;
  });
  const userMessage = prompt[lastUser];
  const userText =
    userMessage?.role === 'user'
      ? userMessage.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
      : '';
  const calls = new Map<string, { toolName: string; input: Record<string, unknown> }>();
  const steps: ToolStep[] = [];
  for (const message of prompt.slice(lastUser + 1)) {
    if (message.role === 'system' || message.role === 'user') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') {
        const input =
          typeof part.input === 'string'
            ? safeParse(part.input)
            : (part.input as Record<string, unknown>);
        calls.set(part.toolCallId, { toolName: part.toolName, input: input ?? {} });
      } else if (part.type === 'tool-result') {
        const text = toolOutputText(part.output);
        const isError = isFailedOutput(part.output);
        const call = calls.get(part.toolCallId);
        steps.push({
          toolName: call?.toolName ?? part.toolName,
          input: call?.input ?? {},
          output: text,
          isError,
        });
      }
    }
  }
  return { userText, steps };
}

function safeParse(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function usage(inputTokens: number, outputText: string): LanguageModelV4Usage {
  const output = Math.ceil(outputText.length / 4);
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (ms <= 0) {
      resolve();
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

function chunkText(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

/**
 * A language model that plays a scripted coding session. It implements the provider interface itself
 * (it is not a test mock): every call reads the prompt it was given, decides the next step with
 * `planNextAction`, and answers with a tool call (which the AI SDK executes for real against the
 * workspace) or with a closing text message.
 */
export function createScriptedAgentModel(options: ScriptedAgentModelOptions = {}): LanguageModelV4 {
  const stepDelayMs = options.stepDelayMs ?? 250;
  const chunkDelayMs = options.chunkDelayMs ?? 12;
  const countPromptTokens =
    options.countPromptTokens ??
    ((prompt: LanguageModelV4Prompt) => Math.ceil(JSON.stringify(prompt).length / 4));

  const decide = (callOptions: LanguageModelV4CallOptions): AgentAction => {
    const available = new Set((callOptions.tools ?? []).map((tool) => tool.name));
    const action = planNextAction(readTurn(callOptions.prompt));
    if (action.type === 'tool' && !available.has(action.toolName)) {
      return {
        type: 'text',
        text: `I wanted to call \`${action.toolName}\`, but that tool is not available in this request.`,
      };
    }
    return action;
  };

  return {
    specificationVersion: 'v4',
    provider: 'baton-demo',
    modelId: 'scripted-coding-agent',
    supportedUrls: {},
    async doGenerate(callOptions) {
      await sleep(stepDelayMs, callOptions.abortSignal);
      const action = decide(callOptions);
      const inputTokens = countPromptTokens(callOptions.prompt);
      const content: LanguageModelV4Content[] =
        action.type === 'tool'
          ? [
              {
                type: 'tool-call',
                toolCallId: `call_${randomUUID()}`,
                toolName: action.toolName,
                input: JSON.stringify(action.input),
              },
            ]
          : [{ type: 'text', text: action.text }];
      return {
        content,
        finishReason:
          action.type === 'tool'
            ? { unified: 'tool-calls', raw: 'tool_calls' }
            : { unified: 'stop', raw: 'stop' },
        usage: usage(
          inputTokens,
          action.type === 'tool' ? JSON.stringify(action.input) : action.text,
        ),
        warnings: [],
      };
    },
    async doStream(callOptions) {
      const action = decide(callOptions);
      const inputTokens = countPromptTokens(callOptions.prompt);
      const signal = callOptions.abortSignal;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async start(controller) {
          try {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            await sleep(stepDelayMs, signal);
            controller.enqueue({
              type: 'response-metadata',
              id: `response_${randomUUID()}`,
              modelId: 'scripted-coding-agent',
              timestamp: new Date(),
            });
            if (action.type === 'tool') {
              const id = `call_${randomUUID()}`;
              const input = JSON.stringify(action.input);
              controller.enqueue({ type: 'tool-input-start', id, toolName: action.toolName });
              controller.enqueue({ type: 'tool-input-delta', id, delta: input });
              controller.enqueue({ type: 'tool-input-end', id });
              controller.enqueue({
                type: 'tool-call',
                toolCallId: id,
                toolName: action.toolName,
                input,
              });
              controller.enqueue({
                type: 'finish',
                finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
                usage: usage(inputTokens, input),
              });
            } else {
              const id = `text_${randomUUID()}`;
              controller.enqueue({ type: 'text-start', id });
              for (const chunk of chunkText(action.text)) {
                controller.enqueue({ type: 'text-delta', id, delta: chunk });
                await sleep(chunkDelayMs, signal);
              }
              controller.enqueue({ type: 'text-end', id });
              controller.enqueue({
                type: 'finish',
                finishReason: { unified: 'stop', raw: 'stop' },
                usage: usage(inputTokens, action.text),
              });
            }
            controller.close();
          } catch (error) {
            controller.error(error);
          }
        },
      });
      return { stream };
    },
  };
}
