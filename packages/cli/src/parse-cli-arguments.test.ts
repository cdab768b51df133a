import { describe, expect, it } from 'vitest';
import { parseCliArguments } from './parse-cli-arguments.js';
import { UsageError } from './usage-error.js';

const usage = (args: string[]) => {
  try {
    parseCliArguments(args);
  } catch (error) {
    expect(UsageError.isInstance(error)).toBe(true);
    expect((error as Error).message).not.toContain('\n');
    return (error as Error).message;
  }
  throw new Error(`expected a usage error for ${args.join(' ')}`);
};

describe('parseCliArguments', () => {
  it('reads compact flags with their defaults', () => {
    expect(parseCliArguments(['compact', 'a.json'])).toEqual({
      command: 'compact',
      settings: {
        files: ['a.json'],
        format: 'auto',
        fullHistory: false,
        model: 'gpt-4o',
        window: undefined,
        target: undefined,
        keepLast: undefined,
        strategy: 'auto',
        summarizer: undefined,
        out: undefined,
        outputFormat: 'auto',
        json: false,
      },
    });
  });

  it('reads every compact flag, with k/m token suffixes', () => {
    const parsed = parseCliArguments([
      'compact',
      'a.json',
      'b.jsonl',
      '--window=32k',
      '--target',
      '12000',
      '--keep-last',
      '0',
      '--model',
      'claude-sonnet-4-5',
      '-s',
      'receipt',
      '--summarizer',
      'openai:gpt-4o-mini',
      '-o',
      'out/',
      '--output-format',
      'openai-chat',
      '--format',
      'ai-sdk',
      '--full-history',
      '--json',
    ]);
    expect(parsed).toEqual({
      command: 'compact',
      settings: {
        files: ['a.json', 'b.jsonl'],
        format: 'ai-sdk',
        fullHistory: true,
        model: 'claude-sonnet-4-5',
        window: 32_000,
        target: 12_000,
        keepLast: 0,
        strategy: 'receipt',
        summarizer: 'openai:gpt-4o-mini',
        out: 'out/',
        outputFormat: 'openai-chat',
        json: true,
      },
    });
    expect(parseCliArguments(['compact', 'a', '--window', '1.5m'])).toMatchObject({
      settings: { window: 1_500_000 },
    });
  });

  it('reads count and lineage', () => {
    expect(parseCliArguments(['count', 'a.json', '-m', 'gpt-4.1', '--json'])).toEqual({
      command: 'count',
      settings: {
        file: 'a.json',
        model: 'gpt-4.1',
        json: true,
        format: 'auto',
        fullHistory: false,
      },
    });
    expect(parseCliArguments(['lineage', './data', 'abc'])).toEqual({
      command: 'lineage',
      settings: { dataDir: './data', id: 'abc', json: false },
    });
  });

  it('answers help and version', () => {
    expect(parseCliArguments(['--help'])).toEqual({ command: 'help', topic: undefined });
    expect(parseCliArguments(['help', 'count'])).toEqual({ command: 'help', topic: 'count' });
    expect(parseCliArguments(['compact', '-h'])).toEqual({ command: 'help', topic: 'compact' });
    expect(parseCliArguments(['--version'])).toEqual({ command: 'version' });
  });

  it.each([
    [[], 'missing command (expected compact, count, lineage, recall, sessions or summarize)'],
    [
      ['frobnicate'],
      'unknown command, a 10-character value (not shown) (expected compact, count, lineage, recall, sessions or summarize)',
    ],
    [
      ['--nope'],
      'unknown option (a 6-character name, not shown) (expected a command: compact, count, lineage, recall, sessions or summarize)',
    ],
    [['compact', 'a.json', '--nope'], 'unknown option (a 6-character name, not shown)'],
    [['compact', 'a.json', '-x'], 'unknown option (a 2-character name, not shown)'],
    // Letters only, like a password typed into the wrong place: never echoed.
    [['compact', 'a.json', '--hunter'], 'unknown option (a 8-character name, not shown)'],
    [['count', 'a.json', '--window=5'], 'unknown option (a 8-character name, not shown)'],
    [['compact'], 'compact: missing <file...>'],
    [['compact', 'a', '--window'], "option '--window' needs a value"],
    [
      ['compact', 'a', '--window', 'big'],
      '--window: expected a positive number of tokens (e.g. 32000 or 32k); got a 3-character value (not shown)',
    ],
    [['compact', 'a', '--window', '0'], /^--window: expected a positive number .*; got zero$/],
    [
      ['compact', 'a', '--window', '-5'],
      '--window: expected a positive number of tokens (e.g. 32000 or 32k); got a negative number',
    ],
    [
      ['compact', 'a', '--window=-5'],
      /^--window: expected a positive number .*; got a negative number$/,
    ],
    [
      ['compact', 'a', '--target', '-1k'],
      /^--target: expected a positive number .*; got a negative number$/,
    ],
    [
      ['compact', 'a', '--keep-last', '-5'],
      '--keep-last: expected a non-negative number of tokens (e.g. 32000 or 32k); got a negative number',
    ],
    [
      ['compact', 'a', '--keep-last=-5'],
      /^--keep-last: expected a non-negative number .*; got a negative number$/,
    ],
    [
      ['compact', 'a', '--window', '1000', '--target', '2000'],
      '--target (2000) is larger than --window (1000)',
    ],
    [
      ['compact', 'a', '--strategy', 'magic'],
      '--strategy: expected one of auto, truncate, mask, summarize, receipt; got a 5-character value (not shown)',
    ],
    [
      ['compact', 'a', '--format', 'xml'],
      /^--format: expected one of auto, ai-sdk, openai-chat, claude-code.*; got a 3-character value \(not shown\)$/,
    ],
    [['compact', 'a', '--summarizer', 'gpt-4o'], /^--summarizer: expected provider:model/],
    [['compact', 'a', '--json', '--out', '-'], /^--json and --out - both use stdout/],
    [['compact', 'a', '--model', ''], '--model must not be empty'],
    [['count'], 'count: missing <file>'],
    [['count', 'a', 'b'], 'count: expected exactly one <file>'],
    [['lineage', 'dir'], 'lineage: expected <dataDir> <id>'],
    [['help', 'nope'], 'help: unknown command, a 4-character value (not shown)'],
    [['sessions'], 'sessions: expected <dataDir>'],
    [['summarize'], 'summarize: missing <file>'],
    [
      ['summarize', 'a', '--detail', 'huge'],
      /^--detail: expected one of brief, concise, detailed; got a 4-character value/,
    ],
    [['summarize', 'a', '--target', '0'], /^--target: expected a positive number/],
  ])('rejects %j', (args, expected) => {
    const message = usage(args as string[]);
    if (typeof expected === 'string') expect(message).toBe(expected);
    else expect(message).toMatch(expected);
  });
});
