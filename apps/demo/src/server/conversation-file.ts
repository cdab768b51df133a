import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { UIMessage } from 'ai';
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

/** Writes through a temporary file and a rename, so a crash never leaves half a file. */
export async function saveConversation(
  dataDirectory: string,
  record: ConversationRecord,
): Promise<void> {
  await mkdir(dataDirectory, { recursive: true });
  const target = path.join(dataDirectory, FILE_NAME);
  const temporary = `${target}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(record));
  await rename(temporary, target);
}
