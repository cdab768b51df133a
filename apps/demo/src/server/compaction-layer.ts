import { mkdir } from 'node:fs/promises';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Middleware,
} from '@ai-sdk/provider';
import {
  compactionMiddleware,
  type MiddlewareCompactionEvent,
  resolveBudget,
} from '@baton/ai-sdk-middleware';
import { type CompressionStrategy, defaultTargetRatio, defaultThreshold } from '@baton/compressor';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import {
  type CountableMessage,
  type CountMessagesOptions,
  createTokenCounter,
  resolveModel,
  type TokenCounter,
} from '@baton/tokens';
import { wrapLanguageModel } from 'ai';
import type { LineageEntry, MeterReading } from '../shared/demo-types.js';

export interface CompactionNotice {
  event: MiddlewareCompactionEvent;
  childSessionId: string | undefined;
  /** The compacting call's prompt as the meter counts it (tool definitions included). */
  prompt: { tokensBefore: number; tokensAfter: number; toolDefinitionTokens: number };
}

export interface CompactionLayerOptions {
  model: LanguageModelV4;
  summarizer: LanguageModelV4 | undefined;
  /** Summary size and compressor settings for a slow local summariser. Default: the middleware's. */
  summarizerSettings?: {
    summaryTargetTokens: number;
    compressor: NonNullable<NonNullable<Parameters<typeof compactionMiddleware>[0]>['compressor']>;
  };
  /** Compaction strategy; the offline demo uses the deterministic receipt or the local model. */
  strategy: CompressionStrategy;
  contextWindow: number;
  /** True for the scripted agent. */
  offline: boolean;
  /** Folder for the PGlite lineage store. */
  storeDirectory: string;
  getSessionId: () => string | undefined;
  onCompaction: (notice: CompactionNotice) => void;
  onMeter: (reading: MeterReading) => void;
  /** The prompt that reached the model, at every call. */
  onPromptSent?: (prompt: LanguageModelV4CallOptions['prompt']) => void;
}

export interface CompactionLayer {
  /** The chat model wrapped with the meter and Baton's compaction middleware. */
  model: LanguageModelV4;
  /** Problems to show on the page (e.g. the lineage store could not open). */
  warnings: string[];
  /** Prompt size (tokens) above which the middleware compacts, for a call reserving `maxOutputTokens`. */
  threshold(maxOutputTokens: number): number;
  /** Creates the root session in the store if it is not there yet. */
  ensureSession(rootSessionId: string, title: string): Promise<void>;
  /** The lineage from the root to the newest session, and that newest session's id. */
  lineage(rootSessionId: string): Promise<{ entries: LineageEntry[]; currentSessionId: string }>;
  close(): Promise<void>;
}

function isoDate(value: Date | null): string | null {
  return value === null ? null : value.toISOString();
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function promptCounter(counter: TokenCounter) {
  return (params: LanguageModelV4CallOptions, withTools = true): number =>
    // Counted as the middleware counts them: tool definitions as the provider receives them.
    counter.countMessages(
      params.prompt as unknown as CountableMessage[],
      withTools ? { tools: params.tools as CountMessagesOptions['tools'] } : {},
    );
}

/**
 * Wraps the chat model: an outer meter (what the app asked to send), Baton's compaction middleware,
 * and an inner meter (what reached the model).
 */
export async function createCompactionLayer(
  options: CompactionLayerOptions,
): Promise<CompactionLayer> {
  const warnings: string[] = [];
  // The offline agent has no tokenizer of its own; count it like current OpenAI models.
  const counter = createTokenCounter(
    options.offline ? { encoding: 'o200k_base' } : { model: options.model.modelId },
  );
  const count = promptCounter(counter);
  let requested = 0;
  let toolDefinitionTokens = 0;
  // Reported once the inner meter has counted the same call, so the card and the meter agree.
  let pendingCompaction: MiddlewareCompactionEvent | undefined;

  const outerMeter: LanguageModelV4Middleware = {
    specificationVersion: 'v4',
    transformParams: async ({ params }) => {
      requested = count(params);
      toolDefinitionTokens = params.tools?.length ? requested - count(params, false) : 0;
      return params;
    },
  };
  const innerMeter: LanguageModelV4Middleware = {
    specificationVersion: 'v4',
    transformParams: async ({ params }) => {
      const sent = count(params);
      if (pendingCompaction) {
        const event = pendingCompaction;
        pendingCompaction = undefined;
        options.onCompaction({
          event,
          childSessionId: event.childSessionId,
          prompt: { tokensBefore: requested, tokensAfter: sent, toolDefinitionTokens },
        });
      }
      options.onPromptSent?.(params.prompt);
      options.onMeter({
        tokensRequested: requested,
        tokensSent: sent,
        toolDefinitionTokens,
        contextWindow: options.contextWindow,
        threshold: threshold(params.maxOutputTokens),
        exact: counter.exact,
        at: new Date().toISOString(),
      });
      return params;
    },
  };

  // The meter's threshold line is the middleware's own trigger, not a copy of its formula.
  const modelMaxOutputTokens = resolveModel(options.model.modelId).maxOutputTokens;
  function threshold(maxOutputTokens: number | undefined): number {
    return resolveBudget({
      contextWindow: options.contextWindow,
      requestedOutputTokens: maxOutputTokens,
      modelMaxOutputTokens,
      threshold: defaultThreshold,
      targetRatio: defaultTargetRatio,
    }).triggerTokens;
  }

  let store: SessionStore | undefined;
  try {
    await mkdir(options.storeDirectory, { recursive: true });
    store = await createSessionStore({ dataDir: options.storeDirectory, tokenCounter: counter });
  } catch (error) {
    // Without the store the demo still compacts, in memory; the page says why lineage is missing.
    warnings.push(`Lineage store unavailable: ${describeError(error)}`);
  }

  const compaction = compactionMiddleware({
    contextWindow: options.contextWindow,
    strategy: options.strategy,
    counter,
    ...(options.summarizer ? { summarizer: options.summarizer } : {}),
    ...(options.summarizerSettings ?? {}),
    ...(store ? { store, getSessionId: options.getSessionId } : {}),
    onCompaction: (event) => {
      pendingCompaction = event;
    },
  });

  const model = wrapLanguageModel({
    model: options.model,
    middleware: [outerMeter, compaction, innerMeter],
  });

  return {
    model,
    warnings,
    threshold,
    async ensureSession(rootSessionId, title) {
      if (!store) return;
      try {
        await store.getSession(rootSessionId);
      } catch {
        await store.createSession({ id: rootSessionId, model: options.model.modelId, title });
      }
    },
    async lineage(rootSessionId) {
      if (!store) {
        return {
          entries: [
            { id: rootSessionId, parentId: null, createdAt: '', endedAt: null, endReason: null },
          ],
          currentSessionId: rootSessionId,
        };
      }
      // The open session of this lineage is its head, after a compaction (child) or an edited
      // history (fork) alike; `resume` would also load every message of it.
      const [head] = await store.listSessions({ rootId: rootSessionId, limit: 1 });
      const currentSessionId = head?.id ?? rootSessionId;
      const chain = await store.lineage(currentSessionId);
      return {
        currentSessionId,
        entries: chain.map((entry) => ({
          id: entry.id,
          parentId: entry.parentId,
          createdAt: isoDate(entry.createdAt) ?? '',
          endedAt: isoDate(entry.endedAt),
          endReason: entry.endReason,
        })),
      };
    },
    async close() {
      counter.dispose();
      await store?.close();
    },
  };
}
