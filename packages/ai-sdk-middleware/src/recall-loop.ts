import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolCall,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { estimateTokens, InvalidInputError } from '@baton/tokens';
import {
  type RecallSettings,
  type RecallToolStore,
  recallInputSchema,
  recallToolDescription,
  resolveRecallSettings,
  runRecall,
} from './run-recall.js';

/** `compactionMiddleware({ recall: { ... } })`. */
export interface RecallLoopOptions {
  /** Name of the tool the model sees. Default `'baton_recall'`. */
  toolName?: string;
  /**
   * Model calls that may follow a reply asking only to recall, per call of the app. The last one is
   * made without the tool, so the app always gets an answer. Default `3`, from 1 to 10.
   */
  maxSteps?: number;
  /** Upper bound of each tool result, in estimated tokens. Default `2000`, at least `200`. */
  maxOutputTokens?: number;
  /** Matches per recall when the model does not ask for fewer. Default `5`, at most `20`. */
  defaultLimit?: number;
  /** Characters of text around each match. Default `600`. */
  excerptLength?: number;
}

/** The store the loop needs: `recall`, and `listSessions` to find the lineage's current head. */
export interface RecallLoopStore extends RecallToolStore {
  listSessions(options?: { rootId?: string; limit?: number }): Promise<{ id: string }[]>;
}

/** What `providerMetadata.batonRecall` reports when the middleware ran recall for the model. */
export interface BatonRecallMetadata {
  /** Extra model calls made with recall results (the app saw only the last reply). */
  steps: number;
  /** Recall tool calls the middleware executed. */
  calls: number;
}

interface CallArguments {
  params: LanguageModelV4CallOptions;
  model: LanguageModelV4;
}

export interface RecallLoop {
  /** The tool's name when recall is on, for the compressor's note in each insert; else undefined. */
  readonly toolName: string | undefined;
  /** `params` with the recall tool added, or `params` itself when recall is off or not allowed. */
  withTool(params: LanguageModelV4CallOptions): LanguageModelV4CallOptions;
  generate(
    call: CallArguments & { doGenerate: () => ReturnType<LanguageModelV4['doGenerate']> },
  ): ReturnType<LanguageModelV4['doGenerate']>;
  stream(
    call: CallArguments & { doStream: () => ReturnType<LanguageModelV4['doStream']> },
  ): ReturnType<LanguageModelV4['doStream']>;
  /**
   * The usage to calibrate token estimates with: the first model call's when recall added calls
   * (their prompts are larger than what was estimated), else `usage`.
   */
  calibrationUsage(
    params: LanguageModelV4CallOptions,
    usage: LanguageModelV4Usage | undefined,
  ): LanguageModelV4Usage | undefined;
}

const defaultToolName = 'baton_recall';
/** A recall result smaller than this says too little: the loop stops instead. */
const minimumResultTokens = 200;
const defaultMaxSteps = 3;

/**
 * Runs the recall tool inside the middleware. The AI SDK executes only the tools the app passed to
 * `generateText`/`streamText`, so a tool the middleware adds at the provider level must be executed
 * by the middleware: when the model's reply calls it, the loop runs each call against the store
 * (from the lineage's newest open session), appends the call and its result to the prompt, and asks
 * the model again. The app receives only the final reply: recall calls and results never enter its
 * messages (nor the store's raw history); `providerMetadata.batonRecall` counts them.
 *
 * A reply that calls recall and app tools together is asked again too (with the recall results, and
 * without the app calls, which would have no results): the model repeats what it still needs. The
 * last allowed call goes without the tool; a recall call it makes anyway is dropped from the reply.
 */
