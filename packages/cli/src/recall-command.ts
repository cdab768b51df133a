import { redactSecrets } from '@baton/fallback';
import { type RecallMatch, RecallQueryError, RecallRangeError } from '@baton/sessions';
import type { CliIo } from './cli-io.js';
import { findSession } from './lineage-command.js';
import { withStoreCopy } from './open-store-copy.js';
import type { RecallSettings } from './parse-cli-arguments.js';
import { printableText } from './printable-text.js';
import { shownFileName } from './shown-file-name.js';
import { UsageError } from './usage-error.js';

/**
 * `baton recall <dataDir> <session> <query>`: searches the raw history of the session's lineage (the
 * session, a full id or unique prefix, and its ancestors: what compactions removed) through
 * `store.recall`, and prints the best matches with their positions. Read through a copy of the store
 * (migrated in the copy when it predates recall), never changed. Excerpts are redacted on output.
 */
export async function recallCommand(settings: RecallSettings, io: CliIo): Promise<number> {
  const { dataDir } = settings;
  return withStoreCopy(dataDir, async (store) => {
    // The copy, not the store: a store made before recall gains its search column here only.
    await store.migrate();
    const session = await findSession(store, settings.id, dataDir);
    const { matches, searchedSessionIds, scanLimited, rankLimited } = await store
      // Redacted before the excerpts are cut: a credential at an excerpt's edge is hidden whole.
      .recall(session.id, { query: settings.query, limit: settings.limit, redact: redactSecrets })
      .catch((error: unknown) => {
        // Bad input, not a failure: exit 2. The messages never quote the query.
        if (RecallQueryError.isInstance(error) || RecallRangeError.isInstance(error)) {
          throw new UsageError({ message: `recall: ${error.message}` });
        }
        throw error;
      });
    if (settings.json) {
      io.stdout.write(
        `${JSON.stringify({ dataDir: shownFileName(dataDir), sessionId: session.id, searchedSessionIds, scanLimited, rankLimited, matches })}\n`,
      );
      return 0;
    }
    const lines = [
      `${matches.length} match${matches.length === 1 ? '' : 'es'} in the lineage of ${session.id} (${searchedSessionIds.length} session${searchedSessionIds.length === 1 ? '' : 's'} searched, best first)`,
    ];
    for (const [index, match] of matches.entries()) {
      lines.push(
        `${index + 1}. ${describeMatch(match)}`,
        `   ${printableText(match.excerpt, 600)}`,
      );
    }
    if (rankLimited) {
      lines.push(
        '(many messages match: only the most recent of them were ranked; add words or use an exact fragment)',
      );
    }
    if (scanLimited) {
      lines.push('(exact-text search covered only the most recent messages of the lineage)');
    }
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  });
}

function describeMatch(match: RecallMatch): string {
  return [
    `session ${match.sessionId}`,
    `sequence ${match.sequence}`,
    match.role,
    match.toolName ? `tool ${printableText(match.toolName, 80)}` : undefined,
    match.matchedBy === 'exact' ? 'exact match' : `text match (rank ${match.rank.toFixed(3)})`,
    `characters ${match.excerptStart}-${match.excerptEnd} of ${match.textLength}`,
  ]
    .filter((part) => part !== undefined)
    .join(', ');
}
