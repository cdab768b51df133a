import { redactSecrets } from '@baton/fallback';
import { createTokenCounter } from '@baton/tokens';
import type { LanguageModel } from 'ai';
import type { CliIo } from './cli-io.js';
import { EXIT_CODES } from './exit-codes.js';
import { formatNumber } from './format-number.js';
import { InputFileError } from './input-file-error.js';
import { loadSummarizer } from './load-summarizer.js';
import type { SummarizeSettings } from './parse-cli-arguments.js';
import { printableText } from './printable-text.js';
import { readInputText } from './read-transcript.js';
import { safeErrorText } from './safe-error-text.js';
import { UsageError } from './usage-error.js';

/** Which summariser ran, as the output reports it. */
export interface ChosenSummarizer {
  /** `endpoint`: `--summarizer`; `local`: a GGUF model; `none`: the deterministic key lines. */
  kind: 'endpoint' | 'local' | 'none';
  /** `provider:model`, the local model's id, or `key lines`. */
  name: string;
  model: LanguageModel | undefined;
  /** Why no model was used (kind `none`): what to do to get one. */
  note?: string;
  dispose(): Promise<void>;
}

type LocalModelModule = typeof import('@baton/local-model');

/** Context of a local model: room for a chunk of `localChunkTokens`, the instructions and the reply. */
const localContextSize = 4096;
const localChunkTokens = 1_500;

async function importLocalModel(): Promise<LocalModelModule | undefined> {
  try {
    return await import('@baton/local-model');
  } catch {
    return undefined;
  }
}

/**
 * The summariser: `--summarizer provider:model` when given; else a local GGUF model (`--model-path`,
 * else the cache folder `baton-fetch-model` fills); else none (the deterministic key lines).
 * Throws `UsageError` when `@baton/local-model` is not installed or `--model-path` holds no model.
 */
export async function chooseSummarizer(
  settings: Pick<SummarizeSettings, 'summarizer' | 'modelPath'>,
  env: Record<string, string | undefined>,
): Promise<ChosenSummarizer> {
  const nothing = async () => {};
  const local = await importLocalModel();
  if (local === undefined) {
    // summarizeText (chunking, redaction, the key-lines fallback) lives there.
    throw new UsageError({
      message:
        'summarize needs the package @baton/local-model (npm install @baton/local-model; node-llama-cpp too for a local model)',
    });
  }
  if (settings.summarizer !== undefined) {
    const { model, name } = await loadSummarizer(settings.summarizer, env);
    return { kind: 'endpoint', name, model, dispose: nothing };
  }
  let modelPath: string;
  try {
    modelPath = local.resolveModelPath({
      modelPath: settings.modelPath,
      cacheDir: local.modelCacheDir(env as NodeJS.ProcessEnv),
    });
  } catch (error) {
    if (!local.ModelNotFoundError.isInstance(error)) throw error;
    if (settings.modelPath !== undefined) {
      throw new UsageError({ message: '--model-path: no model file there', cause: error });
    }
    return {
      kind: 'none',
      name: 'key lines',
      model: undefined,
      note: 'no local model found: run baton-fetch-model (from @baton/local-model), pass --model-path <file.gguf> or --summarizer provider:model',
      dispose: nothing,
    };
  }
  const model = local.createLocalModel({ modelPath, contextSize: localContextSize });
  return { kind: 'local', name: model.modelId, model, dispose: () => model.dispose() };
}

// C0 and C1 controls but the line break and the tab: from the file or from a model, an escape
// sequence would drive the terminal (set its title, write the clipboard) instead of being read.
const terminalControls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

function withoutTerminalControls(text: string): string {
  return text.replace(
    terminalControls,
    (character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/**
 * `baton summarize <file>`: summarises a long text (a log, a tool output, a document) with
 * `summarizeText` of `@baton/local-model`, falling back to its deterministic key lines. The summary
 * goes to stdout (redacted, terminal control characters shown as `\xNN`); what summarised it goes
 * to stderr, or into `--json`. A binary file (one holding NUL bytes) is refused with `InputFileError`.
 */
export async function summarizeCommand(settings: SummarizeSettings, io: CliIo): Promise<number> {
  const text = await readInputText(settings.file);
  // A text never holds a raw NUL; a file that does is binary (an archive, an image, a database).
  if (text.includes('\u0000')) {
    throw new InputFileError({
      file: settings.file,
      message: 'binary file, not a text (it holds NUL bytes)',
    });
  }
  const chosen = await chooseSummarizer(settings, io.env);
  const local = (await importLocalModel())!;
  const counter = createTokenCounter({ model: 'gpt-4o' });
  try {
    const summarizer: Parameters<LocalModelModule['summarizeText']>[1]['summarizer'] =
      chosen.model ??
      (async () => {
        throw new Error('no summariser configured');
      });
    const options = {
      summarizer,
      counter,
      targetTokens: settings.target ?? 500,
      detail: settings.detail,
      preserveTopics: settings.preserve,
      ...(chosen.kind === 'local' ? { chunkTokens: localChunkTokens } : {}),
      ...(settings.timeoutSeconds === undefined
        ? {}
        : { timeoutMs: settings.timeoutSeconds * 1_000 }),
    };
    const result = await local.summarizeText(text, options);
    // summarizeText redacts what it sends and returns; redacted again so that nothing a model
    // invented or echoed leaves in the clear.
    const summary = redactSecrets(result.text).text;
    const reason =
      result.fallbackReason === undefined
        ? undefined
        : redactSecrets(safeErrorText(result.fallbackReason)).text;
    const by =
      result.strategy === 'unchanged'
        ? 'unchanged (under the size worth summarising)'
        : result.strategy === 'summarize'
          ? `summarised by ${chosen.name}${chosen.kind === 'local' ? ' (local model)' : ''}`
          : `key lines (deterministic)${reason ? `: ${reason}` : ''}`;
    if (settings.json) {
      io.stdout.write(
        `${JSON.stringify({
          file: settings.file,
          summarizer: { kind: chosen.kind, name: chosen.name },
          strategy: result.strategy,
          ...(reason === undefined ? {} : { fallbackReason: reason }),
          ...(chosen.note === undefined ? {} : { note: chosen.note }),
          chunks: result.chunks,
          tokensBefore: result.tokensBefore,
          tokensAfter: result.tokensAfter,
          summary,
        }).replace(
          // JSON leaves DEL and the C1 controls raw; escaped, the document stays the same.
          /[\u007f-\u009f]/g,
          (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
        )}\n`,
      );
      return EXIT_CODES.ok;
    }
    io.stderr.write(
      `baton: ${printableText(by)}; ${formatNumber(result.tokensBefore)} -> ${formatNumber(result.tokensAfter)} tokens\n`,
    );
    if (chosen.note !== undefined && result.strategy !== 'unchanged') {
      io.stderr.write(`baton: ${chosen.note}\n`);
    }
    io.stdout.write(`${withoutTerminalControls(summary)}\n`);
    return EXIT_CODES.ok;
  } finally {
    counter.dispose();
    await chosen.dispose();
  }
}
