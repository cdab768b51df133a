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
    expect(parseCliArguments([])).toEqual({ command: 'help', topic: undefined });
    expect(parseCliArguments(['--help'])).toEqual({ command: 'help', topic: undefined });
    expect(parseCliArguments(['help', 'count'])).toEqual({ command: 'help', topic: 'count' });
    expect(parseCliArguments(['compact', '-h'])).toEqual({ command: 'help', topic: 'compact' });
    expect(parseCliArguments(['--version'])).toEqual({ command: 'version' });
  });

  it.each([
    [['frobnicate'], "unknown command 'frobnicate' (expected compact, count or lineage)"],
    [['--nope'], "unknown option '--nope' (expected a command: compact, count or lineage)"],
    [['compact', 'a.json', '--nope'], "unknown option '--nope'"],
    [['compact', 'a.json', '-x'], "unknown option '-x'"],
    [['compact'], 'compact: missing <file...>'],
    [['compact', 'a', '--window'], "option '--window' needs a value"],
    [['compact', 'a', '--window', 'big'], /^--window 'big': expected a positive number/],
    [['compact', 'a', '--window', '0'], /^--window '0': expected a positive number/],
    [
      ['compact', 'a', '--keep-last', '-5'],
      "option '--keep-last': write a value starting with '-' as --keep-last=<value>",
    ],
    [['compact', 'a', '--keep-last=-5'], /^--keep-last '-5': expected a non-negative number/],
    [
      ['compact', 'a', '--window', '1000', '--target', '2000'],
      '--target (2000) is larger than --window (1000)',
    ],
    [
      ['compact', 'a', '--strategy', 'magic'],
      "--strategy 'magic': expected one of auto, truncate, mask, summarize, receipt",
    ],
    [
      ['compact', 'a', '--format', 'xml'],
      "--format 'xml': expected one of auto, ai-sdk, openai-chat, claude-code",
    ],
    [['compact', 'a', '--summarizer', 'gpt-4o'], /^--summarizer 'gpt-4o': expected provider:model/],
    [['compact', 'a', '--json', '--out', '-'], /^--json and --out - both use stdout/],
    [['compact', 'a', '--model', ''], '--model must not be empty'],
    [['count'], 'count: missing <file>'],
    [['count', 'a', 'b'], 'count: expected exactly one <file>'],
    [['lineage', 'dir'], 'lineage: expected <dataDir> <id>'],
    [['help', 'nope'], "unknown command 'nope'"],
  ])('rejects %j', (args, expected) => {
    const message = usage(args as string[]);
    if (typeof expected === 'string') expect(message).toBe(expected);
    else expect(message).toMatch(expected);
  });
});
