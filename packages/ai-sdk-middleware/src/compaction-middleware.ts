import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Message,
  LanguageModelV4Middleware,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createContextManager, type PreparedContext } from '@baton/compressor';
import { type CountMessagesOptions, InvalidInputError } from '@baton/tokens';
import { createRecallLoop, type RecallLoopStore } from './recall-loop.js';
import { toModelMessages } from './to-model-messages.js';
import { toProviderPrompt } from './to-provider-prompt.js';
import type { BatonProviderMetadata, CompactionMiddlewareOptions } from './types.js';

/**
 * Compaction as AI SDK middleware: counts every request (prompt, tool definitions, reserved output)
 * and, once it crosses the threshold, compresses the history with `@baton/compressor` before the
 * provider sees it. Below the threshold the call's params are returned untouched (the same object).
 * The work is done by a context manager (`createContextManager`); this adapter converts the provider
 * prompt to messages and back and reports `providerMetadata.baton`.
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: compactionMiddleware({ summarizer }) });
 * ```
 */
export function compactionMiddleware(
  options: CompactionMiddlewareOptions = {},
): LanguageModelV4Middleware {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError({ path: 'options', message: 'must be an object' });
  }
  const { getSessionId, onCompaction, recall: recallOptions, ...managerOptions } = options;
  if (
    options.store !== undefined &&
    options.sessionId === undefined &&
    getSessionId === undefined
  ) {
    throw new InvalidInputError({
      path: 'store',
      message: 'needs `sessionId` or `getSessionId` to know which lineage to use',
    });
  }
  const sessionIdFor = (params: LanguageModelV4CallOptions) =>
    getSessionId?.(params) ?? options.sessionId;
  // Recall for the model (recall-loop.ts): adds its tool to each call and runs it. Off by default.
  const recall = createRecallLoop(
    options.store as RecallLoopStore | undefined,
    recallOptions,
    sessionIdFor,
    // Recall results go into a prompt the manager sized: they get only what the window has left.
    (params) => {
      const report = preparedCalls.get(params)?.report;
      return report === undefined
        ? undefined
        : Math.floor((report.availableTokens - report.inputTokens) / report.calibrationRatio);
    },
  );
  const manager = createContextManager({
    ...managerOptions,
    // Inserts promise recall (and name their span) only when the model has the tool.
    ...(recall.toolName === undefined
      ? {}
      : { compressor: { ...managerOptions.compressor, recall: { toolName: recall.toolName } } }),
  });
  // Provider messages by the `ModelMessage` made of them (or made from them), for messages that were
  // sent: kept history goes back to the provider as the very same objects, and a summary is
  // converted once, not every step. Only what a compacted call sends is entered: entering every
  // message of every step made each garbage collection walk one weak entry per message ever seen,
  // and the steps of a long loop grew slower with the number of steps taken.
  const providerMessages = new WeakMap<object, LanguageModelV4Message>();
  const preparedCalls = new WeakMap<LanguageModelV4CallOptions, PreparedContext>();

  function toPrompt(
    messages: readonly ModelMessage[],
    received: readonly ModelMessage[],
    receivedPrompt: LanguageModelV4Prompt,
  ): LanguageModelV4Prompt {
    // Kept messages of this call come back in the order they were received (the head, then the
    // tail after a skipped middle), so each is looked for from where the previous one was found:
    // pointer checks, no map of every message. A message this call did not receive (a summary, a
    // masked result) is looked up among those sent before; when it is not there either, the rest
    // is found through a map of this call's messages, so no search runs twice.
    let next = 0;
    let byMessage: Map<object, LanguageModelV4Message> | undefined;
    const prompt: LanguageModelV4Prompt = [];
    for (const message of messages) {
      let converted: LanguageModelV4Message | undefined;
      if (byMessage === undefined && received[next] === message) converted = receivedPrompt[next++];
      else converted = providerMessages.get(message) ?? byMessage?.get(message);
      if (converted === undefined && byMessage === undefined) {
        let index = next;
        while (index < received.length && received[index] !== message) index++;
        if (index < received.length) {
          converted = receivedPrompt[index];
          next = index + 1;
        } else {
          byMessage = new Map();
          for (let at = 0; at < received.length; at++)
            byMessage.set(received[at]!, receivedPrompt[at]!);
          // One received before the last found (out of order) is in the map too.
          converted = byMessage.get(message);
        }
      }
      if (converted === undefined) {
        [converted] = toProviderPrompt([message]);
        // Approval requests never reach providers: nothing to send.
        if (converted === undefined) continue;
      }
      providerMessages.set(message, converted);
      prompt.push(converted);
    }
    return prompt;
  }

  function metadataOf(
    params: LanguageModelV4CallOptions,
    usage: LanguageModelV4Usage | undefined,
  ): BatonProviderMetadata | undefined {
    const prepared = preparedCalls.get(params);
    if (prepared === undefined) return undefined;
    manager.observeUsage(prepared, usage?.inputTokens?.total);
    return { ...prepared.report };
  }

  return {
    specificationVersion: 'v4',
    transformParams: ({ params, model }) => transformParams(recall.withTool(params), model),
    async wrapGenerate({ doGenerate, params, model }) {
      const result = await recall.generate({ doGenerate, params, model });
      const baton = metadataOf(params, recall.calibrationUsage(params, result.usage));
      if (baton === undefined) return result;
      return { ...result, providerMetadata: { ...result.providerMetadata, baton } };
    },
    async wrapStream({ doStream, params, model }) {
      const { stream, ...rest } = await recall.stream({ doStream, params, model });
      const transformed = stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            const baton =
              part.type === 'finish'
                ? metadataOf(params, recall.calibrationUsage(params, part.usage))
                : undefined;
            controller.enqueue(
              baton === undefined || part.type !== 'finish'
                ? part
                : { ...part, providerMetadata: { ...part.providerMetadata, baton } },
            );
          },
        }),
      );
      return { ...rest, stream: transformed };
    },
  };

  async function transformParams(
    params: LanguageModelV4CallOptions,
    model: { provider: string; modelId: string },
  ): Promise<LanguageModelV4CallOptions> {
    const prompt = params.prompt;
    if (!Array.isArray(prompt)) {
      throw new InvalidInputError({
        path: 'params.prompt',
        message: 'must be an array of messages',
      });
    }
    const messages = toModelMessages(prompt);
    const sessionId = sessionIdFor(params);
    const prepared = await manager.prepare(messages, {
      model: model.modelId,
      calibrationKey: `${model.provider}:${model.modelId}`,
      tools: params.tools as CountMessagesOptions['tools'],
      ...(params.maxOutputTokens === undefined ? {} : { maxOutputTokens: params.maxOutputTokens }),
      ...(params.abortSignal === undefined ? {} : { abortSignal: params.abortSignal }),
      ...(sessionId === undefined ? {} : { sessionId }),
    });
    if (prepared.event !== undefined) {
      await onCompaction?.({
        ...prepared.event,
        provider: model.provider,
        modelId: model.modelId,
      });
    }
    const sent =
      prepared.messages === messages
        ? params
        : { ...params, prompt: toPrompt(prepared.messages, messages, prompt) };
    preparedCalls.set(sent, prepared);
    return sent;
  }
}
