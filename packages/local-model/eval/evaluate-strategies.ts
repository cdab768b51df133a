/**
 * The strategies of `pnpm eval` and how one corpus window is scored under each: compacted to the
 * same budget, then the compacted context is checked for the window's facts (`measureRetention` of
 * `@baton/fallback`). A summariser strategy (the local model, or a user-supplied model from
 * `OPENAI_COMPATIBLE_BASE_URL` / `OPENAI_API_KEY`) gives two rows: the verified summary Baton
 * inserts, and the model's reply alone (the same context with Baton's added-facts section taken out).
 * A summariser call that failed (HTTP error, timeout, rate limit) is a failure of the run, never a
 * score: the compressor's receipt fallback would otherwise be scored under the model's name.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import {
  type CompressionStrategy,
  type ContextCompressorOptions,
  createContextCompressor,
} from '@baton/compressor';
import {
  extractHandoffFacts,
  HANDOFF_FOOTER,
  HANDOFF_SECTIONS,
  measureRetention,
  type RetentionScores,
} from '@baton/fallback';
import type { TokenCounter } from '@baton/tokens';
import type { LanguageModel } from 'ai';
import { answerProbes, type ProbeKind, type ProbeModel } from './probe-answers.ts';

export interface EvalWindow {
  name: string;
  messages: ModelMessage[];
  tokens: number;
}

export interface EvalStrategy {
  /** Row label; a summariser strategy names its model. */
  name: string;
  strategy: CompressionStrategy;
  /** Summariser and its compressor options (model strategies only). */
  summarizer?: { model: LanguageModel; name: string; options?: Partial<ContextCompressorOptions> };
}

/** A user-supplied summariser: an OpenAI-compatible chat model named by the environment. */
export interface UserSummarizer {
  model: LanguageModel;
  /** The model id sent to the API. */
  modelId: string;
  /** The API host (no path, no credentials), for the table. */
  host: string;
}

/**
 * The user-supplied summariser from the environment: `OPENAI_COMPATIBLE_BASE_URL` (else the OpenAI
 * API when `OPENAI_API_KEY` is set), key `OPENAI_API_KEY` (optional for a compatible server), model
 * `BATON_EVAL_SUMMARIZER_MODEL`, else `OPENAI_COMPATIBLE_MODEL`, else `gpt-4o-mini`. Undefined when
 * neither URL nor key is set.
 */
export function userSummarizerFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): UserSummarizer | undefined {
  const baseURL =
    env.OPENAI_COMPATIBLE_BASE_URL ||
    (env.OPENAI_API_KEY ? 'https://api.openai.com/v1' : undefined);
  if (!baseURL) return undefined;
  const modelId = env.BATON_EVAL_SUMMARIZER_MODEL || env.OPENAI_COMPATIBLE_MODEL || 'gpt-4o-mini';
  const provider = createOpenAICompatible({
    name: 'baton-eval',
    baseURL: baseURL.replace(/\/+$/, ''),
    apiKey: env.OPENAI_API_KEY || undefined,
  });
  const model = provider.chatModel(modelId);
  if (env.OPENAI_API_KEY) withoutKeyInErrors(model, env.OPENAI_API_KEY);
  let host: string;
  try {
    host = new URL(baseURL).host;
  } catch {
    host = 'unparsable URL';
  }
  return { model, modelId, host };
}

/**
 * Makes the model's failed calls carry `key` nowhere: a server may quote the key it was sent in its
 * error (`Incorrect API key provided: …`), the provider's error repeats that body, and the eval prints
 * failures. A key of no known vendor shape escapes `redactSecrets`; its value does not. The calls are
 * replaced on the model itself, so its other fields (the structured-output flag) stay.
 */
function withoutKeyInErrors(model: LanguageModelV4, key: string): void {
  const scrub = (error: unknown): unknown => {
    for (
      let current = error, depth = 0;
      current && typeof current === 'object' && depth < 4;
      depth++
    ) {
      const record = current as Record<string, unknown>;
      for (const field of ['message', 'responseBody', 'stack']) {
        const value = record[field];
        if (typeof value === 'string' && value.includes(key)) {
          record[field] = value.split(key).join('[REDACTED:api-key]');
        }
      }
      current = record.cause;
    }
    return error;
  };
  const generate = model.doGenerate.bind(model);
  const stream = model.doStream.bind(model);
  model.doGenerate = (options) =>
    Promise.resolve(generate(options)).catch((error: unknown) => {
      throw scrub(error);
    });
  model.doStream = (options) =>
    Promise.resolve(stream(options)).catch((error: unknown) => {
      throw scrub(error);
    });
}

