import { Buffer } from 'node:buffer';
import type { ModelMessage } from '@ai-sdk/provider-utils';

// Node's own encoder: provider-utils' needs its `zod` peer at run time, which users may not install.
const base64 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/**
 * A copy of `message` holding only plain JSON, as the session store requires: bytes become base64
 * strings (which every file-data field also accepts), URLs become their `href`, `undefined` fields
 * are dropped. `toProviderPrompt` turns the strings back into `URL`s when the message is sent again.
 */
export function toJsonMessage(message: ModelMessage): ModelMessage {
  return toJson(message) as ModelMessage;
}

function toJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'number' && !Number.isFinite(value) ? null : value;
  }
  if (value instanceof Uint8Array) return base64(value);
  if (value instanceof ArrayBuffer) return base64(new Uint8Array(value));
  if (value instanceof URL) return value.href;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : toJson(item)));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    result[key] = toJson(item);
  }
  return result;
}
