import type { ModelMessage } from '@ai-sdk/provider-utils';
import { HANDOFF_SECTIONS } from '@baton/fallback';
import { createTokenCounter } from '@baton/tokens';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CompressResult,
  createContextCompressor,
  extractSpanFacts,
  type SpanFacts,
  type SummarizerRequest,
  validateToolPairs,
  verifySummary,
  wordStems,
} from './index.js';

const counter = createTokenCounter({ model: 'gpt-4o' });
const addedTitle = HANDOFF_SECTIONS.find((section) => section.key === 'addedFacts')!.title;
const random = () => Math.random().toString(36).slice(2, 8);
const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)]!;

/** A generated agent history: two asks, tool calls on three files, an error, a latest ask. */
function history(options: { seed?: string; secret?: string; pending?: boolean } = {}) {
  const seed = options.seed ?? `q${random()}`;
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
  const tools = ['read_file', `run_${seed}_tests`, 'read_file'];
  const messages: ModelMessage[] = [{ role: 'user', content: asks[0]! }];
  files.forEach((path, index) => {
    const id = `call-${seed}-${index}`;
    messages.push(
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: id, toolName: tools[index]!, input: { path } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: id,
            toolName: tools[index]!,
            output: {
              type: 'text',
              value: `${'filler line of output text '.repeat(40)}\n${index === 1 ? error : 'ok'}${
                // In the test run's output: what a successful file read returns is file
                // content, not an error of the session.
                options.secret && index === 1 ? `\nError: login refused for ${options.secret}` : ''
              }`,
            },
          },
        ],
      },
    );
    if (index === 0) messages.push({ role: 'user', content: asks[1]! });
  });
  messages.push({ role: 'assistant', content: 'I looked at the files and ran the tests.' });
  messages.push({ role: 'user', content: `Now write the changelog entry for ${seed}.` });
  return { messages, files, error, asks, seed, tools };
}

async function compressWith(
  reply: string | ((request: SummarizerRequest) => string),
  generated = history(),
  targetShare = 0.8,
): Promise<{ result: CompressResult<ModelMessage>; requests: SummarizerRequest[] }> {
  const requests: SummarizerRequest[] = [];
  const compressor = createContextCompressor({
    counter,
    summarizer: async (request) => {
      requests.push(request);
      return typeof reply === 'function' ? reply(request) : reply;
    },
    protectLastNTokens: 60,
    maxAttempts: 1,
  });
  const tokens = counter.countMessages(generated.messages);
  const result = await compressor.compress(generated.messages, {
    targetTokens: Math.floor(tokens * targetShare),
    strategy: 'summarize',
  });
  return { result, requests };
}

/** Heading forms real models use, with wordings that are not the requested titles. */
const headingForms = [
  (title: string) => `### ${title}`,
  (title: string) => `**${title}:**`,
  (title: string) => `${title}:`,
  (title: string) => `1. **${title}**`,
];
const paraphrases = {
  goal: ['Objective', 'Overall goal', 'Task overview', 'Purpose'],
  done: ['What was done', 'Steps taken', 'Progress so far', 'Actions'],
  errors: ['Problems', 'Errors encountered', 'Issues', 'Failures'],
  next: ['Next steps', 'Remaining', 'Todo'],
};

