import { parseArgs } from 'node:util';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from './read-transcript.js';
import { optionName, safeErrorText, withheldValue } from './safe-error-text.js';
import { UsageError } from './usage-error.js';

export const COMPACT_STRATEGIES = ['auto', 'truncate', 'mask', 'summarize', 'receipt'] as const;
export type CompactStrategyName = (typeof COMPACT_STRATEGIES)[number];

export const DEFAULT_MODEL = 'gpt-4o';

/** Settings shared by commands that read transcripts. */
export interface InputSettings {
  /** Input format, or `auto` to detect it. */
  format: TranscriptFormat | 'auto';
  /** Claude Code JSONL: keep the turns before the last `compact_boundary`. */
  fullHistory: boolean;
}

export interface CompactSettings extends InputSettings {
  files: string[];
  model: string;
  /** Context window in tokens; undefined: the model's own window. */
  window: number | undefined;
  /** Tokens to compact down to; undefined: half the window. */
  target: number | undefined;
  /** Tokens of the most recent turns protected from compaction; undefined: the compressor's default. */
  keepLast: number | undefined;
  strategy: CompactStrategyName;
  /** `provider:model`, e.g. `openai:gpt-4o-mini`; undefined: no LLM (deterministic receipt). */
  summarizer: string | undefined;
  /** Output file, folder, or `-` for stdout; undefined: report only, nothing written. */
  out: string | undefined;
  outputFormat: 'auto' | 'ai-sdk' | 'openai-chat';
  json: boolean;
}

export interface CountSettings extends InputSettings {
  file: string;
  model: string;
  json: boolean;
}

export interface LineageSettings {
  dataDir: string;
  /** A session id or a unique prefix of one. */
  id: string;
  json: boolean;
}

export interface RecallSettings {
  dataDir: string;
  /** A session id or a unique prefix of one. */
  id: string;
  query: string;
  /** Most matches; undefined: the store's default (5). */
  limit: number | undefined;
  json: boolean;
}

export interface SummarizeSettings {
  /** The text file to summarise; `-` reads stdin. */
  file: string;
  /** `provider:model`; undefined: a local model when one is found, else the key lines. */
  summarizer: string | undefined;
  /** A GGUF model file; undefined: the cache folder `baton-fetch-model` fills. */
  modelPath: string | undefined;
  /** Tokens the summary may take; undefined: 500. */
  target: number | undefined;
  detail: 'brief' | 'concise' | 'detailed';
  /** Topics the summary must keep. */
  preserve: string[];
  /** Seconds per summariser call; undefined: 60. */
  timeoutSeconds: number | undefined;
  json: boolean;
}

export interface SessionsSettings {
  dataDir: string;
  json: boolean;
}

/** A parsed command line. */
export type CliCommand =
  | { command: 'help'; topic: CommandName | undefined }
  | { command: 'version' }
  | { command: 'compact'; settings: CompactSettings }
  | { command: 'count'; settings: CountSettings }
  | { command: 'lineage'; settings: LineageSettings }
  | { command: 'recall'; settings: RecallSettings }
  | { command: 'sessions'; settings: SessionsSettings }
  | { command: 'summarize'; settings: SummarizeSettings };

export const COMMANDS = ['compact', 'count', 'lineage', 'recall', 'sessions', 'summarize'] as const;
const COMMAND_LIST = 'compact, count, lineage, recall, sessions or summarize';
type CommandName = (typeof COMMANDS)[number];
const isCommand = (value: string | undefined): value is CommandName =>
  (COMMANDS as readonly string[]).includes(value ?? '');

