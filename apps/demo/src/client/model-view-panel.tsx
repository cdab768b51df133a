import { useEffect, useRef } from 'react';
import type { ModelView, ModelViewSection } from '../shared/demo-types.js';

const SECTION_LABELS: Record<ModelViewSection, string> = {
  head: 'head',
  handoff: 'handoff',
  tail: 'tail',
  uncompacted: 'as sent',
};

/** The prompt of the latest model call, message by message, marked head / handoff / tail. */
export function ModelViewPanel({ view }: { view: ModelView | undefined }) {
  const panel = useRef<HTMLDivElement>(null);
  const handoff = useRef<HTMLDivElement>(null);
  // Opens at the handoff, scrolling this panel only (scrollIntoView would move the page too).
  useEffect(() => {
    if (panel.current && handoff.current) {
      panel.current.scrollTop = handoff.current.offsetTop - 8;
    }
  }, []);
  if (!view) {
    return (
      <div className="model-view" data-testid="model-view">
        <p className="muted small">No model call yet.</p>
      </div>
    );
  }
  const counts = view.messages.reduce<Partial<Record<ModelViewSection, number>>>(
    (total, message) => {
      total[message.section] = (total[message.section] ?? 0) + 1;
      return total;
    },
    {},
  );
  return (
    <div className="model-view" data-testid="model-view" ref={panel}>
      <p className="model-view-intro small">
        What the model received at the latest call ({view.messages.length} messages
        {counts.handoff
          ? `: ${counts.head ?? 0} head, the handoff, ${counts.tail ?? 0} tail`
          : ', no handoff in it'}
        ). The chat keeps the full history.
      </p>
      {view.messages.map((message, index) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: the prompt is replaced whole, never reordered
          key={index}
          ref={message.section === 'handoff' ? handoff : undefined}
          className={`model-message section-${message.section}`}
          data-testid="model-view-message"
          data-section={message.section}
          data-role={message.role}
        >
          <div className="model-message-label">
            <span className={`section-tag section-${message.section}`}>
              {SECTION_LABELS[message.section]}
            </span>{' '}
            {message.role}
          </div>
          <pre>{message.text}</pre>
        </div>
      ))}
    </div>
  );
}
