import { constants, type Stats } from 'node:fs';
import { type FileHandle, open, readFile, stat } from 'node:fs/promises';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { fromOpenAIChat, validateMessages, valueNestingDepth } from '@baton/compressor';
import { InvalidInputError } from '@baton/tokens';
import { type FromClaudeCodeOptions, fromClaudeCode } from './from-claude-code.js';
import { CODEX_LINE_TYPES, fromCodexCli, looksLikeCodexCli } from './from-codex-cli.js';
import { fromGeminiCli, GEMINI_MESSAGE_TYPES, looksLikeGeminiCli } from './from-gemini-cli.js';
import { InputFileError } from './input-file-error.js';

/** Transcript formats Baton reads. */
export type TranscriptFormat =
  | 'ai-sdk'
  | 'openai-chat'
  | 'claude-code'
  | 'codex-cli'
  | 'gemini-cli';

export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = [
  'ai-sdk',
  'openai-chat',
  'claude-code',
  'codex-cli',
  'gemini-cli',
];

export interface ParseTranscriptOptions {
  /** Name used in error messages. Default: `'<input>'`. */
  file?: string;
  /** Force a format instead of detecting it. Default: `'auto'`. */
  format?: TranscriptFormat | 'auto';
  /** Options for Claude Code JSONL (see `fromClaudeCode`). */
  claudeCode?: FromClaudeCodeOptions;
}

export type ReadTranscriptOptions = Omit<ParseTranscriptOptions, 'file'>;

/** A transcript read into AI SDK messages. */
export interface Transcript {
  file: string;
  format: TranscriptFormat;
  messages: ModelMessage[];
  /** Non-fatal oddities met while converting, one line each. */
  warnings: string[];
  /** Claude Code compactions recorded in the file (0 for other formats). */
  compactions: number;
}

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const CLAUDE_CODE_LINE_TYPES = new Set([
  'user',
  'assistant',
  'system',
  'summary',
  'progress',
  'file-history-snapshot',
  'queue-operation',
]);

/**
 * Reads a transcript file: AI SDK `ModelMessage[]` JSON, OpenAI Chat Completions JSON (an array of
 * messages or `{ messages: [...] }`), or Claude Code session JSONL. Throws `InputFileError` (its
 * message names the file and the problem) when the file cannot be read, is not JSON, or is in no
 * known format.
 */
export async function readTranscript(
  file: string,
  options: ReadTranscriptOptions = {},
): Promise<Transcript> {
  return parseTranscript(await readInputText(file), { ...options, file });
}

/** Largest input read: a string cannot hold much more, and a transcript this big is a mistake. */
const MAX_INPUT_BYTES = 256 * 1024 * 1024;
/** How long a pipe may stay without a writer before `baton` gives up on it. */
const PIPE_WAIT_MS = 5_000;

/**
 * The text of `file`: `-` is stdin; a FIFO is read without ever blocking on a writer that does
 * not come; devices, sockets and files over 256 MiB are refused. Throws `InputFileError`.
 */
export async function readInputText(file: string): Promise<string> {
  const fail = (reason: string, cause?: unknown): never => {
    throw new InputFileError({ file, message: `cannot read file: ${reason}`, cause });
  };
  if (file === '-') return decode(await readStream(process.stdin, file), file);
  let info: Stats;
  try {
    info = await stat(file);
  } catch (error) {
    return fail(errnoReason(error), error);
  }
  if (info.isDirectory()) fail('is a directory, not a file');
  if (info.isFIFO()) return decode(await readPipe(file), file);
  if (!info.isFile()) fail('not a regular file or a pipe');
  if (info.size > MAX_INPUT_BYTES) fail(`larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`);
  try {
    return decode(await readFile(file), file);
  } catch (error) {
    return fail(errnoReason(error), error);
  }
}

function errnoReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT'
    ? 'no such file'
    : code === 'EISDIR'
      ? 'is a directory, not a file'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'ENOTDIR'
          ? 'a part of the path is not a folder'
          : `error ${code ?? 'unknown'}`;
}

function decode(bytes: Buffer, file: string): string {
  if (bytes.length > MAX_INPUT_BYTES) {
    throw new InputFileError({
      file,
      message: `cannot read file: larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`,
    });
  }
  return bytes.toString('utf8');
}

