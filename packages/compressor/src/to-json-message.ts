import { convertUint8ArrayToBase64, type ModelMessage } from '@ai-sdk/provider-utils';

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
  if (value instanceof Uint8Array) return convertUint8ArrayToBase64(value);
  if (value instanceof ArrayBuffer) return convertUint8ArrayToBase64(new Uint8Array(value));
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