const budgetErrors = new Set(['ContextBudgetError', 'CompactionNotEffectiveError']);

/** Fallback kinds that mean the call itself failed (the model's quality was never seen). */
const callFailureKinds = /^(error|timeout|rate_limited|aborted): /;

export interface StrategyOutcome {
  strategy: string;
  /** Fact survival in the compacted context; absent when nothing was scored (a failure). */
  scores?: Partial<RetentionScores>;
  /** Summariser strategies: the same with Baton's added-facts section taken out. */
  replyAloneScores?: Partial<RetentionScores>;
  /** Model-answered probe scores, when a probe model is configured. */
  probeScores?: Partial<Record<ProbeKind, number>>;
  probeFailures: number;
  /** Applied strategy, or `receipt: <reason>` for a quality fallback. */
  outcome: string;
  /** Set when the summariser call failed or `compress` threw for a summariser strategy: why. */
  failure?: string;
}

/** Plain text of messages, as a next model would read them (tool calls and results included). */
export function textOf(messages: readonly ModelMessage[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') {
      parts.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') parts.push(part.text);
      else if (part.type === 'tool-call')
        parts.push(`${part.toolName} ${JSON.stringify(part.input)}`);
      else if (part.type === 'tool-result') {
        const output = part.output as { type: string; value?: unknown };
        parts.push(
          `${part.toolName} ${typeof output.value === 'string' ? output.value : JSON.stringify(output.value)}`,
        );
      }
    }
  }
  return parts.join('\n');
}

const addedFactsHeading = `## ${HANDOFF_SECTIONS.find((section) => section.key === 'addedFacts')!.title}`;

/** The text without Baton's added-facts section (up to the next section or the footer). */
export function withoutAddedFacts(text: string): string {
  const lines = text.split('\n');
  const kept: string[] = [];
  let skipping = false;
  for (const line of lines) {
    if (line === addedFactsHeading) skipping = true;
    else if (skipping && (line.startsWith('## ') || line === HANDOFF_FOOTER)) skipping = false;
    if (!skipping) kept.push(line);
  }
  return kept.join('\n');
}

export interface EvaluateWindowOptions {
  counter: TokenCounter;
  /** Share of the window's tokens to compact to. Default 0.6. */
  budgetShare?: number;
  summaryTargetTokens?: number;
  protectLastNTokens?: number;
  probeModel?: ProbeModel;
}

/**
 * Whether the window can be compacted to the budget at all: the receipt (no model) fits. Windows
 * whose protected tail alone is over the budget are not evaluated.
 */
export async function isCompactable(
  window: EvalWindow,
  options: EvaluateWindowOptions,
): Promise<boolean> {
  try {
    await createContextCompressor({
      counter: options.counter,
      summaryTargetTokens: options.summaryTargetTokens ?? 160,
      protectLastNTokens: options.protectLastNTokens ?? 200,
    }).compress(window.messages, {
      targetTokens: Math.floor(window.tokens * (options.budgetShare ?? 0.6)),
      strategy: 'receipt',
    });
    return true;
  } catch {
    return false;
  }
}

