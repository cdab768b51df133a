import type { ModelMessage } from '@ai-sdk/provider-utils';
import { BatonError } from '@baton/tokens';
import { describe, expect, it } from 'vitest';
import {
  createReceipt,
  HANDOFF_CURRENT_ASK_POINTER,
  HANDOFF_HEADER,
  parseHandoff,
  ReceiptInputError,
} from './index.js';

const counter = { count: (text: string) => Math.ceil(text.length / 4) };

const window: ModelMessage[] = [
  { role: 'user', content: 'Please fix the failing test in src/app/main.ts' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading the file.' },
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'read_file',
        input: { path: 'src/app/main.ts' },
      },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'read_file',
        output: { type: 'text', value: 'export {}' },
      },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'c2', toolName: 'bash', input: { command: 'npm test' } },
    ],
  },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'c2',
        toolName: 'bash',
        output: {
          type: 'error-text',
          value: 'TypeError: x is not a function\n    at /repo/src/app/main.ts:3:1',
        },
      },
    ],
  },
  { role: 'user', content: [{ type: 'text', text: 'Now also update the README' }] },
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'c3', toolName: 'edit_file', input: { path: 'README.md' } },
    ],
  },
];

describe('createReceipt', () => {
  it('builds the shared layout with asks, actions, files, errors and counts', () => {
    const receipt = createReceipt(window, { counter, maxTokens: 1000 });
    expect(receipt.text.startsWith(HANDOFF_HEADER)).toBe(true);
    expect(parseHandoff(receipt.text)).toEqual(receipt.sections);
    expect(receipt.sections.latestAsk).toBe('Now also update the README');
    expect(receipt.sections.pendingAsks).toContain(
      'Please fix the failing test in src/app/main.ts',
    );
    expect(receipt.sections.completedActions).toContain(
      '2. bash npm test — error: TypeError: x is not a function',
    );
    // A call without a result was not completed: it is listed as in-progress history.
    expect(receipt.sections.completedActions).not.toContain('edit_file');
    expect(receipt.sections.inProgress).toBe(
      '3. edit_file README.md — no result (may not have run)',
    );
    expect(receipt.stats.actions).toEqual({ total: 2, shown: 2 });
    expect(receipt.stats.pendingActions).toEqual({ total: 1, shown: 1 });
    expect(receipt.sections.files).toContain('src/app/main.ts');
    expect(receipt.sections.blockers).toContain('TypeError: x is not a function');
    expect(receipt.sections.counts).toContain('bash ×1');
    // The latest ask is stated once.
    expect(receipt.text.split('Now also update the README').length).toBe(2);
  });

  it('is deterministic', () => {
    expect(createReceipt(window, { counter }).text).toBe(createReceipt(window, { counter }).text);
  });

  it('throws a typed error for malformed messages', () => {
    const bad = [
      { role: 'assistant', content: [{ type: 'tool-call', toolName: 'x' }] },
    ] as unknown as ModelMessage[];
    let caught: unknown;
    try {
      createReceipt(bad, { counter });
    } catch (error) {
      caught = error;
    }
    expect(ReceiptInputError.isInstance(caught)).toBe(true);
    expect(BatonError.isInstance(caught)).toBe(true);
    expect((caught as ReceiptInputError).path).toBe('messages[0].content[0].toolCallId');
  });
});

