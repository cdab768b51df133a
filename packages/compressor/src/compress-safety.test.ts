import type { ModelMessage } from '@ai-sdk/provider-utils';
import { HANDOFF_HEADER } from '@baton/fallback';
import { createTokenCounter, InvalidInputError } from '@baton/tokens';
import { describe, expect, it } from 'vitest';
import { ContextCompressor, type SummarizerRequest, validateToolPairs } from './index.js';
import { deepFreeze } from './test-utils/deep-freeze.js';
import { assistant, toolTurn, user } from './test-utils/history.js';
import { structuredSummary } from './test-utils/structured-summary.js';

const counter = createTokenCounter({ encoding: 'o200k_base' });
const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const randomText = (length: number, seed: number) =>
  Array.from({ length }, (_, index) => letters[(index * 7 + seed * 13 + index * index) % 62]).join(
    '',
  );

/** Whether any `size`-character piece of `secret` shows up in `text`. */
function leaks(text: string, secret: string, size = 8): boolean {
  for (let start = 0; start + size <= secret.length; start++) {
    if (text.includes(secret.slice(start, start + size))) return true;
  }
  return false;
}

function tool(id: string, name: string, value: string): ModelMessage[] {
  return [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: name, input: { command: name } }],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: id, toolName: name, output: { type: 'text', value } },
      ],
    },
  ];
}

describe('secrets are redacted before anything is clipped', () => {
  it('mask digests keep no piece of a token or password cut at the digest boundary', async () => {
    const token = `ghp_${randomText(36, 1)}`;
    const password = randomText(20, 2);
    const messages = deepFreeze([
      user('hi'),
      assistant('ok'),
      user('go'),
      ...tool(
        'a',
        'bash',
        `Loaded environment from /home/dev/project/.env.local; GITHUB_TOKEN=${token}\n${'line\n'.repeat(500)}`,
      ),
      ...tool(
        'b',
        'bash',
        `{"service":"billing-api","environment":"prod","db_password":"${password}"}\n${'line\n'.repeat(500)}`,
      ),
      user('next'),
      assistant('done'),
    ] satisfies ModelMessage[]);
    const result = await new ContextCompressor({ counter, protectLastNTokens: 10 }).compress(
      messages,
      { targetTokens: 400, strategy: 'mask' },
    );
    expect(result.event.maskedMessageIndexes.length).toBe(2);
    const text = JSON.stringify(result.messages);
    expect(text).toContain('output masked');
    expect(leaks(text, token.slice(4))).toBe(false);
    expect(leaks(text, password)).toBe(false);
  });

  it('the LLM handoff points at the pinned ask instead of quoting it (and leaks no piece of it)', async () => {
    const token = `ghp_${randomText(36, 3)}`;
    // The token straddles the old 1,000-character cut.
    const ask = `${'please deploy the service '.repeat(38)}with GITHUB_TOKEN=${token} now`;
    const messages = deepFreeze([
      user('start'),
      assistant('ok'),
      ...tool('a', 'read', 'x'.repeat(4_000)),
      user(ask),
      ...tool('b', 'bash', 'deployed step one '.repeat(200)),
      assistant('All deployed.'),
    ] satisfies ModelMessage[]);
    const result = await new ContextCompressor({
      counter,
      protectLastNTokens: 10,
      summarizer: async () => structuredSummary(),
    }).compress(messages, { targetTokens: 1_200, strategy: 'summarize' });
    expect(result.usedFallback).toBe(false);
    expect(result.summary).toBeDefined();
    expect(result.summary).not.toContain('please deploy the service');
    expect(result.summary).toMatch(/Stated once, verbatim/);
    expect(leaks(result.summary!, token.slice(4))).toBe(false);
  });

  it('fallbackReason and the event carry no key quoted by a failing provider', async () => {
    const key = `sk-proj-${randomText(48, 4)}`;
    const messages = deepFreeze([
      user('start'),
      assistant('ok'),
      ...toolTurn('read', 'x'.repeat(6_000)),
      user('next'),
      assistant('done'),
    ]);
    const result = await new ContextCompressor({
      counter,
      protectLastNTokens: 10,
      retryDelayMs: 0,
      maxAttempts: 1,
      summarizer: async () => {
        throw new Error(`401 Unauthorized: invalid api key ${key}`);
      },
    }).compress(messages, { targetTokens: 600, strategy: 'summarize' });
    expect(result.usedFallback).toBe(true);
    expect(result.fallbackReason).toMatch(/401/);
    expect(leaks(JSON.stringify(result.event), key.slice(8))).toBe(false);
    expect(leaks(result.fallbackReason!, key.slice(8))).toBe(false);
  });

  it('an earlier handoff in the middle reaches the summariser redacted', async () => {
    const token = `ghp_${randomText(36, 5)}`;
    const requests: SummarizerRequest[] = [];
    const messages = deepFreeze([
      user('start'),
      assistant('ok'),
      user(`${HANDOFF_HEADER}\n## Goal\nShip it.\n## Critical context\nGITHUB_TOKEN=${token}`),
      ...toolTurn('read', 'y'.repeat(6_000)),
      user('next'),
      assistant('done'),
    ]);
    await new ContextCompressor({
      counter,
      protectLastNTokens: 10,
      summarizer: async (request) => {
        requests.push(request);
        return structuredSummary();
      },
    }).compress(messages, { targetTokens: 1_000, strategy: 'summarize' });
    expect(requests.length).toBe(1);
    expect(requests[0]!.previousSummary).toContain('Ship it.');
    expect(leaks(JSON.stringify(requests[0]), token.slice(4))).toBe(false);
  });
});

