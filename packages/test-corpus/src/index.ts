import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The shared corpus folder (`BATON_CORPUS_DIR`, else `../shared/corpus` beside the checkout), or undefined. */
export function corpusDir(): string | undefined {
  const candidate = process.env.BATON_CORPUS_DIR ?? join(repositoryRoot, '..', 'shared', 'corpus');
  return existsSync(join(candidate, 'transcripts')) ? candidate : undefined;
}

/** Why corpus-backed tests are skipped, or undefined when the corpus is present. */
export const corpusSkipReason: string | undefined = corpusDir()
  ? undefined
  : `corpus not found at ${join(repositoryRoot, '..', 'shared', 'corpus')} (set BATON_CORPUS_DIR): corpus tests skipped`;

if (corpusSkipReason) console.warn(`[baton] ${corpusSkipReason}`);

export interface Transcript {
  /** File name without `.json`, e.g. `aider__2024-08-06_085514`. */
  name: string;
  /** AI SDK `ModelMessage[]` as recorded. */
  messages: Array<{ role: string; content: unknown; [key: string]: unknown }>;
}

/** Every transcript of `transcripts/dev`, sorted by name. Empty when the corpus is absent. */
export function loadTranscripts(): Transcript[] {
  const dir = corpusDir();
  if (!dir) return [];
  const folder = join(dir, 'transcripts', 'dev');
  return readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({
      name: file.slice(0, -'.json'.length),
      messages: JSON.parse(readFileSync(join(folder, file), 'utf8')),
    }));
}

export interface SecretFixture {
  source: string;
  rule: string;
  text: string;
  expect: 'secret' | 'not-secret';
  provenance: string;
  secret_spans?: string[];
  path_dependent?: boolean;
}

/** Rows of `secrets/dev.jsonl.gz`. Empty when the corpus is absent. */
export function loadSecretFixtures(): SecretFixture[] {
  const dir = corpusDir();
  if (!dir) return [];
  return gunzipSync(readFileSync(join(dir, 'secrets', 'dev.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SecretFixture);
}

/**
 * A deep copy of `value` with every `toolCallId` suffixed, so that copies of one transcript can be
 * concatenated into a longer history without two tool calls sharing an id.
 */
export function withToolCallIdSuffix<T>(value: T, suffix: string): T {
  if (Array.isArray(value)) return value.map((item) => withToolCallIdSuffix(item, suffix)) as T;
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      copy[key] =
        key === 'toolCallId' && typeof inner === 'string'
          ? `${inner}~${suffix}`
          : withToolCallIdSuffix(inner, suffix);
    }
    return copy as T;
  }
  return value;
}

/** Median of `values` (the mean of the two middle values for an even count); for benches. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** CPU milliseconds (user + system, whole process) spent by `run`; for linear-time checks. */
export function cpuMilliseconds(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
