import path from 'node:path';

export interface DemoConfig {
  port: number;
  host: string;
  /** Where the lineage store (PGlite) and the conversation file live. */
  dataDirectory: string;
  /** Context window the compaction works against; deliberately small so compaction shows early. */
  contextWindow: number;
  /** Tokens reserved for each reply. */
  maxOutputTokens: number;
  /** Most model steps (tool calls + final answer) per user turn. */
  maxSteps: number;
  /** Offline agent pacing (ms before each step). */
  stepDelayMs: number;
  /** Largest request body accepted (bytes); larger ones get 413, checked while the body arrives. */
  maxBodyBytes: number;
  /** Host names besides the loopback ones that requests may address (DNS-rebinding guard). */
  allowedHosts: string[];
}

type Environment = Record<string, string | undefined>;

function integer(environment: Environment, name: string, fallback: number): number {
  const raw = environment[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return value;
}

/** Reads the demo's settings from the environment; every one has a default. */
export function readDemoConfig(environment: Environment, appDirectory: string): DemoConfig {
  const offline =
    !environment['OPENAI_COMPATIBLE_BASE_URL'] &&
    !environment['OPENAI_API_KEY'] &&
    !environment['ANTHROPIC_API_KEY'];
  return {
    port: integer(environment, 'PORT', 5173),
    host: environment['HOST'] || '127.0.0.1',
    dataDirectory: path.resolve(appDirectory, environment['DEMO_DATA_DIR'] || '.data'),
    contextWindow: integer(environment, 'DEMO_CONTEXT_WINDOW', offline ? 8_000 : 16_000),
    maxOutputTokens: integer(environment, 'DEMO_MAX_OUTPUT_TOKENS', offline ? 600 : 2_000),
    maxSteps: integer(environment, 'DEMO_MAX_STEPS', 16),
    stepDelayMs: integer(environment, 'DEMO_STEP_DELAY_MS', 250),
    maxBodyBytes: integer(environment, 'DEMO_MAX_BODY_BYTES', 1_048_576),
    allowedHosts: (environment['DEMO_ALLOWED_HOSTS'] ?? '')
      .split(',')
      .map((host) => host.trim())
      .filter((host) => host !== ''),
  };
}
