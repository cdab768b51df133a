import type { ModelMessage } from '@ai-sdk/provider-utils';
import { hashMessageContent } from './fingerprint-messages.js';
import { sameMessage } from './same-message.js';
import { sealHash } from './seal-hash.js';
import { toJsonMessage } from './to-json-message.js';

type Path = (string | number)[];

/**
 * How to rebuild, from the app's own message, a message Baton rewrote (a masked or clipped tool
 * output, a tool message with one result masked and one kept) that the store holds redacted. The
 * store must never hold the secret, yet a process that restarts must send what the compacting
 * process sent: the rewrite of the app's message, secrets included. The secrets are in the raw
 * history the caller passes in, so the recipe says where to take them from, never what they are:
 * per string that redaction changed, how many characters of the app's string at the same place it
 * starts and ends with, and Baton's text between (a substring of the stored form, so nothing the
 * store does not hold already).
 */
export interface RewriteRecipe {
  /** Index in the compacted history. */
  at: number;
  /** Raw index of the app message that was rewritten. */
  from: number;
  leaves: [path: Path, head: number, literal: string, tail: number][];
  /**
   * `hashMessageContent` of the rewrite as sent (JSON form), sealed by the record key (see
   * `sealHash`): a rebuild is used only when equal.
   */
  hash: string;
}

/**
 * Recipes for the compacted messages that are no app message (`verbatim` -1) and whose stored form
 * differs from what was sent. A rewrite keeps its place in the app's order, so its source is looked
 * for between the app messages kept around it, with the same role and tool call ids. Each recipe is
 * checked by rebuilding it. Linear: the search examines at most a few candidates per raw message
 * in all; past that budget a rewrite keeps its stored form (the safe answer).
 */
export function rewriteRecipes(
  compacted: readonly ModelMessage[],
  stored: readonly ModelMessage[],
  raw: readonly unknown[],
  verbatim: readonly number[],
  key: Uint8Array,
): RewriteRecipe[] {
  const recipes: RewriteRecipe[] = [];
  // By compacted index, the next verbatim raw index after it (the end of the search window).
  const ceilings = new Array<number>(compacted.length);
  let ceiling = raw.length;
  for (let at = compacted.length - 1; at >= 0; at--) {
    ceilings[at] = ceiling;
    const index = verbatim[at] ?? -1;
    if (index >= 0) ceiling = index;
  }
  let budget = 4 * raw.length + 16;
  let floor = -1;
  for (let at = 0; at < compacted.length; at++) {
    const index = verbatim[at] ?? -1;
    if (index >= 0) {
      floor = Math.max(floor, index);
      continue;
    }
    const kept = stored[at];
    const message = compacted[at];
    if (kept === undefined || message === undefined) continue;
    const sent = toJsonMessage(message);
    if (sameMessage(sent, kept)) continue;
    const leaves = changedLeaves(sent, kept);
    if (leaves === undefined) continue;
    const calls = callIds(sent);
    for (let from = floor + 1; from < (ceilings[at] ?? raw.length) && budget > 0; from++) {
      const source = raw[from] as ModelMessage | undefined;
      if (source?.role !== sent.role || callIds(source) !== calls) continue;
      budget--;
      const recipe = recipeFrom(at, from, leaves, toJsonMessage(source));
      if (recipe === undefined) continue;
      const rebuilt = rebuildRewrite({ ...recipe, hash: '' }, kept, source, false);
      if (rebuilt === undefined || !sameMessage(rebuilt, sent)) continue;
      recipes.push({ ...recipe, hash: sealHash(hashMessageContent(sent), key) });
      floor = from;
      break;
    }
  }
  return recipes;
}

/**
 * The rewrite the recipe describes, rebuilt from the stored form and the app's message, when it is
 * exactly what the compacting process sent (its content hash sealed by `key`), else undefined.
 * `false` skips that check: only while a recipe is being made.
 */
export function rebuildRewrite(
  recipe: RewriteRecipe,
  kept: ModelMessage,
  source: unknown,
  key: Uint8Array | false,
): ModelMessage | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const app = toJsonMessage(source as ModelMessage);
  const copy = structuredClone(kept) as unknown;
  for (const [path, head, literal, tail] of recipe.leaves) {
    const text = valueAt(app, path);
    if (typeof text !== 'string' || head + tail > text.length) return undefined;
    if (!assign(copy, path, text.slice(0, head) + literal + text.slice(text.length - tail))) {
      return undefined;
    }
  }
  const rebuilt = copy as ModelMessage;
  return key === false || sealHash(hashMessageContent(rebuilt), key) === recipe.hash
    ? rebuilt
    : undefined;
}

