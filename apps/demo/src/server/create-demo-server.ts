import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { type CompressionStrategy, jsonNestingDepth } from '@baton/compressor';
import { redactSecrets } from '@baton/fallback';
import { resolveModel } from '@baton/tokens';
import { serveStatic } from '@hono/node-server/serve-static';
import {
  convertToModelMessages,
  createUIMessageStream,
  createUIMessageStreamResponse,
  DownloadError,
  stepCountIs,
  streamText,
  type UIMessage,
  type UIMessageStreamWriter,
} from 'ai';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { DemoCompaction, DemoDataParts, DemoState } from '../shared/demo-types.js';
import { type CompactionLayer, createCompactionLayer } from './compaction-layer.js';
import {
  type ConversationRecord,
  loadConversation,
  newConversation,
  redactConversation,
  saveConversation,
} from './conversation-file.js';
import { createWorkspace, type Workspace } from './create-workspace.js';
import { describePrompt } from './describe-prompt.js';
import { FETCH_MODEL_HINT, findLocalSummarizer } from './local-summarizer.js';
import { describeError, logLine } from './log-line.js';
import { filePartKeys, withoutUnavailableFiles } from './model-view-messages.js';
import type { DemoConfig } from './read-demo-config.js';
import { requestGuard } from './request-guard.js';
import { type SelectedModel, selectModel } from './select-model.js';
import { createWorkspaceTools } from './workspace-tools.js';

type DemoMessage = UIMessage<unknown, DemoDataParts>;

export interface DemoServerOptions {
  config: DemoConfig;
  /** Environment the model is chosen from (API keys, base URLs). */
  environment: Record<string, string | undefined>;
  /** Built client (index.html and assets) to serve; omit when Vite serves it (dev). */
  clientDirectory?: string;
  /** Where diagnostics go, one redacted line per failure. Default `console.error`. */
  log?: (line: string) => void;
}

export interface DemoServer {
  app: Hono;
  model: SelectedModel;
  /** Window the compaction works against. */
  contextWindow: number;
  state(): Promise<DemoState>;
  close(): Promise<void>;
}

const INSTRUCTIONS = `You are a careful coding agent working in a small JavaScript project called "shelf".
Use the tools to read, search, edit and test the code; never guess file contents.
TODO.md lists the work: take the first unchecked item, do it, run the tests, tick it off with edit_file,
then reply with a short report of what you did and what the tests say. One item per user turn.`;

/** Model calls the meter's history keeps. */
const METER_HISTORY_LENGTH = 300;
/**
 * Deepest nesting of arrays and objects a `/api/chat` body may have. A user message is a few levels
 * deep (`message.parts[].providerMetadata…`); thousands of levels exhaust the stack of every later
 * `JSON.stringify` of the conversation.
 */
const MAX_BODY_NESTING = 64;

const STRATEGIES: readonly CompressionStrategy[] = [
  'auto',
  'truncate',
  'mask',
  'summarize',
  'receipt',
];

function readStrategy(
  value: string | undefined,
  fallback: CompressionStrategy,
): CompressionStrategy {
  if (value === undefined || value.trim() === '') return fallback;
  const strategy = STRATEGIES.find((candidate) => candidate === value.trim());
  if (!strategy)
    throw new Error(`DEMO_STRATEGY must be one of ${STRATEGIES.join(', ')}, got "${value}"`);
  return strategy;
}

function countUserTurns(messages: readonly UIMessage[]): number {
  return messages.filter((message) => message.role === 'user').length;
}