export function createRecallLoop(
  store: RecallLoopStore | undefined,
  given: boolean | RecallLoopOptions | undefined,
  sessionIdFor: (params: LanguageModelV4CallOptions) => string | undefined,
  roomFor: (params: LanguageModelV4CallOptions) => number | undefined = () => undefined,
): RecallLoop {
  const enabled = given !== undefined && given !== false;
  const options: RecallLoopOptions = typeof given === 'object' && given !== null ? given : {};
  if (
    given !== undefined &&
    typeof given !== 'boolean' &&
    (typeof given !== 'object' || given === null)
  ) {
    throw new InvalidInputError({ path: 'recall', message: 'must be a boolean or an object' });
  }
  const toolName = options.toolName ?? defaultToolName;
  const maxSteps = options.maxSteps ?? defaultMaxSteps;
  if (enabled) {
    if (typeof store?.recall !== 'function' || typeof store.listSessions !== 'function') {
      throw new InvalidInputError({
        path: 'recall',
        message: 'needs a `store` with recall and listSessions (@baton/sessions)',
      });
    }
    if (typeof toolName !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(toolName)) {
      throw new InvalidInputError({
        path: 'recall.toolName',
        message: 'must be 1 to 64 letters, digits, _ or -',
      });
    }
    if (!Number.isSafeInteger(maxSteps) || maxSteps < 1 || maxSteps > 10) {
      throw new InvalidInputError({
        path: 'recall.maxSteps',
        message: 'must be an integer from 1 to 10',
      });
    }
  }
  const settings: RecallSettings = resolveRecallSettings(options);
  const definition: LanguageModelV4FunctionTool = {
    type: 'function',
    name: toolName,
    description: recallToolDescription,
    inputSchema: recallInputSchema(settings),
  };
  const firstUsages = new WeakMap<LanguageModelV4CallOptions, LanguageModelV4Usage | undefined>();

  /** Only calls whose tools carry this loop's definition are the loop's to run. */
  const active = (params: LanguageModelV4CallOptions) =>
    enabled && params.tools?.some((tool) => tool === definition) === true;

  async function execute(
    params: LanguageModelV4CallOptions,
    call: LanguageModelV4ToolCall,
    maxOutputTokens: number,
  ): Promise<string> {
    let input: unknown;
    try {
      input = call.input.trim() === '' ? {} : JSON.parse(call.input);
    } catch {
      return 'Recall was not run: the input is not valid JSON; give an object such as {"query": "..."}.';
    }
    const sessionId = sessionIdFor(params);
    if (sessionId === undefined) {
      return 'Recall was not run: this conversation has no session in the store.';
    }
    // The middleware's session id names the lineage root; compactions continue it in newer sessions,
    // and recall searches a session with its ancestors, so it starts from the newest open one.
    const from = async () => {
      const [newest] = await (store as RecallLoopStore).listSessions({
        rootId: sessionId,
        limit: 1,
      });
      return newest?.id ?? sessionId;
    };
    return runRecall(store as RecallLoopStore, from, input, { ...settings, maxOutputTokens });
  }

  /**
   * Tokens each of `calls` may return so the prompt stays within the room the window has left, or
   * undefined when not even the smallest result fits (the loop then stops, as after its last step).
   */
  function resultBudget(
    room: number | undefined,
    calls: readonly LanguageModelV4ToolCall[],
  ): number | undefined {
    if (room === undefined) return settings.maxOutputTokens;
    // The call message and each result's framing, estimated generously: the count is not exact.
    const framing = calls.reduce((total, call) => total + estimateTokens(call.input) + 40, 20);
    const each = Math.floor((room * 0.9 - framing) / calls.length);
    return each < minimumResultTokens ? undefined : Math.min(each, settings.maxOutputTokens);
  }

  /** What a step appended to the prompt, estimated. */
  const appended = (messages: readonly LanguageModelV4Message[]) =>
    estimateTokens(JSON.stringify(messages)) + 10 * messages.length;

  /** The prompt of the next step: the reply's text and recall calls, then their results. */
  async function nextPrompt(
    params: LanguageModelV4CallOptions,
    prompt: LanguageModelV4Message[],
    content: readonly LanguageModelV4Content[],
    calls: readonly LanguageModelV4ToolCall[],
    maxOutputTokens: number,
  ): Promise<LanguageModelV4Message[]> {
    const results = await Promise.all(calls.map((call) => execute(params, call, maxOutputTokens)));
    const said = content.flatMap((part) =>
      part.type === 'text' || part.type === 'reasoning'
        ? [{ type: part.type, text: part.text }]
        : [],
    );
    return [
      ...prompt,
      {
        role: 'assistant',
        content: [
          ...said,
          ...calls.map((call) => ({
            type: 'tool-call' as const,
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            input: parseInput(call.input),
          })),
        ],
      },
      {
        role: 'tool',
        content: calls.map((call, index) => ({
          type: 'tool-result' as const,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output: { type: 'text' as const, value: results[index]! },
        })),
      },
    ];
  }

  /** The params of step `step` (1-based) after the first call. */
  function stepParams(
    params: LanguageModelV4CallOptions,
    prompt: LanguageModelV4Message[],
    step: number,
  ): LanguageModelV4CallOptions {
    if (step < maxSteps) return { ...params, prompt };
    const tools = params.tools?.filter((tool) => tool !== definition);
    const onlyRecall = params.toolChoice?.type === 'required' && (tools?.length ?? 0) === 0;
    return {
      ...params,
      prompt,
      tools: tools?.length === 0 ? undefined : tools,
      ...(onlyRecall ? { toolChoice: { type: 'auto' } } : {}),
    };
  }

  const isRecallCall = (part: LanguageModelV4Content | LanguageModelV4StreamPart) =>
    part.type === 'tool-call' && part.toolName === toolName && part.providerExecuted !== true;

  return {
    toolName: enabled ? toolName : undefined,
    withTool(params) {
      if (!enabled) return params;
      const choice = params.toolChoice?.type;
      // The app ruled tools out or named one; a tool of its own under this name stays its own.
      if (choice === 'none' || choice === 'tool') return params;
      if (params.tools?.some((tool) => tool.name === toolName)) return params;
      return { ...params, tools: [...(params.tools ?? []), definition] };
    },

    async generate({ doGenerate, params, model }) {
      const first = await doGenerate();
      if (!active(params)) return first;
      let result = first;
      let prompt = [...params.prompt];
      let usage = first.usage;
      let steps = 0;
      let executed = 0;
      let room = roomFor(params);
      while (steps < maxSteps) {
        const calls = result.content.filter(isRecallCall) as LanguageModelV4ToolCall[];
        const budget = resultBudget(room, calls);
        if (calls.length === 0 || budget === undefined) break;
        steps++;
        executed += calls.length;
        const before = prompt.length;
        prompt = await nextPrompt(params, prompt, result.content, calls, budget);
        if (room !== undefined) room -= appended(prompt.slice(before));
        result = await model.doGenerate(stepParams(params, prompt, steps));
        usage = addUsage(usage, result.usage);
      }
      // No room for even one recall: its call is still the middleware's, dropped from the reply.
      if (steps === 0 && !first.content.some(isRecallCall)) return first;
      firstUsages.set(params, first.usage);
      const content = result.content.filter((part) => !isRecallCall(part));
      const metadata: BatonRecallMetadata = { steps, calls: executed };
      return {
        ...result,
        content,
        finishReason: settledFinishReason(result.finishReason, content),
        usage,
        providerMetadata: { ...result.providerMetadata, batonRecall: { ...metadata } },
      };
    },

    async stream({ doStream, params, model }) {
      const first = await doStream();
      if (!active(params)) return first;
      let usage: LanguageModelV4Usage | undefined;
      let steps = 0;
      let executed = 0;
      let prompt = [...params.prompt];
      // The app may cancel mid-recall: the provider's stream is cancelled and no further step is asked.
      let cancelled = false;
      let reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart> | undefined;
      let room = roomFor(params);
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async start(controller) {
          let current = first.stream;
          try {
            while (!cancelled) {
              const recallIds = new Set<string>();
              const calls: LanguageModelV4ToolCall[] = [];
              // The app's tool calls wait for the end of the step: if it also recalled, the model is
              // asked again and those calls (which would get no results) are dropped.
              const appToolParts: LanguageModelV4StreamPart[] = [];
              const said = new Map<string, { type: 'text' | 'reasoning'; text: string }>();
              let finish: Extract<LanguageModelV4StreamPart, { type: 'finish' }> | undefined;
              reader = current.getReader();
              for (;;) {
                const { done, value: part } = await reader.read();
                if (done) break;
                if (part.type === 'stream-start' && steps > 0) continue;
                // Recall calls are the middleware's: their input parts and the call stay here.
                if (part.type === 'tool-input-start' && part.toolName === toolName) {
                  recallIds.add(part.id);
                  continue;
                }
                if (
                  (part.type === 'tool-input-delta' || part.type === 'tool-input-end') &&
                  recallIds.has(part.id)
                ) {
                  continue;
                }
                if (isRecallCall(part)) {
                  calls.push(part as LanguageModelV4ToolCall);
                  continue;
                }
                if (
                  (part.type === 'tool-call' && part.providerExecuted !== true) ||
                  part.type === 'tool-input-start' ||
                  part.type === 'tool-input-delta' ||
                  part.type === 'tool-input-end'
                ) {
                  appToolParts.push(part);
                  continue;
                }
                if (part.type === 'text-delta' || part.type === 'reasoning-delta') {
                  const kind = part.type === 'text-delta' ? 'text' : 'reasoning';
                  const key = `${kind}:${part.id}`;
                  const entry = said.get(key) ?? { type: kind, text: '' };
                  entry.text += part.delta;
                  said.set(key, entry);
                }
                if (part.type === 'finish') {
                  finish = part;
                  continue;
                }
                controller.enqueue(part);
              }
              if (steps === 0) firstUsages.set(params, finish?.usage);
              usage = usage === undefined ? finish?.usage : addUsage(usage, finish?.usage);
              if (cancelled) break;
              const budget = resultBudget(room, calls);
              if (
                calls.length === 0 ||
                steps >= maxSteps ||
                finish === undefined ||
                budget === undefined
              ) {
                for (const part of appToolParts) controller.enqueue(part);
                if (finish !== undefined) {
                  const metadata: BatonRecallMetadata = { steps, calls: executed };
                  const left = appToolParts.filter((part) => part.type === 'tool-call');
                  controller.enqueue({
                    ...finish,
                    ...(usage === undefined ? {} : { usage }),
                    ...(steps === 0 && calls.length === 0
                      ? {}
                      : {
                          finishReason: settledFinishReason(
                            finish.finishReason,
                            left as LanguageModelV4Content[],
                          ),
                          providerMetadata: {
                            ...finish.providerMetadata,
                            batonRecall: { ...metadata },
                          },
                        }),
                  });
                }
                break;
              }
              steps++;
              executed += calls.length;
              const content = [...said.values()] as LanguageModelV4Content[];
              const before = prompt.length;
              prompt = await nextPrompt(params, prompt, content, calls, budget);
              if (room !== undefined) room -= appended(prompt.slice(before));
              if (cancelled) break;
              current = (await model.doStream(stepParams(params, prompt, steps))).stream;
            }
            if (steps === 0) firstUsages.delete(params);
            if (!cancelled) controller.close();
          } catch (error) {
            if (!cancelled) controller.error(error);
          }
        },
        async cancel(reason) {
          cancelled = true;
          await reader?.cancel(reason);
        },
      });
      return { ...first, stream };
    },

    calibrationUsage(params, usage) {
      return firstUsages.has(params) ? firstUsages.get(params) : usage;
    },
  };
}

function parseInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/** A reply left with no tool call cannot say it stopped for tool calls. */
function settledFinishReason(
  reason: { unified: string; raw: string | undefined },
  content: readonly LanguageModelV4Content[],
) {
  if (reason.unified !== 'tool-calls' || content.some((part) => part.type === 'tool-call')) {
    return reason as { unified: 'stop'; raw: string | undefined };
  }
  return { unified: 'stop' as const, raw: reason.raw };
}

function addUsage(
  total: LanguageModelV4Usage | undefined,
  next: LanguageModelV4Usage | undefined,
): LanguageModelV4Usage {
  const sum = (a: number | undefined, b: number | undefined) =>
    a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
  return {
    inputTokens: {
      total: sum(total?.inputTokens.total, next?.inputTokens.total),
      noCache: sum(total?.inputTokens.noCache, next?.inputTokens.noCache),
      cacheRead: sum(total?.inputTokens.cacheRead, next?.inputTokens.cacheRead),
      cacheWrite: sum(total?.inputTokens.cacheWrite, next?.inputTokens.cacheWrite),
    },
    outputTokens: {
      total: sum(total?.outputTokens.total, next?.outputTokens.total),
      text: sum(total?.outputTokens.text, next?.outputTokens.text),
      reasoning: sum(total?.outputTokens.reasoning, next?.outputTokens.reasoning),
    },
  };
}