/** Whether a value read from the store has a recipe's shape (it is not trusted further). */
export function isRewriteRecipe(value: unknown): value is RewriteRecipe {
  if (typeof value !== 'object' || value === null) return false;
  const { at, from, leaves, hash } = value as Record<string, unknown>;
  return (
    Number.isInteger(at) &&
    Number.isInteger(from) &&
    typeof hash === 'string' &&
    Array.isArray(leaves) &&
    leaves.every(
      (leaf) =>
        Array.isArray(leaf) &&
        leaf.length === 4 &&
        Array.isArray(leaf[0]) &&
        leaf[0].every((key: unknown) => typeof key === 'string' || Number.isInteger(key)) &&
        Number.isInteger(leaf[1]) &&
        leaf[1] >= 0 &&
        typeof leaf[2] === 'string' &&
        Number.isInteger(leaf[3]) &&
        leaf[3] >= 0,
    )
  );
}

function recipeFrom(
  at: number,
  from: number,
  leaves: [Path, string, string][],
  app: unknown,
): Omit<RewriteRecipe, 'hash'> | undefined {
  const built: RewriteRecipe['leaves'] = [];
  for (const [path, sent, stored] of leaves) {
    const text = valueAt(app, path);
    if (typeof text !== 'string') return undefined;
    const limit = Math.min(sent.length, text.length);
    let head = 0;
    while (head < limit && sent.charCodeAt(head) === text.charCodeAt(head)) head++;
    let tail = 0;
    while (
      tail < limit - head &&
      sent.charCodeAt(sent.length - 1 - tail) === text.charCodeAt(text.length - 1 - tail)
    ) {
      tail++;
    }
    const literal = sent.slice(head, sent.length - tail);
    // Only text the store holds anyway may go into the recipe.
    if (literal !== '' && !stored.includes(literal)) return undefined;
    built.push([path, head, literal, tail]);
  }
  return { at, from, leaves: built };
}

function valueAt(value: unknown, path: Path): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) {
      return undefined;
    }
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** Sets a string the copy already holds at `path` (never creates keys: the path is from the store). */
function assign(target: unknown, path: Path, text: string): boolean {
  if (path.length === 0) return false;
  const parent = valueAt(target, path.slice(0, -1));
  const key = path[path.length - 1] as string | number;
  if (typeof parent !== 'object' || parent === null || !Object.hasOwn(parent, key)) return false;
  if (typeof (parent as Record<string | number, unknown>)[key] !== 'string') return false;
  (parent as Record<string | number, unknown>)[key] = text;
  return true;
}

/** The strings that differ between the sent and stored forms, when both have the same shape. */
function changedLeaves(sent: unknown, stored: unknown): [Path, string, string][] | undefined {
  const changed: [Path, string, string][] = [];
  const walk = (a: unknown, b: unknown, path: Path): boolean => {
    if (typeof a === 'string') {
      if (typeof b !== 'string') return false;
      if (a !== b) changed.push([path, a, b]);
      return true;
    }
    if (Array.isArray(a)) {
      if (!Array.isArray(b) || a.length !== b.length) return false;
      return a.every((item, index) => walk(item, b[index], [...path, index]));
    }
    if (typeof a === 'object' && a !== null) {
      if (typeof b !== 'object' || b === null || Array.isArray(b)) return false;
      const keys = Object.keys(a);
      if (keys.length !== Object.keys(b).length) return false;
      return keys.every(
        (key) =>
          Object.hasOwn(b, key) &&
          walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], [
            ...path,
            key,
          ]),
      );
    }
    return a === b;
  };
  return walk(sent, stored, []) ? changed : undefined;
}

/** The tool call ids of a message's parts, in order (a rewrite keeps them). */
function callIds(message: ModelMessage): string {
  if (typeof message.content === 'string') return '';
  const ids: string[] = [];
  for (const part of message.content as { toolCallId?: unknown }[]) {
    if (typeof part?.toolCallId === 'string') ids.push(part.toolCallId);
  }
  return JSON.stringify(ids);
}
