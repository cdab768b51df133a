import type { LineageEntry } from '../shared/demo-types.js';
import { shortId } from './format.js';

interface LineageChainProps {
  entries: LineageEntry[];
  currentSessionId: string;
  serverStarts: number;
}

/** Sessions from the root to the newest: each compaction ends one session and opens its child. */
export function LineageChain({ entries, currentSessionId, serverStarts }: LineageChainProps) {
  return (
    <section className="panel" data-testid="lineage-chain" data-length={entries.length}>
      <h2>Lineage</h2>
      <ol className="lineage">
        {entries.map((entry, index) => (
          <li
            key={entry.id}
            data-testid="lineage-entry"
            className={entry.id === currentSessionId ? 'current' : ''}
            title={entry.id}
          >
            <code>{shortId(entry.id)}</code>
            <span className="muted">
              {index === 0 ? 'root' : 'child'}
              {entry.endedAt ? ` · ended (${entry.endReason ?? 'ended'})` : ' · open'}
            </span>
          </li>
        ))}
      </ol>
      <p className="muted small">
        Server start #{serverStarts} on this data directory. Restart it: the chat and the lineage
        resume.
      </p>
    </section>
  );
}
