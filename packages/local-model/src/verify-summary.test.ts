import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createContextCompressor, type SummarizerRequest } from '@baton/compressor';
import { createTokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createVerifiedSummarizer } from './create-verified-summarizer.js';
import {
  addedLabel,
  extractSpanFacts,
  type SummaryVerification,
  verifySummary,
} from './verify-summary.js';

const counter = createTokenCounter({ model: 'gpt-4o' });
const random = () => Math.random().toString(36).slice(2, 8);

/** A generated agent history: asks, tool calls on files, an error, then a latest ask. */
function history(seed = random()) {
  const files = [
    `src/${seed}/alpha-${random()}.ts`,
    `lib/${seed}-beta.py`,
    `docs/${random()}/guide.md`,
  ];
  const error = `TypeError: cannot read properties of undefined (reading '${seed}Field')`;
  const asks = [
    `Please refactor the ${seed} parser so it handles nested brackets`,
    `Also rename the ${seed}Config option to ${seed}Settings everywhere`,
  ];
  const messages: ModelMessage[] = [{ role: 'user', content: asks[0]! }];
  files.forEach((path, index) => {
    const id = `call-${seed}-${index}`;
    messages.push(
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: id,
            toolName: index === 1 ? 'run_tests' : 'read_file',
            input: { path },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: id,
            toolName: index === 1 ? 'run_tests' : 'read_file',
            output: {
              type: 'text',
              value: `${'filler line of output text '.repeat(40)}\n${index === 1 ? error : 'ok'}`,
            },
          },
        ],
      },
    );
    if (index === 0) messages.push({ role: 'user', content: asks[1]! });
  });
  messages.push({ role: 'assistant', content: 'I looked at the files and ran the tests.' });
  messages.push({ role: 'user', content: `Now write the changelog entry for ${seed}.` });
  return { messages, files, error, asks, seed };
}

/** The request the compressor sends for a history, and the compress result for a reply. */
async function compressWith(reply: string | ((request: SummarizerRequest) => string)) {
  const generated = history();
  let request: SummarizerRequest | undefined;
  const verifications: SummaryVerification[] = [];
  const compressor = createContextCompressor({
    counter,
    summarizer: createVerifiedSummarizer(
      async (sent) => {
        request = sent;
        return typeof reply === 'function' ? reply(sent) : reply;
      },
      { onVerify: (verification) => verifications.push(verification) },
    ),
    protectLastNTokens: 60,
    maxAttempts: 1,
  });
  const tokens = counter.countMessages(generated.messages);
  const result = await compressor.compress(generated.messages, {
    targetTokens: Math.floor(tokens * 0.8),
    strategy: 'summarize',
  });
  return { result, request: request!, verifications, ...generated };
}

describe('extractSpanFacts', () => {
  it('reads asks, tools, files and errors from the transcript the compressor sends, not the latest ask', async () => {
    const { request, files, error, asks, seed } = await compressWith(
      '## Goal\nx\n## Files\ny\n## Blockers\nz',
    );
    const facts = extractSpanFacts(request.prompt);
    for (const path of files) expect(facts.files).toContain(path);
    expect(facts.errors.some((line) => line.includes(`${seed}Field`))).toBe(true);
    expect(error).toContain(seed);
    expect(facts.tools).toEqual(expect.arrayContaining(['read_file', 'run_tests']));
    // The first ask stays in the kept head; the second is in the span.
    expect(facts.asks).toContain(asks[1]);
    expect(facts.asks.some((ask) => ask.includes('changelog'))).toBe(false);
  });

  it('finds nothing without a transcript', () => {
    expect(extractSpanFacts('no transcript here')).toEqual({
      asks: [],
      tools: [],
      files: [],
      errors: [],
    });
  });
});

