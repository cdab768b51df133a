import type { ModelMessage } from '@ai-sdk/provider-utils';
import { HANDOFF_HEADER, parseHandoff } from '@baton/fallback';
import { describe, expect, it } from 'vitest';
import {
  CompactionNotEffectiveError,
  ContextBudgetError,
  ContextCompressor,
  createContextCompressor,
  type SummarizerRequest,
  validateToolPairs,
} from './index.js';
import { deepFreeze } from './test-utils/deep-freeze.js';
import { assistant, calls, results, toolTurn, user } from './test-utils/history.js';
import { createSimpleCounter } from './test-utils/simple-counter.js';
import { structuredSummary } from './test-utils/structured-summary.js';

const big = (label: string, size = 2_000) =>
  `${label} ${'lorem ipsum dolor sit amet '.repeat(size / 27)}`;

/** System, framing exchange, a long middle of tool work, a later ask and a reply. */
function longHistory(): ModelMessage[] {
  return deepFreeze([
    { role: 'system', content: 'You are a coding agent.' },
    user('Fix the flaky test in src/app.test.ts.'),
    assistant('I will look at the test first.'),
    ...toolTurn('read', big('file contents one')),
    ...toolTurn('bash', big('test output two')),
    assistant(big('analysis', 800)),
    ...toolTurn('edit', big('diff three')),
    ...toolTurn('bash', big('test output four')),
    user('Now also update the changelog.'),
    ...toolTurn('read', big('changelog', 600)),
    assistant('Done: the changelog has an entry for the fix.'),
  ] satisfies ModelMessage[]);
}

const counter = createSimpleCounter();

