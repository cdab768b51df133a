import { fetchModel } from '../../scripts/fetch-model.mjs';
import { resolveModelPath } from '../resolve-model-path.js';

/**
 * The model file for real-model suites: the cached one, else fetched now (as CI's step does). The
 * suite may skip only when the model cannot be fetched here (no pip, registry unreachable); any other
 * fetch failure (a checksum mismatch) fails the suite.
 */
export async function realModel(): Promise<{
  modelPath: string | undefined;
  skipReason: string | undefined;
}> {
  try {
    return { modelPath: resolveModelPath(), skipReason: undefined };
  } catch {
    // Not cached yet: fetch below.
  }
  try {
    return { modelPath: await fetchModel(), skipReason: undefined };
  } catch (error) {
    const record = error as { kind?: string; message?: string };
    if (record.kind !== 'unavailable') throw error;
    const skipReason = `local model cannot be fetched (${record.message}): real-model tests skipped`;
    console.warn(`[baton] ${skipReason}`);
    return { modelPath: undefined, skipReason };
  }
}
