import type { CompactionEvent } from '@baton/compressor';
import type { UIMessage } from 'ai';

/** Tokens of the prompt at one model call, as the context meter shows them. */
export interface MeterReading {
  /** Prompt tokens the application handed to the model (before compaction). */
  tokensRequested: number;
  /** Prompt tokens that actually went to the model (after compaction, tool definitions included). */
  tokensSent: number;
  /** Tokens of the tool definitions, included in both figures above (absent in older readings). */
  toolDefinitionTokens?: number;
  contextWindow: number;
  /** Prompt size above which the middleware compacts. */
  threshold: number;
  /** True when counted with the model's own tokenizer, false for an estimate. */
  exact: boolean;
  /** ISO timestamp of the call. */
  at: string;
}

/** One compaction as the demo shows it: Baton's event plus where it happened in the lineage. */
export interface DemoCompaction {
  id: string;
  event: CompactionEvent;
  /** Session that was compacted (ended), when the lineage store reported it. */
  parentSessionId: string | undefined;
  /** Session created from the compacted context, when the lineage store reported it. */
  childSessionId: string | undefined;
  /** Number of user turns in the conversation when it happened. */
  turn: number;
  /**
   * The prompt of the call that compacted, as the meter counted it (tool definitions included), so the
   * card and the meter show one set of figures. `event.tokensBefore/After` count the messages only.
   */
  prompt?: { tokensBefore: number; tokensAfter: number; toolDefinitionTokens: number };
}

/** Where a message of the prompt sits after a compaction. */
export type ModelViewSection = 'head' | 'handoff' | 'tail' | 'uncompacted';

/** One message of the prompt the model last received, as text for the page. */
export interface ModelViewMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  section: ModelViewSection;
  /** Text parts, tool calls (`→ name input`) and results (`← name: output`), long parts clipped. */
  text: string;
}

/** The prompt of the latest model call, as the model saw it (redacted). */
export interface ModelView {
  messages: ModelViewMessage[];
  /** ISO timestamp of the call. */
  at: string;
}

export interface LineageEntry {
  id: string;
  parentId: string | null;
  createdAt: string;
  endedAt: string | null;
  endReason: string | null;
}

export interface ModelDescription {
  /** `scripted` (offline), `openai`, `anthropic` or `openai-compatible`. */
  provider: string;
  modelId: string;
  /** True when no LLM is configured and the scripted agent plays. */
  offline: boolean;
  /** Summariser used for compaction, or a description of the fallback. */
  summarizer: string;
  /**
   * Offline only: `local` when a local GGUF model writes the summaries (named in `summarizer`),
   * `receipt` when the deterministic receipt is used.
   */
  offlineSummarizer?: 'local' | 'receipt';
  /** Offline without a local model: why, and how to fetch one. */
  summarizerNote?: string;
}

export interface DemoState {
  model: ModelDescription;
  contextWindow: number;
  threshold: number;
  /** Root session of the current conversation in the lineage store. */
  rootSessionId: string;
  /** Newest session of the lineage (where the next turn goes). */
  currentSessionId: string;
  lineage: LineageEntry[];
  compactions: DemoCompaction[];
  /** The latest reading. */
  meter: MeterReading | undefined;
  /** Readings of the latest model calls (up to 300), oldest first. */
  meterHistory: MeterReading[];
  messages: UIMessage[];
  /** What the model received at the latest call: head, handoff, tail. */
  modelView: ModelView | undefined;
  /** Problems the page should show (e.g. a compaction package that failed to load). */
  warnings: string[];
  /** Directory of the throw-away project the agent works on. */
  workspace: string;
  /** Times the server has started on this data directory. */
  serverStarts: number;
  busy: boolean;
}

/** Transient stream parts sent next to the chat stream (never part of the chat text). */
export type DemoDataParts = {
  meter: MeterReading;
  compaction: DemoCompaction;
};
