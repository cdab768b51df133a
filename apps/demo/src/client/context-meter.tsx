import type { MeterReading } from '../shared/demo-types.js';
import { formatNumber, percent } from './format.js';

interface ContextMeterProps {
  reading: MeterReading | undefined;
  contextWindow: number;
  threshold: number;
}

/** How full the context is at the latest model call, against the window and the compaction threshold. */
export function ContextMeter({ reading, contextWindow, threshold }: ContextMeterProps) {
  const sent = reading?.tokensSent ?? 0;
  const window = reading?.contextWindow ?? contextWindow;
  const limit = reading?.threshold ?? threshold;
  const over = sent > limit;
  const compactedAway =
    reading && reading.tokensRequested > reading.tokensSent
      ? reading.tokensRequested - reading.tokensSent
      : 0;
  return (
    <section
      className="panel meter"
      data-testid="context-meter"
      data-tokens={sent}
      data-window={window}
      data-threshold={limit}
    >
      <h2>Context</h2>
      <div className="meter-figures">
        <strong data-testid="meter-tokens">{formatNumber(sent)}</strong>
        <span> / {formatNumber(window)} tokens</span>
        {reading && !reading.exact ? <span className="muted"> (estimated)</span> : null}
      </div>
      <div className="meter-track" title={`${sent} of ${window} tokens`}>
        <div
          className={over ? 'meter-fill over' : 'meter-fill'}
          style={{ width: `${percent(sent, window)}%` }}
        />
        <div
          className="meter-threshold"
          style={{ left: `${percent(limit, window)}%` }}
          title="compaction threshold"
        />
      </div>
      <div className="meter-legend">
        <span>
          threshold <strong>{formatNumber(limit)}</strong>
        </span>
        {compactedAway > 0 ? (
          <span className="saved">
            {formatNumber(reading?.tokensRequested ?? 0)} requested, {formatNumber(compactedAway)}{' '}
            compacted away
          </span>
        ) : (
          <span className="muted">{reading ? 'prompt sent as is' : 'no model call yet'}</span>
        )}
      </div>
    </section>
  );
}
