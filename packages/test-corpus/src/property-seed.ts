import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';

/**
 * The seed every property of a test run starts from: `BATON_PROPERTY_SEED` (an integer, or `random`
 * for fast-check's own fresh seed), else one derived from the checked-out commit.
 *
 * Why a commit seed: the run that checks a commit before it lands and the run that lands it must
 * draw the same values, or a rare draw can pass one and fail the other. Every new commit still
 * draws new values, and `BATON_PROPERTY_SEED=random pnpm test` explores fresh seeds on demand; a
 * failure prints its seed either way, so it can be replayed.
 */
export function propertySeed(): number | undefined {
  const chosen = process.env.BATON_PROPERTY_SEED?.trim();
  if (chosen === 'random') return undefined;
  if (chosen) {
    const seed = Number(chosen);
    if (!Number.isSafeInteger(seed)) {
      throw new Error(`BATON_PROPERTY_SEED must be an integer or "random", got "${chosen}"`);
    }
    return seed | 0;
  }
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: dirname(fileURLToPath(import.meta.url)),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return /^[0-9a-f]{8}/.test(commit) ? Number.parseInt(commit.slice(0, 8), 16) | 0 : undefined;
  } catch {
    // Not a git checkout (an unpacked tarball): fresh seeds, as fast-check does by default.
    return undefined;
  }
}

const seed = propertySeed();
if (seed !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
