import type { ModelMessage } from '@ai-sdk/provider-utils';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextCompressor } from './index.js';
import { structuredSummarySchema } from './summary-prompt.js';
import { assistant, toolTurn, user } from './test-utils/history.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';

const counter = createSimpleCounter();
const filler = (label: string) => `${label}\n${'log line with some data in it\n'.repeat(60)}`;

function history(): ModelMessage[] {
  return [
    user('Fix the flaky test in src/app.test.ts.'),
    assistant('Looking at it.'),
    ...toolTurn('read', filler('read one')),
    ...toolTurn('bash', filler('bash two')),
    ...toolTurn('edit', filler('edit three')),
    user('Now update the changelog.'),
    assistant('Done.'),
  ];
}

function reply(text: string, finish: 'stop' | 'length' = 'stop') {
  return {
    content: [{ type: 'text' as const, text }],
    finishReason: { unified: finish, raw: finish },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 5, text: 5, reasoning: undefined },
    },
    warnings: [],
  };
}

function structuredModel(text: string, finish: 'stop' | 'length' = 'stop') {
  return Object.assign(new MockLanguageModelV4({ doGenerate: reply(text, finish) }), {
    supportsStructuredOutputs: true,
  });
}

const object = {
  goal: 'Fix the flaky test.',
  completedActions: ['READ src/app.test.ts — found a race', 'EDIT src/app.ts — awaited the timer'],
  files: ['src/app.ts'],
  blockers: [],
  decisions: ['Awaited the timer instead of retrying'],
  remainingWork: ['Update the changelog'],
  criticalContext: [],
};

describe('structured summaries (summarisers that constrain output to a schema)', () => {
  it('asks a schema-constrained model for a bounded JSON object and renders it as the handoff', async () => {
    const model = structuredModel(JSON.stringify(object));
    const result = await new ContextCompressor({
      counter,
      summarizer: model,
      protectLastNTokens: 50,
    }).compress(history(), { targetTokens: 900, strategy: 'summarize' });
    expect(result.strategy).toBe('summarize');
    const call = model.doGenerateCalls[0]!;
    expect(call.responseFormat?.type).toBe('json');
    expect(call.responseFormat?.type === 'json' && call.responseFormat.schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
    });
    expect(String(call.prompt[0]!.content)).toMatch(/Reply with one JSON object/);
    expect(result.summary).toMatch(/## Goal\nFix the flaky test\./);
    expect(result.summary).toMatch(/1\. READ src\/app\.test\.ts — found a race/);
    expect(result.summary).toMatch(/- Awaited the timer instead of retrying/);
    expect(result.summary).not.toMatch(/"completedActions"/);
  });

  it('does not ask a model without the capability for JSON', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: reply('## Goal\nFix it.\n## Files\n- src/app.ts\n## Remaining work\nNone'),
    });
    await new ContextCompressor({ counter, summarizer: model, protectLastNTokens: 50 }).compress(
      history(),
      { targetTokens: 900, strategy: 'summarize' },
    );
    expect(model.doGenerateCalls[0]!.responseFormat?.type ?? 'text').toBe('text');
  });

  it('still falls back when a structured reply is cut at its cap', async () => {
    const model = structuredModel(JSON.stringify(object).slice(0, 60), 'length');
    const result = await new ContextCompressor({
      counter,
      summarizer: model,
      protectLastNTokens: 50,
      maxAttempts: 1,
    }).compress(history(), { targetTokens: 900, strategy: 'summarize' });
    expect(result.usedFallback).toBe(true);
    expect(result.fallbackReason).toMatch(/truncated/);
  });

  it('sizes the object to fit its output cap and its target, whatever the target', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 0, max: 400 }),
        (target, extra) => {
          const cap = Math.ceil(target * 1.5) + 64 + extra;
          const schema = structuredSummarySchema(target, cap) as {
            properties: Record<
              string,
              { maxLength?: number; maxItems?: number; items?: { maxLength: number } }
            >;
          };
          const sections = Object.values(schema.properties);
          let items = 0;
          let chars = 0;
          for (const property of sections) {
            const count = property.maxItems ?? 1;
            items += count;
            chars += count * (property.maxLength ?? property.items!.maxLength);
          }
          expect(sections.length).toBeGreaterThanOrEqual(2);
          expect(schema.properties.goal).toBeDefined();
          // Structure (12 + 10 a key + 6 an item) and text at 3 characters a token fit the cap.
          expect(12 + 10 * sections.length + 6 * items + chars / 3).toBeLessThanOrEqual(cap);
          expect(chars).toBeLessThanOrEqual(Math.max(items * 20, target * 3.5));
        },
      ),
    );
  });
});