async function readStream(stream: NodeJS.ReadableStream, file: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buffer.length;
    if (size > MAX_INPUT_BYTES) return decodeTooLarge(file);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function decodeTooLarge(file: string): never {
  throw new InputFileError({
    file,
    message: `cannot read file: larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`,
  });
}

/**
 * Reads a FIFO opened non-blocking: a blocking open would wait forever for a writer (and keep the
 * process alive). Reads return EAGAIN while a writer is connected and silent, and 0 both at the end
 * and before any writer came: nothing read yet and no writer for `PIPE_WAIT_MS` is an error.
 */
async function readPipe(file: string): Promise<Buffer> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new InputFileError({
      file,
      message: `cannot read file: ${errnoReason(error)}`,
      cause: error,
    });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let waitingSince = Date.now();
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buffer, 0, buffer.length, null));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        waitingSince = Date.now();
        await delay(10);
        continue;
      }
      if (bytesRead > 0) {
        size += bytesRead;
        if (size > MAX_INPUT_BYTES) decodeTooLarge(file);
        chunks.push(buffer.subarray(0, bytesRead));
        continue;
      }
      if (size > 0) break;
      if (Date.now() - waitingSince > PIPE_WAIT_MS) {
        throw new InputFileError({
          file,
          message: `nothing arrived on the pipe within ${PIPE_WAIT_MS / 1000} s`,
        });
      }
      await delay(20);
    }
  } finally {
    await handle.close();
  }
  return Buffer.concat(chunks);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Deepest nesting of arrays and objects a transcript may hold. Counting and compaction serialise
 * values with recursive steps (`JSON.stringify`) that run out of stack a few thousand levels down;
 * no real transcript comes near this.
 */
const MAX_NESTING_DEPTH = 1_000;

/** `readTranscript` on text already in memory. */
export function parseTranscript(text: string, options: ParseTranscriptOptions = {}): Transcript {
  const transcript = parseUnchecked(text, options);
  // Measured on the messages, not the text: readers parse tool calls' `arguments` strings, where
  // nesting hides from a scan of the file.
  if (valueNestingDepth(transcript.messages, MAX_NESTING_DEPTH) > MAX_NESTING_DEPTH) {
    throw new InputFileError({
      file: transcript.file,
      message: `values nested deeper than ${MAX_NESTING_DEPTH.toLocaleString('en-US')} levels (Baton's limit)`,
    });
  }
  return transcript;
}

function parseUnchecked(text: string, options: ParseTranscriptOptions): Transcript {
  const file = options.file ?? '<input>';
  const format = options.format ?? 'auto';
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // JSON and JSONL never hold a raw NUL; a file that does is binary (an archive, an image, a database).
  if (source.includes('\u0000')) {
    throw new InputFileError({
      file,
      message: 'binary file, not a transcript (it holds NUL bytes)',
    });
  }
  try {
    if (format === 'claude-code' || (format === 'auto' && looksLikeClaudeCode(source))) {
      const result = fromClaudeCode(source, options.claudeCode);
      if (result.messages.length === 0) refuseForeignLines(source, file, 'claude-code');
      return { file, format: 'claude-code', ...result };
    }
    if (format === 'codex-cli' || (format === 'auto' && looksLikeCodexCli(firstJsonLine(source)))) {
      const result = fromCodexCli(source, file);
      if (result.messages.length === 0) refuseForeignLines(source, file, 'codex-cli');
      return { file, format: 'codex-cli', ...result, compactions: 0 };
    }
    let json: unknown;
    try {
      json = JSON.parse(source);
    } catch (error) {
      if (source.trim() === '') throw new InputFileError({ file, message: 'empty file' });
      throw new InputFileError({
        file,
        message: `invalid JSON: ${(error as Error).message}`,
        cause: error,
      });
    }
    if (format === 'gemini-cli' || (format === 'auto' && looksLikeGeminiCli(json))) {
      if (!isObject(json) || !Array.isArray(json.messages)) {
        throw new InputFileError({
          file,
          message: 'not a Gemini CLI session: expected an object with `messages`',
        });
      }
      const result = fromGeminiCli({ messages: json.messages });
      // A session that holds entries, none of them Gemini CLI's, is another format forced as this.
      if (result.messages.length === 0 && json.messages.length > 0) {
        refuseForeignEntries(json.messages, file, 'gemini-cli');
      }
      return { file, format: 'gemini-cli', ...result, compactions: 0 };
    }
    const messages = isObject(json) && Array.isArray(json.messages) ? json.messages : json;
    if (!Array.isArray(messages)) {
      throw new InputFileError({
        file,
        message:
          'unknown format: expected a JSON array of messages, an object with `messages`, or Claude Code JSONL',
      });
    }
    const detected = format === 'auto' ? classifyMessages(messages, file) : format;
    if (detected === 'openai-chat') {
      return {
        file,
        format: detected,
        messages: fromOpenAIChat(messages),
        warnings: [],
        compactions: 0,
      };
    }
    validateMessages(messages);
    return { file, format: 'ai-sdk', messages, warnings: [], compactions: 0 };
  } catch (error) {
    if (InputFileError.isInstance(error)) throw error;
    if (InvalidInputError.isInstance(error)) {
      throw new InputFileError({ file, message: error.message, cause: error });
    }
    throw error;
  }
}

/**
 * What marks an entry as a format's own (a line of a JSONL session, an entry of Gemini CLI's
 * `messages`): its `type` is one of the format's, and for Codex rollouts it has a `payload` object.
 * `refusal` says what the input is not when no entry is the format's own.
 */
