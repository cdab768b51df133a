import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { redactMessages } from '@baton/fallback';
import type { ModelMessage, UIMessage } from 'ai';
import type { DemoCompaction, MeterReading } from '../shared/demo-types.js';

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

/**
 * The record with every secret in the chat, tool inputs and outputs, and compaction cards replaced
 * (`[REDACTED:<kind>]`): what goes to disk and what the page gets back when it reloads. Ids, tool
 * names and part types are kept, so the chat still renders and tool calls still pair up.
 */
export function redactConversation(record: ConversationRecord): ConversationRecord {
  // `redactMessages` walks any message-shaped object; UI messages and cards are plain JSON like model
  // messages, and it leaves `type`, `role` and tool ids alone.
  const messages = redactMessages(record.messages as unknown as ModelMessage[])
    .messages as unknown as UIMessage[];
  const [cards] = redactMessages([
    { role: 'user', content: record.compactions } as unknown as ModelMessage,
  ]).messages as unknown as [{ content: DemoCompaction[] }];
  return { ...record, messages, compactions: cards.content };
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
