import type { ModelMessage } from '@ai-sdk/provider-utils';
import type { ContextManagerOptions } from '../index.js';
import { createSimpleCounter } from './simple-counter.js';

/** ~100 tokens (simple counter) per step, each with its own text. */
export function stepOutput(index: number): string {
  return `step ${index}: ${'listing of files '.repeat(22)}`;
}

export const ask: ModelMessage = { role: 'user', content: 'Fix the failing parser test, please.' };
export const system: ModelMessage = { role: 'system', content: 'You are a careful coding agent.' };

export function managerOptions(
  summarizer: ContextManagerOptions['summarizer'],
): ContextManagerOptions {
  return {
    counter: createSimpleCounter(),
    contextWindow: 8_000,
    reservedOutputTokens: 1_000,
    // Trigger 2,000 tokens, target 1,200, background from 1,400.
    threshold: 2_000,
    strategy: 'summarize',
    summarizer,
    background: true,
  };
}
