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
      <div className="muted small" data-testid="meter-basis">
        prompt of the latest model call
        {reading?.toolDefinitionTokens
          ? `, incl. ${formatNumber(reading.toolDefinitionTokens)} tokens of tool definitions`
          : ''}
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
          <span className="saved" data-testid="meter-saved">
            latest call: {formatNumber(reading?.tokensRequested ?? 0)} without compaction,{' '}
            {formatNumber(compactedAway)} compacted away
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
  // Pixel units (the SVG scales as a whole), so labels and lines keep their proportions.
  const width = 360;
  const height = 170;
  const left = 44;
  const right = 8;
  const top = 10;
  const bottom = 24;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  // The scale follows the window, not the uncompacted prompt: that one keeps climbing, and scaling
  // to it would squash the window, the threshold and the sent line against the axis.
  const highest = Math.max(...history.map((reading) => reading.tokensRequested));
  const scaleTop = Math.max(window * 1.25, ...history.map((reading) => reading.tokensSent * 1.05));
  const offScale = highest > scaleTop;
  const x = (index: number) => left + (index / Math.max(1, history.length - 1)) * plotWidth;
  const y = (tokens: number) =>
    top + plotHeight - (Math.min(tokens, scaleTop) / scaleTop) * plotHeight;
  const line = (pick: (reading: MeterReading) => number) =>
    history
      .map((reading, index) => `${x(index).toFixed(1)},${y(pick(reading)).toFixed(1)}`)
      .join(' ');
  const ticks = [0];
  const callTicks = [0, Math.floor((history.length - 1) / 2), history.length - 1].filter(
    (tick, index, all) => all.indexOf(tick) === index,
  );
  return (
    <figure className="meter-chart" data-testid="meter-chart" data-scale-top={Math.round(scaleTop)}>
      <svg viewBox={`0 0 ${width} ${height}`} role="img">
        <title>Prompt tokens per model call</title>
        <rect className="chart-plot" x={left} y={top} width={plotWidth} height={plotHeight} />
        {ticks.map((tick) => (
          <g key={`y${tick}`} className="chart-tick">
            <line x1={left - 4} x2={left} y1={y(tick)} y2={y(tick)} />
            <text x={left - 6} y={y(tick) + 3} textAnchor="end">
              {formatTokens(tick)}
            </text>
          </g>
        ))}
        <line
          className="chart-window"
          data-testid="chart-window"
          x1={left}
          x2={left + plotWidth}
          y1={y(window)}
          y2={y(window)}
        />
        <text className="chart-label" x={left - 6} y={y(window) + 3} textAnchor="end">
          {formatTokens(window)}
        </text>
        <text className="chart-label" x={left + 4} y={y(window) - 3}>
          window
        </text>
        <line
          className="chart-threshold"
          data-testid="chart-threshold"
          x1={left}
          x2={left + plotWidth}
          y1={y(threshold)}
          y2={y(threshold)}
        />
        <text className="chart-label threshold" x={left - 6} y={y(threshold) + 3} textAnchor="end">
          {formatTokens(threshold)}
        </text>
        <text className="chart-label threshold" x={left + 4} y={y(threshold) + 10}>
          threshold
        </text>
        <line className="chart-axis" x1={left} x2={left} y1={top} y2={top + plotHeight} />
        <line
          className="chart-axis"
          x1={left}
          x2={left + plotWidth}
          y1={top + plotHeight}
          y2={top + plotHeight}
        />
        {callTicks.map((tick) => (
          <text
            key={`x${tick}`}
            className="chart-tick"
            x={x(tick)}
            y={height - 8}
            textAnchor={tick === 0 ? 'start' : tick === history.length - 1 ? 'end' : 'middle'}
          >
            {tick === history.length - 1 ? 'latest call' : `−${history.length - 1 - tick}`}
          </text>
        ))}
        <polyline className="chart-requested" points={line((reading) => reading.tokensRequested)} />
        <polyline className="chart-sent" points={line((reading) => reading.tokensSent)} />
        {offScale ? (
          <text className="chart-label" x={left + plotWidth - 2} y={top + 9} textAnchor="end">
            without compaction ↑ {formatTokens(highest)}
          </text>
        ) : null}
      </svg>
      <figcaption className="muted small">
        prompt tokens, last {history.length} model calls: <span className="key-sent">sent</span> vs{' '}
        <span className="key-requested">without compaction</span>
        {offScale ? ' (off scale above the top)' : ''}
      </figcaption>
    </figure>
  );
}

function formatTokens(tokens: number): string {
  return tokens >= 10_000 ? `${Math.round(tokens / 1000)}k` : formatNumber(Math.round(tokens));
}
