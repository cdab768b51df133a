import type { DemoCompaction } from '../shared/demo-types.js';
import { formatNumber } from './format.js';

interface CompactionDividerProps {
  compaction: DemoCompaction;
  index: number;
  /** Opens the model view at the handoff. */
  onView: () => void;
}

/** Marks the place in the chat where a compaction happened: the history above it was compacted. */
export function CompactionDivider({ compaction, index, onView }: CompactionDividerProps) {
  const { event } = compaction;
  const removed = event.removedMessageIndexes?.length ?? 0;
  const masked = event.maskedMessageIndexes?.length ?? 0;
  const what = event.summary
    ? `${formatNumber(removed)} earlier message${removed === 1 ? '' : 's'} compacted into a handoff`
    : masked > 0
      ? `${formatNumber(masked)} earlier tool output${masked === 1 ? '' : 's'} masked`
      : `${formatNumber(removed)} earlier message${removed === 1 ? '' : 's'} dropped`;
  return (
    <div className="compaction-divider" data-testid="compaction-divider" data-removed={removed}>
      <span className="divider-text">
        <span className="badge">#{index + 1}</span> {what} ·{' '}
        <button
          type="button"
          className="link"
          onClick={onView}
          data-testid="compaction-divider-view"
        >
          view
        </button>
      </span>
    </div>
  );
}