const inputOptions = {
  format: { type: 'string' },
  'full-history': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * Parses `baton` arguments (without the node and script paths). Throws `UsageError` with a one-line
 * message for an unknown command or flag, a missing argument, or a bad value.
 */
export function parseCliArguments(args: readonly string[]): CliCommand {
  const [first, ...rest] = args;
  if (first === undefined) {
    throw new UsageError({ message: `missing command (expected ${COMMAND_LIST})` });
  }
  if (first === '--help' || first === '-h') return { command: 'help', topic: undefined };
  if (first === '--version' || first === '-v') return { command: 'version' };
  if (first === 'help') {
    const topic = rest[0];
    if (topic !== undefined && !isCommand(topic))
      throw new UsageError({ message: `help: unknown command, ${withheldValue(topic)}` });
    return { command: 'help', topic };
  }
  if (!isCommand(first)) {
    throw new UsageError({
      message: first.startsWith('-')
        ? `unknown option ${optionName(first, TOP_LEVEL_OPTIONS)} (expected a command: ${COMMAND_LIST})`
        : `unknown command, ${withheldValue(first)} (expected ${COMMAND_LIST})`,
    });
  }

  refuseNegativeNumbers(rest);

  if (first === 'compact') {
    const { values, positionals } = parse(rest, {
      ...inputOptions,
      out: { type: 'string', short: 'o' },
      model: { type: 'string', short: 'm' },
      window: { type: 'string' },
      target: { type: 'string' },
      'keep-last': { type: 'string' },
      strategy: { type: 'string', short: 's' },
      summarizer: { type: 'string' },
      'output-format': { type: 'string' },
    });
    if (values.help) return { command: 'help', topic: 'compact' };
    if (positionals.length === 0) throw new UsageError({ message: 'compact: missing <file...>' });
    const window = optionalTokens(values.window, '--window');
    const target = optionalTokens(values.target, '--target');
    if (window !== undefined && target !== undefined && target > window) {
      throw new UsageError({ message: `--target (${target}) is larger than --window (${window})` });
    }
    const json = values.json ?? false;
    if (json && values.out === '-') {
      throw new UsageError({
        message: '--json and --out - both use stdout; write the messages to a file',
      });
    }
    if (values.summarizer !== undefined && !/^[a-z][a-z-]*:.+$/.test(values.summarizer)) {
      throw new UsageError({
        message: `--summarizer: expected provider:model, e.g. openai:gpt-4o-mini; got ${withheldValue(values.summarizer)}`,
      });
    }
    return {
      command: 'compact',
      settings: {
        ...inputSettings(values),
        files: positionals,
        model: nonEmpty(values.model, '--model') ?? DEFAULT_MODEL,
        window,
        target,
        keepLast: optionalTokens(values['keep-last'], '--keep-last', true),
        strategy: oneOf(values.strategy, '--strategy', COMPACT_STRATEGIES) ?? 'auto',
        summarizer: values.summarizer,
        out: nonEmpty(values.out, '--out'),
        outputFormat:
          oneOf(values['output-format'], '--output-format', [
            'auto',
            'ai-sdk',
            'openai-chat',
          ] as const) ?? 'auto',
        json,
      },
    };
  }

  if (first === 'count') {
    const { values, positionals } = parse(rest, {
      ...inputOptions,
      model: { type: 'string', short: 'm' },
    });
    if (values.help) return { command: 'help', topic: 'count' };
    if (positionals.length !== 1) {
      throw new UsageError({
        message:
          positionals.length === 0 ? 'count: missing <file>' : 'count: expected exactly one <file>',
      });
    }
    return {
      command: 'count',
      settings: {
        ...inputSettings(values),
        file: positionals[0]!,
        model: nonEmpty(values.model, '--model') ?? DEFAULT_MODEL,
        json: values.json ?? false,
      },
    };
  }

  if (first === 'summarize') {
    const { values, positionals } = parse(rest, {
      summarizer: { type: 'string' },
      'model-path': { type: 'string' },
      target: { type: 'string' },
      detail: { type: 'string' },
      preserve: { type: 'string', multiple: true },
      timeout: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) return { command: 'help', topic: 'summarize' };
    if (positionals.length !== 1) {
      throw new UsageError({
        message:
          positionals.length === 0
            ? 'summarize: missing <file>'
            : 'summarize: expected exactly one <file>',
      });
    }
    if (values.summarizer !== undefined && !/^[a-z][a-z-]*:.+$/.test(values.summarizer)) {
      throw new UsageError({
        message: `--summarizer: expected provider:model, e.g. openai:gpt-4o-mini; got ${withheldValue(values.summarizer)}`,
      });
    }
    if (values.summarizer !== undefined && values['model-path'] !== undefined) {
      throw new UsageError({ message: '--summarizer and --model-path: give one summariser' });
    }
    let timeoutSeconds: number | undefined;
    if (values.timeout !== undefined) {
      timeoutSeconds = /^\d{1,5}$/.test(values.timeout) ? Number(values.timeout) : Number.NaN;
      if (!(timeoutSeconds >= 1 && timeoutSeconds <= 86_400)) {
        throw new UsageError({ message: '--timeout: expected whole seconds from 1 to 86400' });
      }
    }
    return {
      command: 'summarize',
      settings: {
        file: positionals[0]!,
        summarizer: values.summarizer,
        modelPath: nonEmpty(values['model-path'], '--model-path'),
        target: optionalTokens(values.target, '--target'),
        detail:
          oneOf(values.detail, '--detail', ['brief', 'concise', 'detailed'] as const) ?? 'concise',
        preserve: (values.preserve ?? []).filter((topic) => topic.trim() !== ''),
        timeoutSeconds,
        json: values.json ?? false,
      },
    };
  }

  if (first === 'recall') {
    const { values, positionals } = parse(rest, {
      json: { type: 'boolean' },
      limit: { type: 'string', short: 'n' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) return { command: 'help', topic: 'recall' };
    if (positionals.length !== 3) {
      throw new UsageError({ message: 'recall: expected <dataDir> <session> <query>' });
    }
    let limit: number | undefined;
    if (values.limit !== undefined) {
      limit = /^\d{1,2}$/.test(values.limit) ? Number(values.limit) : Number.NaN;
      if (!(limit >= 1 && limit <= 50)) {
        throw new UsageError({ message: '--limit: expected a whole number from 1 to 50' });
      }
    }
    return {
      command: 'recall',
      settings: {
        dataDir: positionals[0]!,
        id: positionals[1]!,
        query: positionals[2]!,
        limit,
        json: values.json ?? false,
      },
    };
  }

  const { values, positionals } = parse(rest, {
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return { command: 'help', topic: first };
  if (first === 'sessions') {
    if (positionals.length !== 1) throw new UsageError({ message: 'sessions: expected <dataDir>' });
    return {
      command: 'sessions',
      settings: { dataDir: positionals[0]!, json: values.json ?? false },
    };
  }
  if (positionals.length !== 2) {
    throw new UsageError({ message: 'lineage: expected <dataDir> <id>' });
  }
  return {
    command: 'lineage',
    settings: { dataDir: positionals[0]!, id: positionals[1]!, json: values.json ?? false },
  };
}

const TOKEN_FLAGS = new Set(['--window', '--target', '--keep-last']);

/**
 * `--window -5` would otherwise read `-5` as an option and take two errors to explain: say once that
 * the number is negative. (`--window=-5` reaches `optionalTokens`, which says the same.)
 */
function refuseNegativeNumbers(args: readonly string[]): void {
  for (let index = 0; index < args.length - 1; index++) {
    const flag = args[index]!;
    if (TOKEN_FLAGS.has(flag) && /^-\d/.test(args[index + 1]!)) {
      throw new UsageError({
        message: tokensMessage(flag, flag === '--keep-last', 'a negative number'),
      });
    }
  }
}

function tokensMessage(flag: string, allowZero: boolean, got: string): string {
  return `${flag}: expected a ${allowZero ? 'non-negative' : 'positive'} number of tokens (e.g. 32000 or 32k); got ${got}`;
}

const TOP_LEVEL_OPTIONS: ReadonlySet<string> = new Set(['--help', '-h', '--version', '-v']);

/** Every spelling (`--name`, `-n`) of the options one command defines: the only names an error may echo. */
function definedOptionNames(options: OptionsConfig): ReadonlySet<string> {
  const names = new Set<string>();
  for (const [name, option] of Object.entries(options ?? {})) {
    names.add(`--${name}`);
    if (option.short !== undefined) names.add(`-${option.short}`);
  }
  return names;
}

type OptionsConfig = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

function parse<const T extends OptionsConfig>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's messages are long and suggest `--`; one short line is enough here.
    const message = (error as Error).message;
    const known = definedOptionNames(options);
    const unknown = /Unknown option '([^']+)'/.exec(message);
    if (unknown) {
      throw new UsageError({
        message: `unknown option ${optionName(unknown[1]!, known)}`,
        cause: error,
      });
    }
    const missing = /Option '([^']+)' argument missing/.exec(message);
    if (missing) {
      const name = missing[1]!.split(',').at(-1)!.trim().split(' ')[0]!;
      throw new UsageError({
        message: `option ${optionName(name, known)} needs a value`,
        cause: error,
      });
    }
    const ambiguous = /Option '([^']+)' argument is ambiguous/.exec(message);
    if (ambiguous) {
      const name = ambiguous[1]!.split(',').at(-1)!.trim();
      throw new UsageError({
        message: `option ${optionName(name, known)}: write a value starting with '-' as ${optionName(name, known).slice(1, -1)}=<value>`,
        cause: error,
      });
    }
    throw new UsageError({ message: safeErrorText(message.split('\n')[0]!), cause: error });
  }
}