describe('chunked summariser requests', () => {
  const escapes = JSON.stringify({ a: 'q"\\\n'.repeat(1_500) });
  const generators: Record<string, (index: number) => string> = {
    escapes: () => escapes,
    base64: (index) => randomText(6_000, index).replace(/[a-e]/g, '+').replace(/[f-j]/g, '/'),
    cjk: () => '数据处理完成，结果如下：'.repeat(500),
  };
  for (const [name, generate] of Object.entries(generators)) {
    it(`${name}: every request is within the input budget, counted exactly`, async () => {
      const history: ModelMessage[] = [user('start'), assistant('ok')];
      for (let index = 0; index < 12; index++)
        history.push(...tool(`h${index}`, 'read', generate(index)));
      history.push(user('finish'), assistant('done'));
      const input = deepFreeze(history);
      for (const budget of [1_800, 3_000, 6_000]) {
        const requests: SummarizerRequest[] = [];
        const result = await new ContextCompressor({
          counter,
          retryDelayMs: 0,
          protectLastNTokens: 100,
          summarizerInputBudget: budget,
          summaryTargetTokens: 300,
          summarizer: async (request) => {
            requests.push(request);
            return structuredSummary();
          },
        }).compress(input, {
          targetTokens: Math.floor(counter.countMessages(input) / 4),
          strategy: 'summarize',
        });
        expect(result.usedFallback, `${name} ${budget}`).toBe(false);
        // The budget forces packing into several requests.
        expect(requests.length, `${name} ${budget}`).toBeGreaterThan(1);
        for (const request of requests) {
          // Counted independently of what the compressor claims.
          const exact = counter.countMessages([
            { role: 'system', content: request.instructions },
            ...request.messages,
          ]);
          expect(exact, `${name} ${budget}`).toBeLessThanOrEqual(budget);
          expect(request.inputTokens).toBe(exact);
        }
        // Every message of the middle reached the summariser.
        const sent = requests.map((request) => request.prompt).join('\n');
        for (let index = 2; index < result.event.tailStartIndex; index++) {
          expect(sent, `${name} ${budget} message ${index}`).toContain(`<message index="${index}"`);
        }
      }
    });
  }
});

describe('a pinned ask followed by removed work', () => {
  const ask = 'Now migrate the billing tables to the new schema.';
  const messages = deepFreeze([
    user('start'),
    assistant('ok'),
    ...toolTurn('read', 'old work '.repeat(600)),
    user(ask),
    ...toolTurn('bash', 'migration step one done '.repeat(300)),
    ...toolTurn('bash', 'migration step two done '.repeat(300)),
    assistant('Both steps are done.'),
  ]);
  for (const strategy of ['summarize', 'receipt'] as const) {
    it(`${strategy}: the insert follows the ask and frames the later work as done`, async () => {
      const requests: SummarizerRequest[] = [];
      const result = await new ContextCompressor({
        counter,
        protectLastNTokens: 10,
        summarizer: async (request) => {
          requests.push(request);
          return structuredSummary();
        },
      }).compress(messages, { targetTokens: 1_500, strategy });
      expect(result.strategy).toBe(strategy);
      const askAt = result.messages.indexOf(messages[4]!);
      const insertAt = result.messages.findIndex(
        (message) =>
          typeof message.content === 'string' && message.content.startsWith(HANDOFF_HEADER),
      );
      expect(askAt).toBeGreaterThan(0);
      expect(insertAt).toBe(askAt + 1);
      expect(result.summary).toMatch(/work already done on that request/);
      // The ask is stated once in the output: verbatim, as its own message.
      expect(JSON.stringify(result.messages).split(ask).length - 1).toBe(1);
      if (strategy === 'summarize') {
        expect(requests[0]!.prompt).toContain('latest-request="true"');
        expect(requests[0]!.instructions).toMatch(/never restate or quote it/);
      }
    });
  }
});