describe('verified summaries in the compressor', () => {
  it('accepts paraphrased headings (generated), reports factCoverage and tops up what is missing', async () => {
    for (let round = 0; round < 12; round++) {
      const generated = history();
      const form = pick(headingForms);
      const reply = [
        form(pick(paraphrases.goal)),
        `Refactor the ${generated.seed} parser for nested brackets.`,
        form(pick(paraphrases.done)),
        `Read ${generated.files[0]} and ran the tests.`,
        form(pick(paraphrases.errors)),
        'A test failed.',
        form(pick(paraphrases.next)),
        'Finish the rename.',
      ].join('\n');
      const { result } = await compressWith(reply, generated);
      expect(result.strategy, reply).toBe('summarize');
      const event = result.event;
      expect(event.factCoverage).toBeGreaterThan(0);
      expect(event.factCoverage).toBeLessThan(1);
      // The reply named the first file; the others, the error and the tools were added.
      expect(event.addedFacts!.files).not.toContain(generated.files[0]);
      expect(event.addedFacts!.files).toEqual(expect.arrayContaining(generated.files.slice(1)));
      expect(event.addedFacts!.errors).toEqual([generated.error]);
      expect(event.addedFacts!.tools).toContain(generated.tools[1]);
      expect(result.summary).toContain(`## ${addedTitle}`);
      for (const fact of [...generated.files, generated.error, ...generated.tools]) {
        expect(result.summary).toContain(fact);
      }
      // The latest ask is pinned verbatim beside the summary: never a fact to append.
      expect(event.addedFacts!.asks.join('\n')).not.toContain('changelog entry');
      expect(result.summary).toMatch(/## Goal\n/);
      expect(result.summary).toMatch(/## Blockers and errors\n/);
    }
  });

  it('accepts on-topic prose with no headings as critical context, topped up', async () => {
    for (let round = 0; round < 8; round++) {
      const generated = history();
      const reply = `The user asked to refactor the ${generated.seed} parser and rename an option. The assistant read ${pick(generated.files)} and ran ${generated.tools[1]}, which failed with ${generated.error}.`;
      const { result } = await compressWith(reply, generated);
      expect(result.strategy).toBe('summarize');
      expect(result.summary).toContain('## Critical context');
      expect(result.event.addedFacts!.errors).toEqual([]);
      for (const fact of generated.files) expect(result.summary).toContain(fact);
    }
  });

  it('a reply that already holds every fact gets no added section and coverage 1', async () => {
    const generated = history();
    const reply = (request: SummarizerRequest) =>
      `## Goal\nRefactor.\n## Earlier user asks (historical)\n${generated.asks.join('\n')}\n## Relevant files\n${generated.files.join('\n')}\n## Blockers and errors\n${generated.error}\n## Completed actions\n${generated.tools.join(', ')}${request.prompt ? '' : ''}`;
    const { result } = await compressWith(reply, generated);
    expect(result.strategy).toBe('summarize');
    expect(result.event.factCoverage).toBe(1);
    expect(result.summary).not.toContain(addedTitle);
  });

  const rejections: Array<[string, () => string, RegExp]> = [
    [
      'empty',
      () => pick(['', '   \n\t', '```\n```', '...', `ok ${random()}`, '-\n-\n-', '## Goal\n']),
      /^empty: /,
    ],
    [
      'refusal',
      () =>
        `${pick([
          "I'm sorry, but I can't",
          'I am unable to',
          'I cannot',
          "As an AI language model, I can't",
          'I won’t; I will not',
        ])} ${pick(['help with', 'summarize', 'provide', 'assist with'])} ${pick(['that', 'this request', 'the transcript'])}. ${pick(['Please ask something else.', 'Let me know if there is anything else.', ''])}`,
      /^garbage: summary rejected as refusal/,
    ],
    [
      'off-topic',
      () =>
        Array.from({ length: 3 + Math.floor(Math.random() * 5) }, () =>
          pick([
            'Whisk the eggs with sugar until pale and fluffy.',
            'Preheat the oven and butter a round tin.',
            'Autumn leaves drift slowly across the quiet meadow.',
            'The orchestra tuned their violins before the overture.',
            // Random ids (`4i79fw`) add no stem, so this sentence has four, and `calls` may be
            // in the span: a quarter shared by chance.
            `Grandma's ${random()} recipe calls for cinnamon.`,
          ]),
        ).join(' '),
      /^garbage: summary rejected as off-topic/,
    ],
  ];
  for (const [name, generate, reason] of rejections) {
    it(`falls back to the receipt on ${name} replies (generated variants)`, async () => {
      for (let round = 0; round < 10; round++) {
        const reply = generate();
        const { result } = await compressWith(reply);
        expect(result.strategy, JSON.stringify(reply)).toBe('receipt');
        expect(result.fallbackReason, JSON.stringify(reply)).toMatch(reason);
        expect(result.event.factCoverage).toBeUndefined();
        expect(validateToolPairs(result.messages).valid).toBe(true);
      }
    });
  }

  it('a refusal phrase in a reply that holds the facts is not a refusal', async () => {
    const generated = history();
    const { result } = await compressWith(
      `I cannot summarize every detail, but: the ${generated.seed} parser was refactored; ${generated.files[1]} was read; ${generated.error}.`,
      generated,
    );
    expect(result.strategy).toBe('summarize');
  });

  it('falls back on a reply the model cut at its output cap (finish reason length)', async () => {
    for (let round = 0; round < 4; round++) {
      const generated = history();
      const model = new MockLanguageModelV4({
        doGenerate: async () => ({
          content: [
            { type: 'text' as const, text: `## Goal\nRefactor ${generated.seed} and ${random()}` },
          ],
          finishReason: { unified: 'length' as const, raw: 'length' },
          usage: {
            inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 5, text: 5, reasoning: undefined },
          },
          warnings: [],
        }),
      });
      const tokens = counter.countMessages(generated.messages);
      const result = await createContextCompressor({
        counter,
        summarizer: model,
        protectLastNTokens: 60,
        maxAttempts: 1,
      }).compress(generated.messages, {
        targetTokens: Math.floor(tokens * 0.8),
        strategy: 'summarize',
      });
      expect(result.strategy).toBe('receipt');
      expect(result.fallbackReason).toMatch(/^garbage: summary rejected as truncated/);
    }
  });

  it('appends facts from redacted text only: a secret in the span never reaches the summary', async () => {
    for (let round = 0; round < 6; round++) {
      const token = pick([
        `ghp_${random()}${random()}${random()}${random()}${random()}${random()}`,
        `sk-proj-${random()}${random()}${random()}${random()}${random()}`,
        `AKIA${Array.from({ length: 16 }, () => pick([...'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'])).join('')}`,
      ]);
      const generated = history({ secret: token });
      const { result, requests } = await compressWith(
        `## Goal\nRename the ${generated.seed}Config option.`,
        generated,
      );
      expect(result.strategy, result.fallbackReason).toBe('summarize');
      // The error line carrying the secret was missing from the reply and appended, redacted.
      expect(result.event.addedFacts!.errors.some((line) => line.includes('login refused'))).toBe(
        true,
      );
      expect(result.summary).not.toContain(token);
      expect(JSON.stringify(result.event)).not.toContain(token);
      expect(JSON.stringify(result.messages)).not.toContain(token);
      expect(JSON.stringify(requests)).not.toContain(token);
    }
  });

  it('the top-up is bounded: the record stays within its target whatever the span holds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 20, max: 120 }), async (fileCount) => {
        const seed = `b${random()}`;
        const messages: ModelMessage[] = [{ role: 'user', content: `Audit the ${seed} tree` }];
        for (let index = 0; index < fileCount; index++) {
          const id = `c${index}`;
          messages.push(
            {
              role: 'assistant',
              content: [
                {
                  type: 'tool-call',
                  toolCallId: id,
                  toolName: `tool_${index % 15}`,
                  input: { path: `src/${seed}/module-${index}-${random()}.ts` },
                },
              ],
            },
            {
              role: 'tool',
              content: [
                {
                  type: 'tool-result',
                  toolCallId: id,
                  toolName: `tool_${index % 15}`,
                  output: { type: 'text', value: `Error: check ${index} failed in ${seed}\n` },
                },
              ],
            },
          );
        }
        messages.push({ role: 'user', content: 'Now report.' });
        const generated = { ...history({ seed }), messages };
        const { result, requests } = await compressWith(
          `## Goal\nAudit the ${seed} tree.\n## Completed actions\nChecked modules.\n## Blockers and errors\nChecks failed.`,
          generated,
          0.5,
        );
        expect(result.strategy, `${result.fallbackReason} seed=${seed} n=${fileCount}`).toBe(
          'summarize',
        );
        const added = result.event.addedFacts!;
        expect(added.files.length).toBeLessThanOrEqual(12);
        expect(added.errors.length).toBeLessThanOrEqual(8);
        expect(added.tools.length).toBeLessThanOrEqual(8);
        const sectionTokens = counter.count(result.summary!);
        // The whole record (header, ask pointer, footer included) stays near the request's target.
        expect(sectionTokens).toBeLessThanOrEqual(requests[0]!.targetTokens * 1.2 + 120);
        expect(result.withinBudget).toBe(true);
      }),
      { numRuns: 12 },
    );
  });

  it('compaction of a compacted history keeps one added-facts section and valid tool pairs', async () => {
    const generated = history();
    const first = await compressWith(
      `## Goal\nRename the ${generated.seed}Config option.`,
      generated,
    );
    expect(first.result.strategy, first.result.fallbackReason).toBe('summarize');
    const next: ModelMessage[] = [...first.result.messages];
    for (let index = 0; index < 6; index++) {
      next.push(
        { role: 'user', content: `Then check step ${index} of ${generated.seed}` },
        { role: 'assistant', content: `Checked step ${index}: ${'details '.repeat(60)}` },
      );
    }
    next.push({ role: 'user', content: 'Wrap up.' });
    const second = await compressWith(
      `## Goal\nParser work on ${generated.seed}.\n## Completed actions\nChecked steps.`,
      { ...generated, messages: next },
      0.6,
    );
    expect(second.result.strategy).toBe('summarize');
    const summary = second.result.summary!;
    expect(summary.split(`## ${addedTitle}`).length - 1).toBe(1);
    expect(validateToolPairs(second.result.messages).valid).toBe(true);
  });
});