const OWN_ENTRIES = {
  'claude-code': {
    types: CLAUDE_CODE_LINE_TYPES,
    payload: false,
    refusal: `not a Claude Code session: no line has a Claude Code \`type\` (${[...CLAUDE_CODE_LINE_TYPES].join(', ')})`,
  },
  'codex-cli': {
    types: CODEX_LINE_TYPES,
    payload: true,
    refusal: `not a Codex CLI rollout: no line is a { type, payload } rollout line (${[...CODEX_LINE_TYPES].join(', ')})`,
  },
  'gemini-cli': {
    types: GEMINI_MESSAGE_TYPES,
    payload: false,
    refusal: `not a Gemini CLI session: no entry of \`messages\` has a Gemini CLI \`type\` (${[...GEMINI_MESSAGE_TYPES].join(', ')})`,
  },
} satisfies Record<string, { types: ReadonlySet<string>; payload: boolean; refusal: string }>;

/**
 * An input read as `format` gave no message: that is a session of the format that holds no
 * conversation yet (a Codex rollout of its `session_meta`, a Claude Code file of `summary` lines, a
 * Gemini CLI session of entries it skips), unless no entry is of the format at all: then the input
 * is something else that `--format` forced on this reader (an AI SDK array, a Codex rollout read as
 * Claude Code), which would read as an empty transcript, exit 0, and `compact --out` would write
 * `[]`. Refused as bad input. Scanned only when nothing was read, so real transcripts pay nothing.
 */
function refuseForeignEntries(
  entries: Iterable<unknown>,
  file: string,
  format: keyof typeof OWN_ENTRIES,
): void {
  const { types, payload, refusal } = OWN_ENTRIES[format];
  for (const entry of entries) {
    if (
      isObject(entry) &&
      typeof entry.type === 'string' &&
      types.has(entry.type) &&
      (!payload || isObject(entry.payload))
    ) {
      return;
    }
  }
  throw new InputFileError({ file, message: refusal });
}

/** `refuseForeignEntries` over the lines of a JSONL input; an empty one is refused as such. */
function refuseForeignLines(
  source: string,
  file: string,
  format: 'claude-code' | 'codex-cli',
): void {
  if (source.trim() === '') throw new InputFileError({ file, message: 'empty file' });
  refuseForeignEntries(jsonLines(source), file, format);
}

/** The lines of a JSONL text that parse as JSON objects (the readers report the others themselves). */
function* jsonLines(source: string): Generator<unknown> {
  for (const text of source.split('\n')) {
    const trimmed = text.trim();
    if (!trimmed.startsWith('{')) continue;
    let line: unknown;
    try {
      line = JSON.parse(trimmed);
    } catch {
      continue;
    }
    yield line;
  }
}

/** The first line parsed as JSON, or undefined. */
function firstJsonLine(text: string): unknown {
  const end = text.indexOf('\n');
  const line = text.slice(0, end === -1 ? undefined : end).trim();
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** JSONL whose first line is a Claude Code session line (a known `type` and one of its id fields). */
function looksLikeClaudeCode(text: string): boolean {
  const firstLine = text
    .slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'))
    .trim();
  if (!firstLine.startsWith('{')) return false;
  let line: unknown;
  try {
    line = JSON.parse(firstLine);
  } catch {
    return false;
  }
  return (
    isObject(line) &&
    typeof line.type === 'string' &&
    CLAUDE_CODE_LINE_TYPES.has(line.type) &&
    // Older sessions open with `{ type: 'summary', summary, leafUuid }` title lines.
    ['uuid', 'sessionId', 'message', 'messageId', 'leafUuid'].some((key) => key in line)
  );
}

const OPENAI_ONLY_PART_TYPES = new Set(['image_url', 'input_audio', 'refusal']);
const AI_SDK_ONLY_PART_TYPES = new Set([
  'tool-call',
  'tool-result',
  'reasoning',
  'image',
  'file',
  'tool-approval-request',
  'tool-approval-response',
]);

/**
 * OpenAI or AI SDK? Plain `{ role, content: string }` conversations are the same in both and read as
 * AI SDK; OpenAI-only fields (`tool_calls`, `tool_call_id`, `developer`, null content, `image_url`
 * parts) make it OpenAI.
 */
function classifyMessages(messages: readonly unknown[], file: string): TranscriptFormat {
  let openAI = false;
  let aiSdk = false;
  messages.forEach((message, index) => {
    if (!isObject(message) || typeof message.role !== 'string') {
      throw new InputFileError({
        file,
        message: `unknown format: messages[${index}] is not an object with a string \`role\``,
      });
    }
    if (
      'tool_calls' in message ||
      'tool_call_id' in message ||
      message.role === 'developer' ||
      message.content === null
    ) {
      openAI = true;
    }
    if (Array.isArray(message.content)) {
      for (const part of message.content) {
        if (!isObject(part)) continue;
        if (OPENAI_ONLY_PART_TYPES.has(String(part.type))) openAI = true;
        if (AI_SDK_ONLY_PART_TYPES.has(String(part.type))) aiSdk = true;
      }
    }
  });
  return openAI && !aiSdk ? 'openai-chat' : 'ai-sdk';
}
