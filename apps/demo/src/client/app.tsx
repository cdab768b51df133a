import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type {
  DemoCompaction,
  DemoDataParts,
  DemoState,
  MeterReading,
} from '../shared/demo-types.js';
import { summarizerBanner } from '../shared/summarizer-banner.js';
import { ChatMessage } from './chat-message.js';
import { CompactionCard } from './compaction-card.js';
import { CompactionDivider } from './compaction-divider.js';
import { ContextMeter } from './context-meter.js';
import { LineageChain } from './lineage-chain.js';
import { ModelViewPanel } from './model-view-panel.js';

type DemoMessage = UIMessage<unknown, DemoDataParts>;

async function fetchState(): Promise<DemoState> {
  const response = await fetch('/api/state');
  if (!response.ok) throw new Error(`GET /api/state: ${response.status}`);
  return (await response.json()) as DemoState;
}

export function App() {
  const [state, setState] = useState<DemoState | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const refresh = useCallback(async () => {
    try {
      setState(await fetchState());
      setLoadError(undefined);
    } catch (error) {
      setLoadError(error instanceof Error ? error.message : String(error));
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  if (!state) {
    return (
      <div className="loading">
        {loadError ? `Could not reach the server: ${loadError}` : 'Loading…'}
      </div>
    );
  }
  // A new root session (after a reset) remounts the chat with the server's history.
  return <Demo key={state.rootSessionId} initial={state} refresh={refresh} />;
}

function Demo({ initial, refresh }: { initial: DemoState; refresh: () => Promise<void> }) {
  const [meterHistory, setMeterHistory] = useState<MeterReading[]>(initial.meterHistory);
  const [compactions, setCompactions] = useState<DemoCompaction[]>(initial.compactions);
  const [autoRun, setAutoRun] = useState(false);
  const [showModelView, setShowModelView] = useState(false);
  const [input, setInput] = useState('');
  const listEnd = useRef<HTMLDivElement>(null);

  useEffect(() => {
    setCompactions(initial.compactions);
    setMeterHistory(initial.meterHistory);
  }, [initial]);

  const transport = useMemo(
    () =>
      new DefaultChatTransport<DemoMessage>({
        api: '/api/chat',
        // The server keeps the history; send only the new message.
        prepareSendMessagesRequest: ({ messages, id }) => ({
          body: { id, message: messages[messages.length - 1] },
        }),
      }),
    [],
  );

  const { messages, sendMessage, status, error, stop } = useChat<DemoMessage>({
    id: initial.rootSessionId,
    messages: initial.messages as DemoMessage[],
    transport,
    onData: (part) => {
      if (part.type === 'data-meter')
        setMeterHistory((previous) => [...previous, part.data].slice(-300));
      if (part.type === 'data-compaction') {
        setCompactions((previous) =>
          previous.some((existing) => existing.id === part.data.id)
            ? previous
            : [...previous, part.data],
        );
        void refresh();
      }
    },
    onFinish: () => {
      void refresh();
    },
  });

  const working = status === 'submitted' || status === 'streaming';

  useEffect(() => {
    if (!autoRun || working || error) return;
    const timer = setTimeout(() => void sendMessage({ text: 'continue' }), 700);
    return () => clearTimeout(timer);
  }, [autoRun, working, error, sendMessage]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll down whenever the messages change
  useEffect(() => {
    listEnd.current?.scrollIntoView({ block: 'end' });
  }, [messages]);

  const reset = async () => {
    setAutoRun(false);
    const response = await fetch('/api/reset', { method: 'POST' });
    if (response.ok) await refresh();
  };

  // Each compaction's divider goes after the user message of the turn it happened in.
  const dividersAfter = new Map<string, { compaction: DemoCompaction; index: number }[]>();
  let userTurns = 0;
  for (const message of messages) {
    if (message.role !== 'user') continue;
    userTurns++;
    compactions.forEach((compaction, index) => {
      if (compaction.turn !== userTurns) return;
      dividersAfter.set(message.id, [
        ...(dividersAfter.get(message.id) ?? []),
        { compaction, index },
      ]);
    });
  }

  const submit = (text: string) => {
    if (working || text.trim() === '') return;
    void sendMessage({ text });
    setInput('');
  };

  return (
    <div className="layout">
      <header className="top">
        <div>
          <h1>Baton</h1>
          <span className="subtitle">context compaction, live</span>
        </div>
        <div className="model" data-testid="model-label">
          {initial.model.provider} · <code>{initial.model.modelId}</code> · window{' '}
          {initial.contextWindow.toLocaleString('en-US')}
        </div>
      </header>
      {initial.model.offline ? (
        <div className="banner" data-testid="offline-banner">
          <strong>No LLM configured.</strong> A scripted offline agent is playing a coding session
          with real tool calls (reading, searching, editing files and running tests in a throw-away
          project). <span data-testid="summarizer-banner">{summarizerBanner(initial.model)}</span>{' '}
          Set <code>OPENAI_API_KEY</code>, <code>ANTHROPIC_API_KEY</code> or{' '}
          <code>OPENAI_COMPATIBLE_BASE_URL</code> to use a real model.
        </div>
      ) : null}
      {initial.warnings.map((warning) => (
        <div className="banner warning" key={warning} data-testid="warning">
          {warning}
        </div>
      ))}
      <main className="columns">
        <section className="chat">
          <div className="chat-bar">
            <span className="muted small">
              {showModelView
                ? 'Full history (left) and what the model received at its latest call (right)'
                : 'Full history'}
            </span>
            <button
              type="button"
              className="secondary"
              aria-pressed={showModelView}
              onClick={() => setShowModelView((shown) => !shown)}
              data-testid="model-view-toggle"
            >
              {showModelView ? 'Hide model view' : 'What the model sees'}
            </button>
          </div>
          <div className={showModelView ? 'chat-panes split' : 'chat-panes'}>
            <div className="messages" data-testid="messages">
              {messages.length === 0 ? (
                <div className="empty">
                  Press <strong>Continue</strong> to let the agent start on the project's TODO list,
                  or turn on <strong>Auto-run</strong> and watch the context meter fill up and
                  compact.
                </div>
              ) : null}
              {messages.map((message) => (
                <Fragment key={message.id}>
                  <ChatMessage message={message} />
                  {(dividersAfter.get(message.id) ?? []).map(({ compaction, index }) => (
                    <CompactionDivider
                      key={compaction.id}
                      compaction={compaction}
                      index={index}
                      onView={() => setShowModelView(true)}
                    />
                  ))}
                </Fragment>
              ))}
              {error ? <div className="banner warning">Error: {error.message}</div> : null}
              <div ref={listEnd} />
            </div>
            {showModelView ? <ModelViewPanel view={initial.modelView} /> : null}
          </div>
          <form
            className="composer"
            onSubmit={(event) => {
              event.preventDefault();
              submit(input);
            }}
          >
            <input
              value={input}
              onChange={(event) => setInput(event.target.value)}
              placeholder={
                initial.model.offline
                  ? 'Say something (the scripted agent follows TODO.md)…'
                  : 'Message the agent…'
              }
              data-testid="chat-input"
            />
            <button type="submit" disabled={working || input.trim() === ''}>
              Send
            </button>
            <button
              type="button"
              onClick={() => submit('continue')}
              disabled={working}
              data-testid="continue-button"
            >
              Continue
            </button>
            <label className="toggle">
              <input
                type="checkbox"
                checked={autoRun}
                onChange={(event) => setAutoRun(event.target.checked)}
                data-testid="auto-run"
              />
              Auto-run
            </label>
            {working ? (
              <button type="button" onClick={() => void stop()}>
                Stop
              </button>
            ) : null}
          </form>
          <div className="status" data-testid="chat-status" data-status={status}>
            {working ? 'agent working…' : 'ready'}
          </div>
        </section>
        <aside className="side">
          <ContextMeter
            history={meterHistory}
            contextWindow={initial.contextWindow}
            threshold={initial.threshold}
          />
          <LineageChain
            entries={initial.lineage}
            currentSessionId={initial.currentSessionId}
            serverStarts={initial.serverStarts}
          />
          <section className="panel">
            <h2>
              Compactions <span className="muted">({compactions.length})</span>
            </h2>
            {compactions.length === 0 ? (
              <p className="muted small">
                None yet. They appear here when the prompt crosses the threshold.
              </p>
            ) : null}
            {[...compactions].reverse().map((compaction) => (
              <CompactionCard
                key={compaction.id}
                compaction={compaction}
                index={compactions.indexOf(compaction)}
              />
            ))}
          </section>
          <button type="button" className="reset" onClick={() => void reset()} disabled={working}>
            Reset conversation and workspace
          </button>
        </aside>
      </main>
    </div>
  );
}