describe('ContextCompressor', () => {
  it('returns the input unchanged (new array, same objects) when it already fits', async () => {
    const messages = longHistory();
    const compressor = createContextCompressor({ counter });
    const result = await compressor.compress(messages, { targetTokens: 1_000_000 });
    expect(result.strategy).toBe('none');
    expect(result.messages).not.toBe(messages);
    expect(result.messages).toEqual(messages);
    expect(result.tokensSaved).toBe(0);
    expect(result.event.stages).toEqual([]);
  });

  it('truncate keeps head and tail verbatim, drops the middle and says so', async () => {
    const messages = longHistory();
    const compressor = new ContextCompressor({ counter, protectLastNTokens: 400 });
    const result = await compressor.compress(messages, {
      targetTokens: 1_200,
      strategy: 'truncate',
    });
    expect(result.strategy).toBe('truncate');
    expect(result.tokensAfter).toBeLessThanOrEqual(1_200);
    expect(result.messages.slice(0, 3)).toEqual(messages.slice(0, 3));
    expect(result.messages.at(-1)).toBe(messages.at(-1));
    expect(result.event.removedMessageIndexes.length).toBeGreaterThan(0);
    const notice = result.messages[3]!;
    expect(notice.role).toBe('user');
    expect(String(notice.content)).toMatch(/earlier messages were removed/);
    expect(validateToolPairs(result.messages).valid).toBe(true);
  });

  it('mask replaces old tool outputs with one-line placeholders and keeps pairs', async () => {
    const messages = longHistory();
    const compressor = new ContextCompressor({ counter, protectLastNTokens: 300 });
    const target = Math.floor(counter.countMessages(messages) * 0.6);
    const result = await compressor.compress(messages, { targetTokens: target, strategy: 'mask' });
    expect(result.strategy).toBe('mask');
    expect(result.messages).toHaveLength(messages.length);
    expect(result.event.maskedMessageIndexes.length).toBeGreaterThan(0);
    for (const index of result.event.maskedMessageIndexes) {
      const masked = result.messages[index]!;
      expect(masked.role).toBe('tool');
      const part = (masked.content as Array<{ output: { value: string }; toolName: string }>)[0]!;
      expect(part.output.value).toMatch(
        new RegExp(
          `^\\[Baton: earlier ${part.toolName} output masked; ok; 1 lines, \\d+ chars; first line: "`,
        ),
      );
      expect(part.output.value.split('\n')).toHaveLength(1);
    }
    expect(result.withinBudget).toBe(true);
    expect(validateToolPairs(result.messages).valid).toBe(true);
  });

  it('summarize inserts a structured, redacted handoff as a user message before the latest ask', async () => {
    const messages = longHistory();
    const requests: SummarizerRequest[] = [];
    const secret = 'ghp_' + 'a1B2c3D4e5'.repeat(4).slice(0, 36);
    const compressor = new ContextCompressor({
      counter,
      protectLastNTokens: 300,
      summarizer: async (request) => {
        requests.push(request);
        return structuredSummary(`Fix the test; token ${secret} was used.`);
      },
    });
    const result = await compressor.compress(messages, {
      targetTokens: 1_500,
      strategy: 'summarize',
    });
    expect(result.strategy).toBe('summarize');
    expect(result.usedFallback).toBe(false);
    expect(result.summary!.startsWith(HANDOFF_HEADER)).toBe(true);
    expect(result.summary).not.toContain(secret);
    expect(result.summary).toMatch(/## Goal/);
    const handoffIndex = result.messages.findIndex((message) => message.content === result.summary);
    expect(handoffIndex).toBe(3);
    const latestAsk = messages.findLastIndex((message) => message.role === 'user');
    expect(result.messages[handoffIndex + 1]).toBe(messages[latestAsk]);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.mode).toBe('delimited');
    expect(requests[0]!.prompt).toMatch(/<transcript>[\s\S]*<\/transcript>/);
    expect(result.event.summarizerModel).toBe('custom');
    expect(result.event.summarizerAttempts).toBe(1);
    expect(result.tokensAfter).toBeLessThanOrEqual(1_500);
    expect(validateToolPairs(result.messages).valid).toBe(true);
  });

  it('auto stops at mask when masking fits', async () => {
    const messages = longHistory();
    let called = 0;
    const compressor = new ContextCompressor({
      counter,
      protectLastNTokens: 300,
      summarizer: async () => {
        called++;
        return structuredSummary();
      },
    });
    const target = Math.floor(counter.countMessages(messages) * 0.6);
    const result = await compressor.compress(messages, { targetTokens: target });
    expect(result.strategy).toBe('mask');
    expect(result.event.stages).toEqual(['mask']);
    expect(called).toBe(0);
  });

  it('auto summarises when masking is not enough, and falls back to the receipt without a summariser', async () => {
    const messages = longHistory();
    const compressor = new ContextCompressor({ counter, protectLastNTokens: 300 });
    const target = 400;
    const masked = await compressor.compress(messages, { targetTokens: target, strategy: 'mask' });
    expect(masked.withinBudget).toBe(false);
    const result = await compressor.compress(messages, { targetTokens: target });
    expect(result.strategy).toBe('receipt');
    expect(result.usedFallback).toBe(true);
    expect(result.fallbackReason).toBe('no summarizer configured');
    // Only the stages that ran: even masking every old output could not fit 400, so masking was
    // skipped, and there is no summariser.
    expect(result.event.stages).toEqual(['receipt']);
    expect(result.tokensAfter).toBeLessThanOrEqual(target);
    expect(result.summary!.startsWith(HANDOFF_HEADER)).toBe(true);
  });

  it('lists mask then receipt (no summarize) when masking fits but saves too little and no summariser is configured', async () => {
    // Large tool-call inputs: masking one fits a target just under the history, but the saving is
    // below 10 % of a prose-heavy history, so auto goes on.
    const write = (id: string, content: string): ModelMessage[] => [
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: id,
            toolName: 'write_file',
            input: { path: 'a.ts', content },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: id,
            toolName: 'write_file',
            output: { type: 'text', value: 'ok' },
          },
        ],
      },
    ];
    const messages = deepFreeze([
      user('Write the module.'),
      assistant('Writing it.'),
      ...write('w1', big('first version', 4_000)),
      ...write('w2', big('second version', 4_000)),
      assistant(big('notes', 60_000)),
      user('Thanks, now summarise.'),
      assistant('Summary: two versions were written.'),
    ]);
    // Tool-input masking is opt-in (the placeholder no longer matches the tool's schema).
    const compressor = new ContextCompressor({
      counter,
      protectLastNTokens: 50,
      maskToolInputs: true,
    });
    const before = counter.countMessages(messages);
    const target = before - 200;
    const error = await compressor
      .compress(messages, { targetTokens: target, strategy: 'mask' })
      .catch((caught: unknown) => caught);
    expect(CompactionNotEffectiveError.isInstance(error)).toBe(true);
    const masked = (error as CompactionNotEffectiveError).result;
    expect(masked.withinBudget).toBe(true);
    expect(masked.tokensSaved).toBeLessThan(0.1 * before);
    const result = await compressor.compress(messages, { targetTokens: target });
    expect(result.event.stages).toEqual(['mask', 'receipt']);
    expect(result.strategy).toBe('receipt');
    expect(result.fallbackReason).toBe('no summarizer configured');
    expect(result.tokensAfter).toBeLessThanOrEqual(target);
  });

  it('demotes the first exchange into the middle when it cannot fit with the latest turn', async () => {
    const demonstration = big('demonstration of a solved task', 6_000);
    const messages = deepFreeze([
      { role: 'system', content: 'You are a coding agent.' },
      user(demonstration),
      assistant('Understood, I will follow the demonstration.'),
      ...toolTurn('read', big('file contents', 2_000)),
      ...toolTurn('bash', big('test output', 2_000)),
      user('Now fix the date parser.'),
      ...toolTurn('edit', 'ok'),
      assistant('Fixed: the parser accepts week dates.'),
    ] satisfies ModelMessage[]);
    const before = counter.countMessages(messages);
    const target = Math.floor(before / 2);
    // The head alone (system + 6,000-character demonstration + reply) is about half the history.
    expect(counter.countMessages(messages.slice(0, 3))).toBeGreaterThan(target - 200);
    for (const strategy of ['truncate', 'receipt', 'summarize', 'auto'] as const) {
      const compressor = new ContextCompressor({
        counter,
        summarizer: async () => structuredSummary(),
        retryDelayMs: 0,
      });
      const result = await compressor.compress(messages, { targetTokens: target, strategy });
      expect(result.tokensAfter, strategy).toBeLessThanOrEqual(target);
      expect(result.event.headDemoted, strategy).toBe(true);
      expect(result.event.headMessageCount, strategy).toBe(1);
      expect(result.messages[0], strategy).toBe(messages[0]);
      // The demonstration joined the middle: removed, and the first message after the system one
      // is the inserted user message (valid for Anthropic too).
      expect(result.event.removedMessageIndexes, strategy).toContain(1);
      expect(result.messages, strategy).not.toContain(messages[1]);
      expect(result.messages[1]!.role, strategy).toBe('user');
      expect(result.messages, strategy).toContain(messages[7]);
      expect(validateToolPairs(result.messages).problems, strategy).toEqual([]);
    }
    // With room for the head, it stays.
    const roomy = await new ContextCompressor({ counter }).compress(messages, {
      targetTokens: before - 100,
      strategy: 'truncate',
    });
    expect(roomy.event.headDemoted).toBe(false);
    expect(roomy.event.headMessageCount).toBe(3);
  });

  it('throws ContextBudgetError only when system + pinned latest ask + smallest tail cannot fit', async () => {
    // The only user message is the latest ask: it must stay verbatim, so demotion cannot help.
    const messages = deepFreeze([
      { role: 'system', content: 'You are a coding agent.' },
      user(big('the one and only task statement', 6_000)),
      ...toolTurn('read', big('file contents', 2_000)),
      ...toolTurn('bash', big('test output', 2_000)),
      assistant('Done.'),
    ] satisfies ModelMessage[]);
    const target = Math.floor(counter.countMessages(messages) / 2);
    for (const strategy of ['truncate', 'receipt', 'auto'] as const) {
      const error = await new ContextCompressor({ counter })
        .compress(messages, { targetTokens: target, strategy })
        .catch((caught) => caught);
      expect(ContextBudgetError.isInstance(error), strategy).toBe(true);
      const budgetError = error as ContextBudgetError;
      expect(budgetError.headDemoted, strategy).toBe(true);
      expect(budgetError.headTokens, strategy).toBe(counter.countMessage(messages[0]!));
      expect(budgetError.protectedTokens, strategy).toBeGreaterThan(
        counter.countMessage(messages[1]!),
      );
      expect(budgetError.requiredTokens, strategy).toBeGreaterThan(target);
      expect(budgetError.message).toContain('system messages');
    }
  });

  it('tiny budgets give a result within budget or a ContextBudgetError, never a receipt validation error', async () => {
    const messages = longHistory();
    for (const strategy of ['receipt', 'auto', 'truncate', 'mask'] as const) {
      for (let target = 1; target <= 700; target += 7) {
        try {
          const result = await new ContextCompressor({ counter, protectLastNTokens: 300 }).compress(
            messages,
            { targetTokens: target, strategy },
          );
          if (strategy !== 'mask')
            expect(result.tokensAfter, `${strategy} ${target}`).toBeLessThanOrEqual(target);
        } catch (error) {
          if (CompactionNotEffectiveError.isInstance(error) && strategy === 'mask') continue;
          expect(ContextBudgetError.isInstance(error), `${strategy} ${target}: ${error}`).toBe(
            true,
          );
          expect((error as ContextBudgetError).requiredTokens).toBeGreaterThan(target);
        }
      }
    }
  });

  it('receipt: states the latest ask once and counts only the dropped messages', async () => {
    const messages = longHistory();
    const result = await new ContextCompressor({ counter, protectLastNTokens: 300 }).compress(
      messages,
      { targetTokens: 900, strategy: 'receipt' },
    );
    const sections = parseHandoff(result.summary!)!;
    // The receipt points at the ask (kept verbatim below it) instead of quoting it: stated once.
    expect(sections.latestAsk).toBeDefined();
    expect(result.summary).not.toContain('Now also update the changelog.');
    expect(JSON.stringify(result.messages).split('Now also update the changelog.').length).toBe(2);
    const dropped = result.event.removedMessageIndexes.length;
    expect(dropped).toBeGreaterThan(0);
    expect(sections.counts).toMatch(new RegExp(`^Messages: ${dropped} `));
    expect(sections.lastTurns ?? '').not.toContain('the latest ask, quoted at the top');
  });

  it('throws ContextBudgetError with the numbers when the head cannot fit', async () => {
    const messages = longHistory();
    const compressor = new ContextCompressor({ counter });
    const error = await compressor
      .compress(messages, { targetTokens: 30, strategy: 'truncate' })
      .catch((caught) => caught);
    expect(ContextBudgetError.isInstance(error)).toBe(true);
    expect((error as ContextBudgetError).targetTokens).toBe(30);
    expect((error as ContextBudgetError).requiredTokens).toBeGreaterThan(30);
  });

  it('throws CompactionNotEffectiveError when a strategy cannot save 10 %', async () => {
    const messages = deepFreeze([
      user('Start.'),
      assistant('Ok.'),
      ...Array.from({ length: 10 }, (_, index) => [
        user(big(`ask ${index}`, 400)),
        assistant(big(`answer ${index}`, 400)),
      ]).flat(),
    ]);
    const compressor = new ContextCompressor({ counter, protectLastNTokens: 100 });
    const before = counter.countMessages(messages);
    const error = await compressor
      .compress(messages, { targetTokens: before - 10, strategy: 'mask' })
      .catch((caught) => caught);
    expect(CompactionNotEffectiveError.isInstance(error)).toBe(true);
    expect((error as CompactionNotEffectiveError).result.strategy).toBe('mask');
  });

  it('keeps parallel tool calls with all their results and a trailing unanswered call in the tail', async () => {
    const parallel = calls(['read', 'grep']);
    const trailing = calls(['bash'], 'Running the tests now.');
    const messages = deepFreeze([
      user('Investigate.'),
      assistant('Sure.'),
      ...toolTurn('read', big('one')),
      parallel.message,
      results(parallel.ids, ['read', 'grep'], big('two')),
      ...toolTurn('bash', big('three')),
      user('Run the tests.'),
      trailing.message,
    ]);
    const compressor = new ContextCompressor({ counter, protectLastNTokens: 10 });
    for (const strategy of ['truncate', 'mask', 'receipt'] as const) {
      const result = await compressor.compress(messages, { targetTokens: 700, strategy });
      expect(result.messages.at(-1)).toBe(trailing.message);
      expect(validateToolPairs(result.messages).problems).toEqual([]);
    }
  });

  it('passes detail and preserveTopics to the summariser instructions', async () => {
    const requests: SummarizerRequest[] = [];
    const compressor = new ContextCompressor({
      counter,
      protectLastNTokens: 300,
      detail: 'detailed',
      preserveTopics: ['database schema', 'deploy steps'],
      summarizer: async (request) => {
        requests.push(request);
        return structuredSummary();
      },
    });
    await compressor.compress(longHistory(), { targetTokens: 1_500, strategy: 'summarize' });
    expect(requests[0]!.instructions).toMatch(/Be detailed/);
    expect(requests[0]!.instructions).toMatch(
      /Keep full detail on these topics: database schema; deploy steps/,
    );
  });

  it('rejects bad options and calls', async () => {
    expect(() => new ContextCompressor({ strategy: 'squash' as never })).toThrow(
      /unknown strategy/,
    );
    expect(() => new ContextCompressor({ maxAttempts: 0 })).toThrow(/maxAttempts/);
    const compressor = new ContextCompressor({ counter });
    // No targetTokens is protect mode (see protect-mode.property.test.ts); a bad one is rejected.
    await expect(compressor.compress(longHistory(), { targetTokens: 0 })).rejects.toThrow(
      /targetTokens/,
    );
    await expect(compressor.compress(longHistory(), null as never)).rejects.toThrow(/options/);
    expect((await compressor.compress(longHistory(), {})).mode).toBe('protect');
    await expect(
      compressor.compress(longHistory(), { targetTokens: 500, strategy: 'summarize' }),
    ).rejects.toThrow(/needs a summarizer/);
  });

  it('counts tool definitions against the budget', async () => {
    const messages = longHistory();
    const compressor = new ContextCompressor({ counter, protectLastNTokens: 300 });
    const tools = { search: { description: 'x'.repeat(2_000), inputSchema: { type: 'object' } } };
    const result = await compressor.compress(messages, {
      targetTokens: 1_500,
      strategy: 'truncate',
      tools,
    });
    expect(result.tokensAfter).toBe(counter.countMessages(result.messages, { tools }));
    expect(result.tokensAfter).toBeLessThanOrEqual(1_500);
    expect(result.tokensAfter).toBeGreaterThan(counter.countMessages(result.messages));
  });

  it('keeps a first reply that calls tools in the head only when its results are small', async () => {
    const small = deepFreeze([
      user('Check the build.'),
      ...toolTurn('bash', 'ok'),
      ...Array.from({ length: 6 }, (_, index) => toolTurn('read', big(`file ${index}`))).flat(),
      assistant('All checked.'),
    ]);
    const large = deepFreeze([
      user('Check the build.'),
      ...toolTurn('bash', big('huge first output', 4_000)),
      ...Array.from({ length: 6 }, (_, index) => toolTurn('read', big(`file ${index}`))).flat(),
      assistant('All checked.'),
    ]);
    const compressor = new ContextCompressor({ counter, protectLastNTokens: 100 });
    const kept = await compressor.compress(small, { targetTokens: 1_000, strategy: 'truncate' });
    expect(kept.event.headMessageCount).toBe(3);
    const dropped = await compressor.compress(large, { targetTokens: 1_000, strategy: 'truncate' });
    expect(dropped.event.headMessageCount).toBe(1);
    expect(validateToolPairs(dropped.messages).valid).toBe(true);
  });

  it('protectFirstN keeps a fixed head, snapped so no call loses its result', async () => {
    const messages = longHistory();
    const compressor = new ContextCompressor({
      counter,
      protectFirstN: 4,
      protectLastNTokens: 100,
    });
    const result = await compressor.compress(messages, {
      targetTokens: 1_500,
      strategy: 'truncate',
    });
    // Message 3 calls a tool answered by message 4: the head grows to 5.
    expect(result.event.headMessageCount).toBe(5);
    expect(result.messages.slice(0, 5)).toEqual(messages.slice(0, 5));
  });

  it('works for a 32k window with default options: the protected tail shrinks to fit', async () => {
    const messages = deepFreeze([
      { role: 'system', content: 'You are a coding agent.' },
      user('Refactor the parser.'),
      assistant('Starting.'),
      ...Array.from({ length: 60 }, (_, index) =>
        toolTurn('read', big(`file ${index}`, 4_000)),
      ).flat(),
      user('Keep going.'),
      ...Array.from({ length: 20 }, (_, index) =>
        toolTurn('bash', big(`run ${index}`, 4_000)),
      ).flat(),
      assistant('Done with the parser.'),
    ] satisfies ModelMessage[]);
    const compressor = new ContextCompressor({
      counter,
      summarizer: async () => structuredSummary(),
    });
    const target = 16_000;
    expect(counter.countMessages(messages)).toBeGreaterThan(4 * target);
    for (const strategy of ['auto', 'summarize', 'receipt', 'truncate', 'mask'] as const) {
      const result = await compressor.compress(messages, { targetTokens: target, strategy });
      if (strategy === 'mask') {
        // Masking sizes its tail for the masked middle (placeholders and prose still take room):
        // a tail of every token the head leaves would not fit, a smaller verbatim one does.
        expect(result.strategy).toBe('mask');
        const tail = messages.slice(result.event.tailStartIndex);
        expect(tail.length).toBeGreaterThan(1);
        expect(counter.countMessages(tail)).toBeLessThanOrEqual(20_000);
        tail.forEach((message, offset) => {
          expect(result.messages[result.messages.length - tail.length + offset]).toBe(message);
        });
        expect(result.event.removedMessageIndexes).toEqual([]);
      }
      expect(result.withinBudget, strategy).toBe(true);
      expect(result.messages.at(-1)).toBe(messages.at(-1));
      expect(result.messages).toContain(messages[123]);
      expect(validateToolPairs(result.messages).valid).toBe(true);
    }
  });
});