function inputSettings(values: { format?: string; 'full-history'?: boolean }): InputSettings {
  return {
    format: oneOf(values.format, '--format', ['auto', ...TRANSCRIPT_FORMATS] as const) ?? 'auto',
    fullHistory: values['full-history'] ?? false,
  };
}

function nonEmpty(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError({ message: `${flag} must not be empty` });
  return value;
}

function oneOf<const T extends readonly string[]>(
  value: string | undefined,
  flag: string,
  allowed: T,
): T[number] | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value)) {
    throw new UsageError({
      message: `${flag}: expected one of ${allowed.join(', ')}; got ${withheldValue(value)}`,
    });
  }
  return value;
}

/** A token count: digits with an optional `k` (thousands) or `m` (millions) suffix, e.g. `32k`. */
function optionalTokens(
  value: string | undefined,
  flag: string,
  allowZero = false,
): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(value.trim().replaceAll('_', ''));
  const multiplier =
    match?.[2]?.toLowerCase() === 'k' ? 1_000 : match?.[2]?.toLowerCase() === 'm' ? 1_000_000 : 1;
  const tokens = match ? Math.round(Number(match[1]) * multiplier) : Number.NaN;
  if (!Number.isSafeInteger(tokens) || tokens < (allowZero ? 0 : 1)) {
    const got = /^\s*-\d/.test(value)
      ? 'a negative number'
      : /^\s*0+(?:\.0*)?\s*$/.test(value)
        ? 'zero'
        : withheldValue(value);
    throw new UsageError({ message: tokensMessage(flag, allowZero, got) });
  }
  return tokens;
}