describe('summariser time bounds', () => {
  const messages = deepFreeze([
    user('start'),
    assistant('ok'),
    ...toolTurn('read', 'z'.repeat(8_000)),
    user('next'),
    assistant('done'),
  ]);

  it('does not wait a retry-after longer than the deadline', async () => {
    let calls = 0;
    const started = performance.now();
    const result = await new ContextCompressor({
      counter,
      protectLastNTokens: 10,
      deadlineMs: 300,
      summarizer: async () => {
        calls++;
        throw Object.assign(new Error('Too Many Requests'), {
          statusCode: 429,
          responseHeaders: { 'retry-after': '60' },
        });
      },
    }).compress(messages, { targetTokens: 800, strategy: 'summarize' });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(calls).toBe(1);
    expect(result.usedFallback).toBe(true);
    expect(result.event.summarizerAttempts).toBe(1);
    expect(result.fallbackReason).toMatch(/deadline/);
  });

  it('cuts a hanging summariser at the deadline', async () => {
    const started = performance.now();
    const result = await new ContextCompressor({
      counter,
      protectLastNTokens: 10,
      deadlineMs: 200,
      timeoutMs: 60_000,
      summarizer: () => new Promise<string>(() => {}),
    }).compress(messages, { targetTokens: 800, strategy: 'summarize' });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(result.usedFallback).toBe(true);
  });

  it('counts no attempt when the caller aborted before the call', async () => {
    let calls = 0;
    const result = await new ContextCompressor({
      counter,
      protectLastNTokens: 10,
      summarizer: async () => {
        calls++;
        return structuredSummary();
      },
    }).compress(messages, {
      targetTokens: 800,
      strategy: 'summarize',
      abortSignal: AbortSignal.abort(),
    });
    expect(calls).toBe(0);
    expect(result.usedFallback).toBe(true);
    expect(result.event.summarizerAttempts).toBe(0);
  });

  it('does not call the summariser for an empty middle', async () => {
    let calls = 0;
    // Only an earlier handoff sits between the head and the tail.
    const input = deepFreeze([
      user('start'),
      assistant('ok'),
      user(`${HANDOFF_HEADER}\n## Goal\n${'Ship it. '.repeat(400)}`),
      user('next'),
      assistant('done'),
    ]);
    const result = await new ContextCompressor({
      counter,
      protectLastNTokens: 10,
      summarizer: async () => {
        calls++;
        return structuredSummary();
      },
    }).compress(input, { targetTokens: 600, strategy: 'summarize' });
    expect(calls).toBe(0);
    expect(result.strategy).toBe('receipt');
    expect(result.event.summarizerAttempts).toBe(0);
    expect(result.fallbackReason).toMatch(/no messages to summarise/);
  });
});

describe('message shapes are validated once, up front', () => {
  const filler = [user('first'), assistant('reply'), user(`fill ${'w '.repeat(600)}`)];
  const cases: Array<[string, unknown, string]> = [
    ['tool message with string content', { role: 'tool', content: 'raw' }, 'messages[3].content'],
    ['developer role', { role: 'developer', content: 'x' }, 'messages[3].role'],
    ['null content', { role: 'user', content: null }, 'messages[3].content'],
    [
      'unknown output type',
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'x',
            output: { type: 'banana', value: 3 },
          },
        ],
      },
      'messages[3].content[0].output.type',
    ],
    [
      'part without a type',
      { role: 'assistant', content: [{ text: 'x' }] },
      'messages[3].content[0].type',
    ],
  ];
  for (const [name, bad, path] of cases) {
    for (const strategy of ['auto', 'mask', 'receipt'] as const) {
      it(`${name} (${strategy}): InvalidInputError at ${path}`, async () => {
        const input = [...filler, bad, user('q'), assistant('a')] as ModelMessage[];
        const error = await new ContextCompressor({ counter })
          .compress(input, { targetTokens: 300, strategy })
          .catch((caught: unknown) => caught);
        expect(InvalidInputError.isInstance(error)).toBe(true);
        expect((error as InvalidInputError).path).toBe(path);
      });
    }
  }
});

