import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { redactSecrets } from '@baton/fallback';
import type { UIMessage } from 'ai';
import type { DemoCompaction, MeterReading, ModelView } from '../shared/demo-types.js';

/** What the demo keeps of a conversation besides the lineage store: the chat as the page shows it. */
export interface ConversationRecord {
  version: 1;
  rootSessionId: string;
  messages: UIMessage[];
  compactions: DemoCompaction[];
  /** Meter readings of the latest model calls, oldest first. */
  meterHistory: MeterReading[];
  workspaceDirectory: string | undefined;
  serverStarts: number;
  /**
   * File parts (`<message id>#<part index>`) that could not be fetched: the chat keeps them, the
   * model gets a note in their place, so one broken attachment fails its own turn only.
   */
  unavailableFileParts?: string[];
  /** The prompt of the latest model call (already redacted). */
  modelView?: ModelView;
}

const FILE_NAME = 'conversation.json';

export function newConversation(): ConversationRecord {
  return {
    version: 1,
    rootSessionId: randomUUID(),
    messages: [],
    compactions: [],
    meterHistory: [],
    workspaceDirectory: undefined,
    serverStarts: 0,
    unavailableFileParts: [],
  };
}

export async function loadConversation(dataDirectory: string): Promise<ConversationRecord> {
  try {
    const parsed = JSON.parse(
      await readFile(path.join(dataDirectory, FILE_NAME), 'utf8'),
    ) as ConversationRecord;
    if (parsed.version === 1 && typeof parsed.rootSessionId === 'string') {
      return { ...parsed, meterHistory: parsed.meterHistory ?? [] };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return newConversation();
}

// Protocol fields, never free text: rewriting them would break rendering or tool-call pairing.
const protocolFields = new Set([
  'id',
  'type',
  'role',
  'state',
  'toolCallId',
  'toolName',
  'mediaType',
  'rootSessionId',
  'parentSessionId',
  'childSessionId',
  'workspaceDirectory',
  'providerMetadata',
  'callProviderMetadata',
  'resultProviderMetadata',
]);

function redactValue(value: unknown, key: string | undefined): unknown {
  if (typeof value === 'string') {
    if (key === undefined) return redactSecrets(value).text;
    // Seen as `key: value`, a short password under a key that names a secret is caught too.
    const prefix = `${key}: `;
    const keyed = redactSecrets(`${prefix}${value}`).text;
    return keyed.startsWith(prefix) ? keyed.slice(prefix.length) : '[REDACTED:secret]';
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, undefined));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([field, inner]) => [
      field,
      protocolFields.has(field) ? inner : redactValue(inner, field),
    ]),
  );
}

/**
 * The record with every secret in the chat, tool inputs and outputs, and compaction cards replaced
 * (`[REDACTED:<kind>]`, by `redactSecrets` from `@baton/fallback`): what goes to disk and what the
 * page gets back when it reloads. Ids, part types, states and tool names are kept, so the chat still
 * renders and tool calls still pair up.
 */
export function redactConversation(record: ConversationRecord): ConversationRecord {
  return {
    ...record,
    messages: redactValue(record.messages, undefined) as UIMessage[],
    compactions: redactValue(record.compactions, undefined) as DemoCompaction[],
  };
}

/** Writes through a temporary file and a rename, so a crash never leaves half a file. */
export async function saveConversation(
  dataDirectory: string,
  record: ConversationRecord,
): Promise<void> {
  await mkdir(dataDirectory, { recursive: true });
  const target = path.join(dataDirectory, FILE_NAME);
  const temporary = `${target}.${process.pid}.tmp`;
  // Secrets typed in the chat or read by a tool never reach the disk in the clear.
  await writeFile(temporary, JSON.stringify(redactConversation(record)));
  await rename(temporary, target);
}
