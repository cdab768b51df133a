import type { MeterReading } from '../shared/demo-types.js';
import { formatNumber, percent } from './format.js';

interface ContextMeterProps {
  /** Readings of the latest model calls, oldest first. */
  history: MeterReading[];
  contextWindow: number;
  threshold: number;
}

/** How full the context is at the latest model call, against the window and the compaction threshold. */
export function ContextMeter({ history, contextWindow, threshold }: ContextMeterProps) {
  const reading = history.at(-1);
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
      {history.length > 1 ? (
        <MeterChart history={history.slice(-80)} window={window} threshold={limit} />
      ) : null}
    </section>
  );
}

/**
 * Prompt size per model call: what was sent (solid) against what the application asked to send
 * (dashed), which is what the model would have received without compaction.
 */
function MeterChart({
  history,
  window,
  threshold,
}: {
  history: MeterReading[];
  window: number;
  threshold: number;
}) {
  const top = Math.max(window, ...history.map((reading) => reading.tokensRequested)) * 1.05;
  const width = 100;
  const height = 40;
  const x = (index: number) => (index / Math.max(1, history.length - 1)) * width;
  const y = (tokens: number) => height - (tokens / top) * height;
  const line = (pick: (reading: MeterReading) => number) =>
    history
      .map((reading, index) => `${x(index).toFixed(2)},${y(pick(reading)).toFixed(2)}`)
      .join(' ');
  return (
    <figure className="meter-chart" data-testid="meter-chart">
      <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" role="img">
        <title>Prompt tokens per model call</title>
        <line className="chart-window" x1={0} x2={width} y1={y(window)} y2={y(window)} />
        <line className="chart-threshold" x1={0} x2={width} y1={y(threshold)} y2={y(threshold)} />
        <polyline className="chart-requested" points={line((reading) => reading.tokensRequested)} />
        <polyline className="chart-sent" points={line((reading) => reading.tokensSent)} />
      </svg>
      <figcaption className="muted small">
        last {history.length} model calls: <span className="key-sent">sent</span> vs{' '}
        <span className="key-requested">without compaction</span>; window and threshold lines
      </figcaption>
    </figure>
  );
}