/** Builds the demo's HTTP app: the chat endpoint, the state endpoint, reset, and the built page. */
export async function createDemoServer(options: DemoServerOptions): Promise<DemoServer> {
  const { config } = options;
  const sink = options.log ?? ((line: string) => console.error(line));
  const log = (message: string) => sink(logLine(message));
  const selected = selectModel(options.environment, { stepDelayMs: config.stepDelayMs });
  // Offline, a local model (when one is on disk) writes the summaries; the scripted agent still
  // drives the conversation.
  const local = selected.description.offline
    ? await findLocalSummarizer(options.environment)
    : undefined;
  if (local?.found) {
    selected.summarizer = local.model;
    selected.description = {
      ...selected.description,
      summarizer: local.name,
      offlineSummarizer: 'local',
    };
  } else if (local) {
    selected.description = {
      ...selected.description,
      summarizerNote: `${local.reason}; for a real LLM summary offline, ${FETCH_MODEL_HINT}`,
    };
  }
  const strategy = readStrategy(
    options.environment['DEMO_STRATEGY'],
    local?.found ? 'summarize' : selected.description.offline ? 'receipt' : 'auto',
  );

  // 0 means the model's own window, as Baton knows it.
  const contextWindow =
    config.contextWindow > 0
      ? config.contextWindow
      : resolveModel(selected.model.modelId).contextWindow;

  const conversation: ConversationRecord = await loadConversation(config.dataDirectory);
  conversation.serverStarts += 1;
  let workspace: Workspace = await createWorkspace(
    conversation.workspaceDirectory && existsSync(conversation.workspaceDirectory)
      ? { directory: conversation.workspaceDirectory }
      : {},
  );
  conversation.workspaceDirectory = workspace.directory;

  let activeWriter: UIMessageStreamWriter<DemoMessage> | undefined;
  let busy = false;
  let saving = Promise.resolve();
  const save = () => {
    saving = saving
      .then(() => saveConversation(config.dataDirectory, conversation))
      .catch((error) => log(`Could not save the conversation: ${describeError(error)}`));
    return saving;
  };

  const layer: CompactionLayer = await createCompactionLayer({
    model: selected.model,
    summarizer: selected.summarizer,
    ...(local?.found ? { summarizerSettings: local.settings } : {}),
    strategy,
    contextWindow,
    offline: selected.description.offline,
    storeDirectory: path.join(config.dataDirectory, 'sessions'),
    getSessionId: () => conversation.rootSessionId,
    onMeter: (reading) => {
      conversation.meterHistory.push(reading);
      conversation.meterHistory.splice(0, conversation.meterHistory.length - METER_HISTORY_LENGTH);
      activeWriter?.write({ type: 'data-meter', data: reading, transient: true });
    },
    onPromptSent: (prompt) => {
      conversation.modelView = { messages: describePrompt(prompt), at: new Date().toISOString() };
    },
    onCompaction: ({ event, childSessionId, prompt }) => {
      const previous = conversation.compactions.at(-1);
      const compaction: DemoCompaction = {
        id: randomUUID(),
        event,
        // Each compaction ends the newest session: the previous compaction's child, or the root.
        parentSessionId: previous?.childSessionId ?? conversation.rootSessionId,
        childSessionId,
        turn: countUserTurns(conversation.messages),
        prompt,
      };
      conversation.compactions.push(compaction);
      void save();
      activeWriter?.write({ type: 'data-compaction', data: compaction, transient: true });
    },
  });
  for (const warning of layer.warnings) log(warning);
  await layer.ensureSession(conversation.rootSessionId, 'Baton demo conversation');
  await save();

  async function state(): Promise<DemoState> {
    const warnings = [...layer.warnings];
    let lineage: DemoState['lineage'] = [];
    let currentSessionId = conversation.rootSessionId;
    try {
      const result = await layer.lineage(conversation.rootSessionId);
      lineage = result.entries;
      currentSessionId = result.currentSessionId;
    } catch (error) {
      warnings.push(`Could not read the lineage: ${describeError(error)}`);
    }
    // The page reloads what is on disk: the redacted chat (only the live stream shows what was typed).
    const shown = redactConversation(conversation);
    return {
      model: selected.description,
      contextWindow,
      threshold: layer.threshold(config.maxOutputTokens),
      rootSessionId: conversation.rootSessionId,
      currentSessionId,
      lineage,
      compactions: shown.compactions,
      meter: conversation.meterHistory.at(-1),
      meterHistory: conversation.meterHistory,
      messages: shown.messages,
      modelView: conversation.modelView,
      warnings,
      workspace: workspace.directory,
      serverStarts: conversation.serverStarts,
      busy,
    };
  }

  const app = new Hono();
  // One line in the log and a JSON error for the client: never Hono's default stack trace.
  app.onError((error, context) => {
    log(`${context.req.method} ${context.req.path} failed: ${describeError(error)}`);
    return context.json({ error: describeError(error) }, 500);
  });
  // Before anything else: another web page (cross-site or DNS-rebound) gets nothing.
  app.use('*', requestGuard({ allowedHosts: config.allowedHosts, log }));
  // Counted as the body arrives (a chunked body is cut off at the limit, never buffered whole).
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: config.maxBodyBytes,
      onError: (context) => {
        log(
          `refused ${context.req.method} ${context.req.path}: body over ${config.maxBodyBytes} bytes`,
        );
        // Closing the connection spares reading (and discarding) the rest of the body.
        context.header('Connection', 'close');
        return context.json(
          { error: `request body over the limit of ${config.maxBodyBytes} bytes` },
          413,
        );
      },
    }),
  );

  app.get('/api/state', async (context) => context.json(await state()));

  app.post('/api/reset', async (context) => {
    if (busy) return context.json({ error: 'the agent is still working' }, 409);
    await workspace.remove();
    const fresh = newConversation();
    Object.assign(conversation, fresh, { serverStarts: conversation.serverStarts });
    workspace = await createWorkspace();
    conversation.workspaceDirectory = workspace.directory;
    await layer.ensureSession(conversation.rootSessionId, 'Baton demo conversation');
    await save();
    return context.json(await state());
  });

  app.post('/api/chat', async (context) => {
    if (busy) return context.json({ error: 'the agent is still working on the last message' }, 409);
    let body: { message?: DemoMessage } | null;
    try {
      const text = await context.req.text();
      // JSON.parse accepts any depth, but a message nested deeper than the call stack breaks every
      // later JSON.stringify (each save, each turn, /api/state): refused before it joins the chat.
      if (jsonNestingDepth(text, MAX_BODY_NESTING) > MAX_BODY_NESTING) {
        return context.json(
          { error: `request body nested deeper than ${MAX_BODY_NESTING} levels` },
          400,
        );
      }
      body = JSON.parse(text) as { message?: DemoMessage } | null;
    } catch (error) {
      const reason = describeError(error).replace(/\s+/g, ' ').slice(0, 200);
      return context.json({ error: `invalid JSON body: ${reason}` }, 400);
    }
    const message = typeof body === 'object' && body !== null ? body.message : undefined;
    if (
      message?.role !== 'user' ||
      typeof message.id !== 'string' ||
      !Array.isArray(message.parts) ||
      !message.parts.every(
        (part: unknown) =>
          typeof part === 'object' &&
          part !== null &&
          typeof (part as { type?: unknown }).type === 'string' &&
          ((part as { type: string }).type !== 'text' ||
            typeof (part as { text?: unknown }).text === 'string'),
      )
    ) {
      return context.json({ error: 'expected { message: UIMessage } with role "user"' }, 400);
    }
    // Checked again after the body was read: another request may have started a turn meanwhile, and
    // two turns at once interleave their streams and overwrite each other's messages.
    if (busy) return context.json({ error: 'the agent is still working on the last message' }, 409);
    // A message the conversation holds already is a client sending it again (a retry): the turn
    // runs on the history as it is. A different message under a used id was skipped the same way,
    // so its ask was lost while the turn ran (and continued the reply whose id it took): refused.
    const existing = conversation.messages.find((candidate) => candidate.id === message.id);
    if (
      existing !== undefined &&
      (existing.role !== message.role || !isDeepStrictEqual(existing.parts, message.parts))
    ) {
      return context.json({ error: 'message id already used by another message' }, 409);
    }
    busy = true;
    try {
      if (existing === undefined) conversation.messages.push(message);
      await save();
      const tools = createWorkspaceTools(workspace.directory);
      // A turn fails once (one log line, one error part) however many layers report it.
      let turnError: unknown;
      let stepsDone = 0;
      const failTurn = (error: unknown): string => {
        if (turnError === undefined) {
          turnError = error;
          log(`Chat turn failed: ${describeError(error)}`);
        }
        return describeError(error);
      };
      const stream = createUIMessageStream<DemoMessage>({
        originalMessages: conversation.messages as DemoMessage[],
        generateId: () => randomUUID(),
        execute: async ({ writer }) => {
          activeWriter = writer;
          const modelMessages = await convertToModelMessages(
            withoutUnavailableFiles(
              conversation.messages,
              new Set(conversation.unavailableFileParts ?? []),
            ),
            { tools, ignoreIncompleteToolCalls: true },
          );
          const result = streamText({
            model: layer.model,
            instructions: INSTRUCTIONS,
            messages: modelMessages,
            tools,
            maxOutputTokens: config.maxOutputTokens,
            stopWhen: stepCountIs(config.maxSteps),
            // The AI SDK's default prints the whole error, stack included, to the console.
            onError: ({ error }) => void failTurn(error),
            onStepEnd: () => {
              stepsDone++;
            },
          });
          // Show the page the real tool error (the AI SDK's default hides it behind a generic
          // message): the throw-away workspace has nothing to hide, and the error is what the
          // model reacted to. The middleware treats a reworded error result as the same call either way.
          // This formats tool errors as well as stream errors: stream errors are logged by `onError`
          // above, tool errors are part of the turn (the model reacts to them), not failures.
          writer.merge(
            result.toUIMessageStream({ onError: (error) => redactSecrets(String(error)).text }),
          );
        },
        onError: failTurn,
        onEnd: async ({ messages }) => {
          conversation.messages = messages;
          if (turnError !== undefined && stepsDone === 0) {
            // Failed before the model answered once: an attachment that cannot be fetched (or read)
            // must not be sent again, or every later turn fails the same way.
            const keys = DownloadError.isInstance(turnError)
              ? filePartKeys(messages, { url: turnError.url })
              : [];
            keys.push(...filePartKeys(messages, { messageId: message.id }));
            conversation.unavailableFileParts = [
              ...new Set([...(conversation.unavailableFileParts ?? []), ...keys]),
            ];
          }
          activeWriter = undefined;
          busy = false;
          await save();
        },
      });
      return createUIMessageStreamResponse({ stream });
    } catch (error) {
      busy = false;
      activeWriter = undefined;
      log(`Chat turn failed: ${describeError(error)}`);
      return context.json({ error: describeError(error) }, 500);
    }
  });

  const clientDirectory = options.clientDirectory;
  if (clientDirectory && existsSync(path.join(clientDirectory, 'index.html'))) {
    app.use('/*', serveStatic({ root: path.relative(process.cwd(), clientDirectory) || '.' }));
    const indexHtml = await readFile(path.join(clientDirectory, 'index.html'), 'utf8');
    app.get('*', (context) => context.html(indexHtml));
  }

  return {
    app,
    model: selected,
    contextWindow,
    state,
    async close() {
      await save();
      await layer.close();
      if (local?.found) await local.model.dispose();
    },
  };
}
