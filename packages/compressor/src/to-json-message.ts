import type { ModelMessage } from 'ai';

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
  if (value instanceof Uint8Array) return toBase64(value);
  if (value instanceof ArrayBuffer) return toBase64(new Uint8Array(value));
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

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunked so String.fromCharCode never receives more arguments than the engine allows.
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}