describe('verifySummary', () => {
  const facts: SpanFacts = {
    asks: ['Please migrate the billing worker to the queue'],
    files: ['src/render/canvas.ts'],
    errors: ['Error: socket hangup timeout'],
    tools: ['run_tests'],
    openWork: ['deploy_service staging'],
  };
  const stems = wordStems(
    'migrate billing worker queue socket hangup timeout run_tests deploy staging render canvas',
  );

  it('maps heading wordings to sections and keeps a model from writing the added-facts section', () => {
    const { sections } = verifySummary(
      `**Objective:** migrate the billing worker\n## ${addedTitle}\n- file: invented.ts\nIssues:\n- socket hangup timeout\nFiles touched:\nsrc/render/canvas.ts`,
      facts,
      stems,
      { topUp: false },
    );
    expect(sections?.goal).toBe('migrate the billing worker');
    expect(sections?.blockers).toContain('socket hangup timeout');
    expect(sections?.files).toBe('src/render/canvas.ts');
    expect(sections?.addedFacts).toBeUndefined();
    expect(sections?.criticalContext).toContain('invented.ts');
  });

  it('drops lines a looping model repeats and counts them', () => {
    const line = 'Migrated the billing worker to the queue.';
    const { sections, verification } = verifySummary(
      `## Goal\n${`${line}\n`.repeat(40)}`,
      facts,
      stems,
    );
    expect(sections?.goal).toBe(line);
    expect(verification.droppedRepeatedLines).toBe(39);
  });

  it('factCoverage is the share present before the top-up, and the top-up completes the record', () => {
    fc.assert(
      fc.property(
        fc.subarray(['asks', 'files', 'errors', 'tools', 'openWork'] as const),
        (mentioned) => {
          // Two stems from the span (`billing`, `worker`): a record about it even with no fact.
          const reply = `## Goal\nBilling worker record.\n${mentioned.map((kind) => facts[kind][0]).join('\n')}`;
          const { sections, verification } = verifySummary(reply, facts, stems);
          expect(verification.factCoverage).toBeCloseTo(mentioned.length / 5);
          const text = Object.values(sections!).join('\n');
          for (const kind of ['asks', 'files', 'errors', 'tools', 'openWork'] as const) {
            expect(text).toContain(facts[kind][0]);
            expect(verification.added[kind].length).toBe(mentioned.includes(kind) ? 0 : 1);
          }
        },
      ),
    );
  });

  it('extractSpanFacts reads pending calls as open work and leaves out excluded asks', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Please migrate the billing worker' },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'x',
            toolName: 'deploy_service',
            input: { command: 'deploy staging' },
          },
        ],
      },
      { role: 'user', content: 'Now tell me the status please' },
    ];
    const extracted = extractSpanFacts(messages, new Set([2]));
    expect(extracted.asks).toEqual(['Please migrate the billing worker']);
    expect(extracted.tools).toEqual(['deploy_service']);
    expect(extracted.openWork).toHaveLength(1);
    expect(extracted.openWork[0]).toContain('deploy_service');
  });
});