describe('mask leaves the tail and tool inputs alone', () => {
  it('keeps the protected tail byte-identical and tool-call inputs as they were', async () => {
    const content = 'export const value = 1;\n'.repeat(200);
    const write: ModelMessage[] = [
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'w',
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
            toolCallId: 'w',
            toolName: 'write_file',
            output: { type: 'text', value: 'ok' },
          },
        ],
      },
    ];
    const messages = deepFreeze([
      user('start'),
      assistant('ok'),
      ...write,
      ...toolTurn('read', 'middle output '.repeat(400)),
      user('next'),
      // The latest assistant message is a call: the smallest tail holds it and its large result.
      ...toolTurn('read', 'tail output '.repeat(400)),
    ]);
    const compressor = new ContextCompressor({ counter, protectLastNTokens: 1_000 });
    // Over budget even with the smallest tail while the write input stays as it is.
    const result = await compressor.compress(messages, { targetTokens: 2_000, strategy: 'mask' });
    expect(result.withinBudget).toBe(false);
    const tail = messages.slice(result.event.tailStartIndex);
    expect(tail.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(tail)).toContain('tail output');
    expect(result.messages.slice(-tail.length)).toEqual(tail);
    expect(JSON.stringify(result.messages)).not.toContain('maskedByBaton');
    expect(result.messages[2]).toBe(messages[2]);
    // Opt-in: the inputs may go too.
    const aggressive = await new ContextCompressor({
      counter,
      protectLastNTokens: 1_000,
      maskToolInputs: true,
    }).compress(messages, { targetTokens: 2_000, strategy: 'mask' });
    expect(JSON.stringify(aggressive.messages)).toContain('maskedByBaton');
  });
});

describe('mask sizes its tail for a masked middle', () => {
  const output = (word: string) => `${word} output line\n`.repeat(300);
  // 0 start, 1 ok (head); 2-3 old read; 4 long prose reply; 5 latest ask; 6-7 latest read; 8 reply.
  const messages = deepFreeze([
    user('start'),
    assistant('ok'),
    ...toolTurn('read', output('alpha')),
    assistant('Notes on the design so far. '.repeat(300)),
    user('next'),
    ...toolTurn('read', output('gamma')),
    assistant('done'),
  ]);
  const total = counter.countMessages(messages);
  const size = (index: number) => counter.countMessage(messages[index]!);
  const compressor = new ContextCompressor({ counter, protectLastNTokens: 5_000 });

  it('fits with a smaller tail where a tail taking all the budget left by the head could not', async () => {
    // Room for two placeholders beside the prose, not for either read verbatim.
    const target = total - size(3) - size(7) + 300;
    // A tail sized by what the head and the ask leave would hold the latest read verbatim, and then
    // even masking the old read away entirely stays over: masking must shrink the tail.
    const left = target - counter.countMessages([]) - size(0) - size(1) - size(5);
    expect(size(6) + size(7) + size(8)).toBeLessThanOrEqual(left);
    expect(total - size(3)).toBeGreaterThan(target);
    const result = await compressor.compress(messages, { targetTokens: target, strategy: 'mask' });
    expect(result.withinBudget).toBe(true);
    expect(result.tokensAfter).toBeLessThanOrEqual(target);
    expect(result.event.maskedMessageIndexes).toEqual([3, 7]);
    expect(result.event.tailStartIndex).toBe(8);
    expect(result.messages[8]).toBe(messages[8]);
    for (const index of [0, 1, 2, 4, 5, 6]) expect(result.messages[index]).toBe(messages[index]);
    expect(validateToolPairs(result.messages).problems).toEqual([]);
  });

  it('keeps the largest tail that still fits, and masks oldest first only as needed', async () => {
    // Room for one placeholder: the latest read stays verbatim, the old one cannot.
    const target = total - size(3) + 100;
    const result = await compressor.compress(messages, { targetTokens: target, strategy: 'mask' });
    expect(result.withinBudget).toBe(true);
    expect(result.event.maskedMessageIndexes).toEqual([3]);
    // The prose, the ask and the latest read join the tail; a cut before message 2 would need the
    // old read verbatim (and cut between a call and its result at 3 is not allowed).
    expect(result.event.tailStartIndex).toBe(4);
    for (let index = 4; index < messages.length; index++)
      expect(result.messages[index]).toBe(messages[index]);
  });

  it('caps the tail at protectLastNTokens even when a larger one would fit', async () => {
    const small = new ContextCompressor({ counter, protectLastNTokens: 10 });
    const result = await small.compress(messages, {
      targetTokens: total - size(3) + 100,
      strategy: 'mask',
    });
    // The smallest tail; oldest first, the old read alone meets the budget, so the latest read
    // stays as it was even outside the tail.
    expect(result.event.tailStartIndex).toBe(8);
    expect(result.withinBudget).toBe(true);
    expect(result.event.maskedMessageIndexes).toEqual([3]);
    expect(result.messages[7]).toBe(messages[7]);
  });
});
