import type { DemoCompaction } from '../shared/demo-types.js';
import { formatNumber, shortId } from './format.js';

interface CompactionCardProps {
  compaction: DemoCompaction;
  index: number;
}

/** One compaction: what it saved, how it was done, and the summary or receipt the model now sees. */
export function CompactionCard({ compaction, index }: CompactionCardProps) {
  const { event } = compaction;
  const saved = event.tokensBefore - event.tokensAfter;
  const ratio = event.tokensBefore > 0 ? Math.round((saved / event.tokensBefore) * 100) : 0;
  return (
    <article
      className="card compaction"
      data-testid="compaction-card"
      data-strategy={event.strategy}
    >
      <header>
        <span className="badge">#{index + 1}</span>
        <strong>Compaction</strong>
        <span className="muted">turn {compaction.turn}</span>
      </header>
      <div className="tokens" data-testid="compaction-tokens">
        {formatNumber(event.tokensBefore)} → {formatNumber(event.tokensAfter)} tokens
        <span className="saved"> −{ratio}%</span>
      </div>
      <div className="muted small" data-testid="compaction-basis">
        prompt of the call that compacted, counted as the meter counts it
        {compaction.prompt?.toolDefinitionTokens
          ? ` (incl. ${formatNumber(compaction.prompt.toolDefinitionTokens)} tokens of tool definitions)`
          : ''}
        ; the meter shows the latest call
      </div>
      <dl>
        <dt>strategy</dt>
        <dd data-testid="compaction-strategy">
          {event.strategy}
          {event.stages && event.stages.length > 1 ? ` (${event.stages.join(' → ')})` : ''}
        </dd>
        <dt>fallback</dt>
        <dd data-testid="compaction-fallback">
          {event.usedFallback
            ? `yes: ${event.fallbackReason ?? 'no reason given'}`
            : event.strategy === 'receipt'
              ? 'none needed (the receipt was the chosen strategy)'
              : 'no'}
        </dd>
        <dt>removed</dt>
        <dd>
          {event.removedMessageIndexes?.length ?? 0} messages
          {event.maskedMessageIndexes?.length
            ? `, ${event.maskedMessageIndexes.length} masked`
            : ''}
        </dd>
        {event.summarizerModel ? (
          <>
            <dt>summariser</dt>
            <dd>
              {event.summarizerModel} ({event.summarizerAttempts} call
              {event.summarizerAttempts === 1 ? '' : 's'})
            </dd>
          </>
        ) : null}
        <dt>took</dt>
        <dd>{Math.round(event.durationMs)} ms</dd>
        {compaction.childSessionId ? (
          <>
            <dt>session</dt>
            <dd>
              {compaction.parentSessionId ? `${shortId(compaction.parentSessionId)} → ` : ''}
              {shortId(compaction.childSessionId)}
            </dd>
          </>
        ) : null}
      </dl>
      {event.summary ? (
        <details>
          <summary>
            {event.strategy === 'receipt' || event.usedFallback ? 'Receipt' : 'Summary'} the model
            now sees
          </summary>
          <pre data-testid="compaction-summary">{event.summary}</pre>
        </details>
      ) : null}
    </article>
  );
}