describe('createReceipt robustness', () => {
  it('handles every output type, reasoning, images and a trailing call without result', () => {
    const messages: ModelMessage[] = [
      { role: 'system', content: 'system prompt' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', image: new Uint8Array([1, 2]), mediaType: 'image/png' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'thinking about /etc/hosts' },
          { type: 'tool-call', toolCallId: 'a', toolName: 't', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 't',
            output: { type: 'json', value: { path: '/var/log/app.log' } },
          },
          {
            type: 'tool-result',
            toolCallId: 'b',
            toolName: 't',
            output: { type: 'error-json', value: { message: 'timeout after 30s' } },
          },
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 't',
            output: { type: 'execution-denied' },
          },
          {
            type: 'tool-result',
            toolCallId: 'd',
            toolName: 't',
            output: { type: 'content', value: [{ type: 'file-url', url: 'https://x/y.png' }] },
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'e', toolName: 'submit', input: { answer: 42 } },
        ],
      },
    ];
    const receipt = createReceipt(messages, { counter });
    expect(receipt.sections.completedActions).not.toContain('submit');
    expect(receipt.sections.inProgress).toContain('submit');
    expect(receipt.sections.inProgress).toContain('no result (may not have run)');
    expect(receipt.sections.blockers).toContain('timeout after 30s');
    expect(receipt.sections.files).toContain('/var/log/app.log');
    expect(receipt.sections.files).toContain('/etc/hosts');
  });

  it('keeps the previous summary as a snapshot without nesting old snapshots', () => {
    const previous = createReceipt(window.slice(0, 3), { counter, maxTokens: 600 });
    const next = createReceipt(window.slice(3), { counter, previousSummary: previous.text });
    expect(next.sections.previousSummary).toContain('Please fix the failing test');
    expect(next.text.split(HANDOFF_HEADER).length).toBe(2);
  });

  it('carries older snapshots forward while the budget allows', () => {
    const first = createReceipt(window.slice(0, 3), { counter, maxTokens: 600 });
    const second = createReceipt(window.slice(3, 5), { counter, previousSummary: first.text });
    const third = createReceipt(window.slice(5), { counter, previousSummary: second.text });
    expect(third.sections.previousSummary).toContain('Please fix the failing test');
    expect(third.sections.previousSummary).toContain('TypeError: x is not a function');
    const tight = createReceipt(window.slice(5), {
      counter,
      previousSummary: second.text,
      maxTokens: 200,
    });
    expect(tight.stats.tokens).toBeLessThanOrEqual(200);
  });

  it('collapses what does not fit into counts and never cuts a path', () => {
    const many: ModelMessage[] = [];
    for (let index = 0; index < 200; index++) {
      many.push({
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: `c${index}`,
            toolName: 'read',
            input: { path: `src/module${index}/file${index}.ts` },
          },
        ],
      });
      many.push({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: `c${index}`,
            toolName: 'read',
            output: { type: 'text', value: 'ok' },
          },
        ],
      });
    }
    const receipt = createReceipt(many, { counter, maxTokens: 400 });
    expect(receipt.stats.tokens).toBeLessThanOrEqual(400);
    expect(receipt.sections.files).toMatch(/\+\d+ more files? under src\//);
    for (const match of receipt.text.matchAll(/src\/module(\d+)\/file(\d+)/g))
      expect(match[1]).toBe(match[2]);
    expect(receipt.sections.completedActions).toMatch(/\+\d+ more calls not listed: read ×\d+/);
  });

  it('points to a latestAsk that follows the handoff instead of repeating it', () => {
    const dropped = window.slice(0, 5);
    const ask = 'Keep the public signature unchanged.';
    const receipt = createReceipt(dropped, { counter, maxTokens: 1000, latestAsk: ask });
    // The current request follows the handoff in the conversation: it is not stated here at all.
    expect(receipt.text).not.toContain(ask);
    expect(receipt.sections.latestAsk).toContain(HANDOFF_CURRENT_ASK_POINTER);
    // The window's own last ask is history, verbatim and labelled so, and stated once.
    const windowAsk = 'Please fix the failing test in src/app/main.ts';
    expect(receipt.sections.latestAsk).toBe(
      `${HANDOFF_CURRENT_ASK_POINTER}\n\nLast ask within these earlier turns (historical, already handled or superseded):\n${windowAsk}`,
    );
    expect(receipt.text.split(windowAsk).length).toBe(2);
    expect(receipt.sections.pendingAsks).toBeUndefined();
    expect(receipt.stats.messages).toBe(5);
    expect(receipt.sections.counts).toContain('Messages: 5');
    // Without the option the window's last user message is the latest ask, verbatim.
    const own = createReceipt(window, { counter, maxTokens: 1000 });
    expect(own.sections.latestAsk).toBe('Now also update the README');
    expect(own.sections.pendingAsks).toContain(windowAsk);
  });

  it('states only the pointer when the window ends with the current request itself', () => {
    const ask = 'Now also update the README';
    const receipt = createReceipt(window, { counter, maxTokens: 1000, latestAsk: ask });
    expect(receipt.sections.latestAsk).toBe(HANDOFF_CURRENT_ASK_POINTER);
    expect(receipt.text).not.toContain(ask);
    expect(receipt.sections.lastTurns).toContain(
      '(the current request, repeated after this handoff)',
    );
    // An earlier, different ask stays an earlier ask.
    expect(receipt.sections.pendingAsks).toContain('Please fix the failing test');
  });

  it('redacts a latestAsk and rejects one that is not a string', () => {
    const token = `ghp_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'}`;
    const receipt = createReceipt(window, {
      counter,
      maxTokens: 1000,
      latestAsk: `Use the token ${token} to push`,
    });
    expect(receipt.text).not.toContain(token);
    expect(receipt.sections.latestAsk).not.toContain('Use the token');
    expect(receipt.sections.latestAsk).toContain('Now also update the README');
    expect(() =>
      createReceipt(window, { counter, latestAsk: 5 as unknown as string }),
    ).toThrowError(/latestAsk/);
  });

  it('shows command-like calls with their arguments, not the program name alone', () => {
    const run = (id: string, input: unknown): ModelMessage[] => [
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: id, toolName: 'run_command', input }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: id,
            toolName: 'run_command',
            output: { type: 'json', value: { exitCode: 1 } },
          },
        ],
      },
    ];
    const receipt = createReceipt(
      [
        { role: 'user', content: 'Run the tests.' },
        ...run('r1', { command: 'node', args: ['--test', 'x.test.js'] }),
        ...run('r2', { cmd: ['git', 'commit'], args: ['-m', 'fix the parser'] }),
        ...run('r3', { command: 'ls' }),
        ...run('r4', { command: 'node', args: ['-e', `console.log("${'x'.repeat(400)}")`] }),
      ],
      { counter, maxTokens: 2000 },
    );
    const actions = receipt.sections.completedActions ?? '';
    expect(actions).toContain('run_command node --test x.test.js');
    expect(actions).toContain('run_command git commit -m "fix the parser"');
    expect(actions).toMatch(/run_command ls —/);
    // A long command line is clipped, not dropped and not shown whole.
    const long = actions.split('\n').find((line) => line.includes('node -e'));
    expect(long).toBeDefined();
    expect(long!.length).toBeLessThan(260);
  });

  it('rejects bad options and shapes with typed errors', () => {
    expect(() => createReceipt(window, { maxTokens: 10 })).toThrowError(/maxTokens/);
    for (const bad of [
      [{ role: 'robot', content: 'x' }],
      [{ role: 'user', content: 5 }],
      [
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'a', toolName: 'x', output: { type: 'weird' } },
          ],
        },
      ],
      'nope',
    ]) {
      expect(() => createReceipt(bad as unknown as ModelMessage[], { counter })).toThrowError(
        BatonError,
      );
    }
  });
});

