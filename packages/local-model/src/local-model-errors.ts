import { BatonError } from '@baton/tokens';

const notFoundMarker = Symbol.for('baton.error.local-model-not-found');
const runtimeMarker = Symbol.for('baton.error.local-runtime-unavailable');
const contextMarker = Symbol.for('baton.error.local-context-overflow');
const loadMarker = Symbol.for('baton.error.local-model-load-failed');

/**
 * No GGUF model at the explicit path, nor in the cache folder. Nothing is ever downloaded on the fly:
 * run `baton-fetch-model` (or pass `modelPath`) first.
 */
export class ModelNotFoundError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by isInstance through the Symbol.for key
  private readonly [notFoundMarker] = true;
  /** Paths looked at, in order. */
  readonly searched: readonly string[];

  constructor(options: { message: string; searched: readonly string[] }) {
    super({ code: 'model_not_found', message: options.message });
    this.name = 'ModelNotFoundError';
    this.searched = options.searched;
  }

  static override isInstance(error: unknown): error is ModelNotFoundError {
    return BatonError.hasMarker(error, notFoundMarker);
  }
}

/** The optional peer `node-llama-cpp` (or its prebuilt binary for this platform) cannot be loaded. */
export class LocalRuntimeUnavailableError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by isInstance through the Symbol.for key
  private readonly [runtimeMarker] = true;

  constructor(options: { message: string; cause?: unknown }) {
    super({ code: 'local_runtime_unavailable', message: options.message, cause: options.cause });
    this.name = 'LocalRuntimeUnavailableError';
  }

  static override isInstance(error: unknown): error is LocalRuntimeUnavailableError {
    return BatonError.hasMarker(error, runtimeMarker);
  }
}

/** A prompt that does not fit the model's context window (it is never silently cut). */
export class LocalContextOverflowError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by isInstance through the Symbol.for key
  private readonly [contextMarker] = true;
  readonly promptTokens: number;
  readonly contextSize: number;

  constructor(options: { promptTokens: number; contextSize: number }) {
    super({
      code: 'local_context_overflow',
      message: `prompt of ${options.promptTokens} tokens does not fit the local model's context of ${options.contextSize} tokens (one token must stay free to generate)`,
    });
    this.name = 'LocalContextOverflowError';
    this.promptTokens = options.promptTokens;
    this.contextSize = options.contextSize;
  }

  static override isInstance(error: unknown): error is LocalContextOverflowError {
    return BatonError.hasMarker(error, contextMarker);
  }
}

/**
 * The model file is there but cannot be loaded: not a GGUF model, truncated or corrupted. The
 * message names the file, never its bytes; the runtime's own error is the `cause`.
 */
export class ModelLoadError extends BatonError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by isInstance through the Symbol.for key
  private readonly [loadMarker] = true;
  /** The file that failed to load. */
  readonly modelPath: string;

  constructor(options: { modelPath: string; cause?: unknown }) {
    super({
      code: 'model_load_failed',
      message: `the model file ${options.modelPath} cannot be loaded (not a GGUF model, truncated or corrupted): run \`baton-fetch-model\` again or pass another modelPath`,
      cause: options.cause,
    });
    this.name = 'ModelLoadError';
    this.modelPath = options.modelPath;
  }

  static override isInstance(error: unknown): error is ModelLoadError {
    return BatonError.hasMarker(error, loadMarker);
  }
}