describe('verified summaries through compress', () => {
  it('accepts paraphrased headings, maps them onto the handoff sections and tops up the missing facts under a label', async () => {
    const reply = [
      '**Objective:** refactoring work on the parser.',
      '',
      'Steps taken:',
      '1. Read some files and ran run_tests.',
      '',
      '### Problems',
      'Tests failed.',
    ].join('\n');
    const { result, verifications, files, seed } = await compressWith(reply);
    expect(result.fallbackReason).toBeUndefined();
    expect(result.strategy).toBe('summarize');
    const [verification] = verifications;
    expect(verification!.verdict).toBe('accepted');
    expect(verification!.factCoverage).toBeLessThan(0.5);
    expect(verification!.sections).toEqual(
      expect.arrayContaining(['goal', 'completedActions', 'blockers']),
    );
    const summary = result.summary ?? '';
    expect(summary).toContain(addedLabel);
    for (const path of files) expect(summary).toContain(path);
    expect(summary).toContain(`${seed}Field`);
    expect(summary).toContain('run_tests');
    expect(verification!.added.files.length).toBe(files.length);
  });

  it('adds nothing when the reply already holds every fact, and reports full coverage', async () => {
    const { result, verifications } = await compressWith((request) => {
      const facts = extractSpanFacts(request.prompt);
      return [
        '## Goal',
        ...facts.asks,
        '## Completed actions',
        `Used ${facts.tools.join(', ')}.`,
        '## Relevant files',
        ...facts.files,
        '## Blockers and errors',
        ...facts.errors,
      ].join('\n');
    });
    expect(result.strategy).toBe('summarize');
    expect(verifications[0]!.factCoverage).toBe(1);
    expect(verifications[0]!.added).toEqual({ asks: [], tools: [], files: [], errors: [] });
    expect(result.summary).not.toContain(addedLabel);
  });

  it.each([
    ['empty', '   \n  ', /^empty: summary rejected as empty/],
    [
      'refusal',
      "I'm sorry, but I can't help with summarising this conversation.",
      /^garbage: summary rejected as refusal/,
    ],
    [
      'off-topic',
      'Paris offers wonderful museums, croissants and riverside walks during springtime.',
      /^garbage: summary rejected as off-topic/,
    ],
  ])('falls back to the receipt for a %s reply, stating why', async (_, reply, reason) => {
    const { result, verifications } = await compressWith(reply);
    expect(result.strategy).toBe('receipt');
    expect(result.usedFallback).toBe(true);
    expect(result.fallbackReason).toMatch(reason);
    expect(verifications[0]!.verdict).toBe('rejected');
  });

  it('falls back for a reply cut at the output cap (truncated)', () => {
    const { text, verification } = verifySummary(
      '## Goal\nfix it\n## Files\na.ts\n## Blockers\nnone so f',
      extractSpanFacts(''),
      '',
      {
        truncated: true,
      },
    );
    expect(text).toBeUndefined();
    expect(verification.reason).toBe('truncated');
  });

  it('drops lines a looping model repeats', () => {
    const loop = Array.from({ length: 12 }, () => 'The parser was refactored again.').join('\n');
    const { text, verification } = verifySummary(
      `## Goal\nRefactor.\n## Completed actions\n${loop}\n## Files\nsrc/a.ts`,
      extractSpanFacts(''),
      '',
    );
    expect(verification.droppedRepeatedLines).toBe(11);
    expect(text?.match(/refactored again/g)).toHaveLength(1);
  });
});

describe('verifySummary invariants', () => {
  const facts = fc.record({
    asks: fc.array(fc.string({ minLength: 1, maxLength: 80 }), { maxLength: 12 }),
    tools: fc.array(fc.stringMatching(/^[a-z_]{3,12}$/), { maxLength: 12 }),
    files: fc.array(fc.stringMatching(/^[a-z]{1,6}\/[a-z]{1,8}\.[a-z]{2}$/), { maxLength: 40 }),
    errors: fc.array(fc.string({ minLength: 6, maxLength: 300 }), { maxLength: 20 }),
  });

  it('never throws, bounds the top-up, and an accepted record holds every fact it did not have to leave out', () => {
    fc.assert(
      fc.property(
        facts,
        fc.string({ maxLength: 400 }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 2_000 }),
        (spanFacts, reply, perClass, chars) => {
          const { text, verification } = verifySummary(
            `## Goal\n${reply}\n## Files\nx\n## Decisions\ny`,
            spanFacts,
            reply,
            {
              maxAddedPerClass: perClass,
              maxAddedChars: chars,
            },
          );
          const added = Object.values(verification.added).flat();
          for (const list of Object.values(verification.added))
            expect(list.length).toBeLessThanOrEqual(perClass);
          expect(added.reduce((sum, item) => sum + item.length + 4, 0)).toBeLessThanOrEqual(chars);
          expect(verification.factCoverage).toBeGreaterThanOrEqual(0);
          expect(verification.factCoverage).toBeLessThanOrEqual(1);
          if (text !== undefined) for (const item of added) expect(text).toContain(item);
        },
      ),
      { numRuns: 300 },
    );
  });
});
