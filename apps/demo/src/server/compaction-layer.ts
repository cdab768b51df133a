import { mkdir } from 'node:fs/promises';
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Middleware,
} from '@ai-sdk/provider';
import type { CompactionEvent } from '@baton/compressor';
import { type CountableMessage, createTokenCounter, type TokenCounter } from '@baton/tokens';
import { wrapLanguageModel } from 'ai';
import type { LineageEntry, MeterReading } from '../shared/demo-types.js';

/** The parts of a `@baton/sessions` store the demo reads. */
interface LineageStore {
  createSession(options: { id?: string; model?: string; title?: string }): Promise<unknown>;
  getSession(id: string): Promise<StoredSession>;
  lineage(id: string): Promise<StoredSession[]>;
  resume(id: string): Promise<{ session: StoredSession; messages: unknown[] }>;
  close(): Promise<void>;
}

interface StoredSession {
  id: string;
  parentId: string | null;
  createdAt: Date | string;
  endedAt: Date | string | null;
  endReason: string | null;
}

interface SessionsModule {
  createSessionStore(options: { dataDir: string; tokenCounter?: unknown }): Promise<LineageStore>;
}

interface MiddlewareModule {
  compactionMiddleware(options: Record<string, unknown>): LanguageModelV4Middleware;
}

export interface CompactionNotice {
  event: CompactionEvent;
  parentSessionId: string | undefined;
  childSessionId: string | undefined;
}

export interface CompactionLayerOptions {
  model: LanguageModelV4;
  summarizer: LanguageModelV4 | undefined;
  /** Compaction strategy; the offline demo uses the deterministic receipt. */
  strategy: string;
  contextWindow: number;
  /** True for the scripted agent. */
  offline: boolean;
  /** Folder for the PGlite lineage store. */
  storeDirectory: string;
  getSessionId: () => string;
  onCompaction: (notice: CompactionNotice) => void;
  onMeter: (reading: MeterReading) => void;
}

export interface CompactionLayer {
  /** The chat model wrapped with the meter and Baton's compaction middleware. */
  model: LanguageModelV4;
  /** What went wrong while loading Baton's packages (the demo still chats, without compaction). */
  warnings: string[];
  /** Prompt size (tokens) above which the middleware compacts, for a call reserving `maxOutputTokens`. */
  threshold(maxOutputTokens: number): number;
  /** Creates the root session in the store if it is not there yet. */
  ensureSession(rootSessionId: string, title: string): Promise<void>;
  /** The lineage from the root to the newest session, and that newest session's id. */
  lineage(rootSessionId: string): Promise<{ entries: LineageEntry[]; currentSessionId: string }>;
  close(): Promise<void>;
}

/** The middleware's documented default: compact above 0.8 of (window - reserved output). */
const DEFAULT_THRESHOLD = 0.8;

function isoDate(value: Date | string | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString() : value;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function pick(source: unknown, key: string): unknown {
  return typeof source === 'object' && source !== null
    ? (source as Record<string, unknown>)[key]
    : undefined;
}

/** Reads the middleware's `onCompaction` argument, whether it is the event or wraps it. */
export function readCompactionNotice(argument: unknown): CompactionNotice {
  const nested = pick(argument, 'event');
  const event = (
    typeof nested === 'object' && nested !== null ? nested : argument
  ) as CompactionEvent;
  const text = (key: string) => {
    const value = pick(argument, key) ?? pick(event, key);
    return typeof value === 'string' ? value : undefined;
  };
  return {
    event,
    parentSessionId: text('parentSessionId') ?? text('sessionId'),
    childSessionId: text('childSessionId'),
  };
}

function promptCounter(counter: TokenCounter) {
  return (params: LanguageModelV4CallOptions): number => {
    const tools = (params.tools ?? []).map((tool) =>
      tool.type === 'function'
        ? { name: tool.name, description: tool.description, parameters: tool.inputSchema }
        : { name: tool.name },
    );
    return counter.countMessages(params.prompt as unknown as CountableMessage[], { tools });
  };
}

/**
 * Wraps the chat model: an outer meter (what the app asked to send), Baton's compaction middleware,
 * and an inner meter (what reached the model). Baton's packages load at run time so that the demo
 * still starts, and says why, if one of them is missing or broken.
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

  const outerMeter: LanguageModelV4Middleware = {
    specificationVersion: 'v4',
    transformParams: async ({ params }) => {
      requested = count(params);
      return params;
    },
  };
  const innerMeter: LanguageModelV4Middleware = {
    specificationVersion: 'v4',
    transformParams: async ({ params }) => {
      options.onMeter({
        tokensRequested: requested,
        tokensSent: count(params),
        contextWindow: options.contextWindow,
        threshold: threshold(params.maxOutputTokens),
        exact: counter.exact,
        at: new Date().toISOString(),
      });
      return params;
    },
  };

  function threshold(maxOutputTokens: number | undefined): number {
    const reserved = maxOutputTokens ?? Math.floor(options.contextWindow / 8);
    return Math.floor(DEFAULT_THRESHOLD * Math.max(0, options.contextWindow - reserved));
  }

  let store: LineageStore | undefined;
  try {
    const sessions = (await import('@baton/sessions')) as unknown as SessionsModule;
    if (typeof sessions.createSessionStore !== 'function') {
      throw new Error('@baton/sessions does not export createSessionStore (is it built?)');
    }
    await mkdir(options.storeDirectory, { recursive: true });
    store = await sessions.createSessionStore({
      dataDir: options.storeDirectory,
      tokenCounter: counter,
    });
  } catch (error) {
    warnings.push(`Lineage store unavailable: ${describeError(error)}`);
  }

  let compaction: LanguageModelV4Middleware | undefined;
  try {
    const middleware = (await import('@baton/ai-sdk-middleware')) as unknown as MiddlewareModule;
    if (typeof middleware.compactionMiddleware !== 'function') {
      throw new Error(
        '@baton/ai-sdk-middleware does not export compactionMiddleware (is it built?)',
      );
    }
    compaction = middleware.compactionMiddleware({
      contextWindow: options.contextWindow,
      threshold: DEFAULT_THRESHOLD,
      strategy: options.strategy,
      counter,
      ...(options.summarizer ? { summarizer: options.summarizer } : {}),
      ...(store ? { store, getSessionId: options.getSessionId } : {}),
      onCompaction: (argument: unknown) => options.onCompaction(readCompactionNotice(argument)),
    });
  } catch (error) {
    warnings.push(`Compaction disabled: ${describeError(error)}`);
  }

  const model = wrapLanguageModel({
    model: options.model,
    middleware: compaction ? [outerMeter, compaction, innerMeter] : [outerMeter, innerMeter],
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
      const { session } = await store.resume(rootSessionId);
      const chain = await store.lineage(session.id);
      return {
        currentSessionId: session.id,
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