describe('verifySummary: earlier asks', () => {
  const noFacts: SpanFacts = { asks: [], files: [], errors: [], tools: [], openWork: [] };
  const reply = [
    '## Goal',
    `Refactor the ${random()} loader and its cache.`,
    '## Critical context',
    `The loader in ${random()} reads configuration twice per request.`,
    '## Remaining work',
    'Ship it.',
  ].join('\n');

  it('counts an ask present only by its exact key, so a paraphrase is topped up', () => {
    const ask = `please rename loader ${random()} to config reader and keep the cache`;
    const paraphrase = `${reply}\n## Pending asks\nThe user wants the config reader to keep the cache; rename loader ${ask.split(' ')[3]}.`;
    const { verification } = verifySummary(paraphrase, { ...noFacts, asks: [ask] }, wordStems(ask));
    expect(verification.present.asks).toBe(0);
    expect(verification.added.asks).toEqual([ask]);
    const stated = verifySummary(`${reply}\n- ${ask}`, { ...noFacts, asks: [ask] }, wordStems(ask));
    expect(stated.verification.present.asks).toBe(1);
  });

  it('drops the least specific reply sections to make room for a missing ask, never the other classes', () => {
    const ask = `ok ${random()}`;
    const error = `Error: ${random()} failed`;
    // Room for the reply's remaining-work line and the ask only.
    const fits = (sections: Record<string, string | undefined>) =>
      Object.values(sections).join('\n').length <= 'Ship it.'.length + ask.length + 40;
    const { sections, verification } = verifySummary(
      reply,
      { ...noFacts, asks: [ask], errors: [error] },
      wordStems(`${reply} ${ask}`),
      { fits },
    );
    expect(verification.added.asks).toEqual([ask]);
    expect(verification.added.errors).toEqual([]);
    expect(verification.displacedSections).toEqual(['criticalContext', 'goal']);
    expect(sections?.remainingWork).toBe('Ship it.');
    expect(sections?.addedFacts).toContain(ask);
  });
});