/** Compacts one window with each strategy at the same budget and scores what each kept. */
export async function evaluateWindow(
  window: EvalWindow,
  strategies: readonly EvalStrategy[],
  options: EvaluateWindowOptions,
): Promise<StrategyOutcome[]> {
  const targetTokens = Math.floor(window.tokens * (options.budgetShare ?? 0.6));
  const base = {
    counter: options.counter,
    summaryTargetTokens: options.summaryTargetTokens ?? 160,
    protectLastNTokens: options.protectLastNTokens ?? 200,
  };
  const facts = extractHandoffFacts(window.messages);
  const outcomes: StrategyOutcome[] = [];
  for (const entry of strategies) {
    const compressor = createContextCompressor({
      ...base,
      ...(entry.summarizer
        ? {
            summarizer: entry.summarizer.model,
            summarizerName: entry.summarizer.name,
            maxAttempts: 1,
            ...entry.summarizer.options,
          }
        : {}),
    });
    try {
      const result = await compressor.compress(window.messages, {
        targetTokens,
        strategy: entry.strategy,
      });
      const reason = result.fallbackReason ?? '';
      if (entry.summarizer && result.usedFallback && callFailureKinds.test(reason)) {
        outcomes.push({
          strategy: entry.name,
          probeFailures: 0,
          outcome: 'call failed',
          failure: reason.slice(0, 200),
        });
        continue;
      }
      const text = textOf(result.messages);
      const outcome: StrategyOutcome = {
        strategy: entry.name,
        scores: measureRetention(text, facts),
        probeFailures: 0,
        outcome: result.usedFallback
          ? `receipt: ${reason.split(' (fact')[0]!.slice(0, 60)}`
          : result.strategy,
      };
      if (entry.summarizer) {
        outcome.replyAloneScores = measureRetention(withoutAddedFacts(text), facts);
      }
      if (options.probeModel) {
        const removed = result.event.removedMessageIndexes.map((index) => window.messages[index]!);
        const probed = await answerProbes(text, extractHandoffFacts(removed), options.probeModel);
        outcome.probeScores = probed.scores;
        outcome.probeFailures = probed.failed.length;
      }
      outcomes.push(outcome);
    } catch (error) {
      const name = (error as Error).name;
      outcomes.push({
        strategy: entry.name,
        probeFailures: 0,
        outcome: `error: ${name}`,
        // A budget refused (ContextBudgetError, CompactionNotEffectiveError) is an outcome of the
        // window; anything else a summariser strategy throws is a broken run.
        ...(entry.summarizer && !budgetErrors.has(name)
          ? { failure: `${name}: ${(error as Error).message.slice(0, 200)}` }
          : {}),
      });
    }
  }
  return outcomes;
}

/** Summariser failures of a run, one line each; empty when every call came back. */
export function summarizerFailures(outcomes: readonly StrategyOutcome[]): string[] {
  return outcomes.flatMap((outcome) =>
    outcome.failure === undefined ? [] : [`${outcome.strategy}: ${outcome.failure}`],
  );
}

export const retentionKeys: Array<keyof RetentionScores> = [
  'toolNames',
  'weightedPaths',
  'errorLines',
  'userAsks',
  'latestAskVerbatim',
];

export const meanPercent = (values: Array<number | undefined>): string => {
  const defined = values.filter((value): value is number => value !== undefined);
  return defined.length === 0
    ? '–'
    : `${Math.round((defined.reduce((a, b) => a + b, 0) / defined.length) * 100)} %`;
};

/**
 * The fact-survival table rows: one per strategy, and for a summariser strategy a second row of its
 * reply alone. Failed calls are counted in the outcomes column and never scored.
 */
export function survivalRows(
  strategies: readonly EvalStrategy[],
  outcomes: readonly StrategyOutcome[],
): string[] {
  const rows: string[] = [];
  for (const entry of strategies) {
    const mine = outcomes.filter((outcome) => outcome.strategy === entry.name);
    const counts = new Map<string, number>();
    for (const outcome of mine) counts.set(outcome.outcome, (counts.get(outcome.outcome) ?? 0) + 1);
    const countText = [...counts].map(([key, count]) => `${key} ×${count}`).join('; ');
    const row = (
      label: string,
      pick: (outcome: StrategyOutcome) => Partial<RetentionScores> | undefined,
    ) => {
      const scored = mine.map(pick).filter((score) => score !== undefined);
      return `| ${label} | ${retentionKeys.map((key) => meanPercent(scored.map((score) => score[key]))).join(' | ')} | ${countText} |`;
    };
    rows.push(row(entry.name, (outcome) => outcome.scores));
    if (entry.summarizer) {
      rows.push(
        row(
          `${entry.name}: reply alone, before Baton's top-up`,
          (outcome) => outcome.replyAloneScores,
        ),
      );
    }
  }
  return rows;
}