describe('createReceipt on a sparse message list', () => {
  it('throws a typed error for a hole, as for an undefined message', () => {
    const sparse = new Array<ModelMessage>(2);
    sparse[1] = { role: 'user', content: 'x' };
    expect(() => createReceipt(sparse, { counter })).toThrowError(ReceiptInputError);
    expect(() =>
      createReceipt([undefined, sparse[1]] as unknown as ModelMessage[], { counter }),
    ).toThrowError(ReceiptInputError);
  });
});

describe('createReceipt on cyclic and deeply nested tool data', () => {
  const deep = (levels: number, leaf: unknown) => {
    let value: unknown = leaf;
    for (let level = 0; level < levels; level++) value = { data: value };
    return value;
  };

  it('builds a receipt instead of overflowing the stack', () => {
    const token = `ghp_${'Qw7Er9Ty2Ui4Op6As8Df1Gh3Jk5Lz7Xc9Vb2N'}`;
    const cyclic: Record<string, unknown> = { path: 'src/loop.ts', note: `uses ${token}` };
    cyclic.self = cyclic;
    const list: unknown[] = ['src/list.ts'];
    list.push(list);
    const messages = [
      { role: 'user', content: 'Walk the tree.' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'a', toolName: 'walk', input: cyclic },
          { type: 'tool-call', toolCallId: 'b', toolName: 'walk', input: { items: list } },
          {
            type: 'tool-call',
            toolCallId: 'c',
            toolName: 'deep',
            input: deep(50_000, 'src/deep.ts'),
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            toolName: 'walk',
            output: { type: 'json', value: cyclic },
          },
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 'deep',
            output: { type: 'error-json', value: deep(50_000, `failed with ${token}`) },
          },
        ],
      },
    ] as unknown as ModelMessage[];
    const receipt = createReceipt(messages, { counter, maxTokens: 2000 });
    expect(receipt.sections.files).toContain('src/loop.ts');
    expect(receipt.sections.completedActions).toContain('walk');
    expect(receipt.text).not.toContain(token);
    expect(JSON.stringify(receipt.sections)).not.toContain(token);
  });
});
