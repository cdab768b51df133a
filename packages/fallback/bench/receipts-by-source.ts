/**
 * Receipt retention at 2,000 tokens per transcript source, alone (the by-source part of run.ts),
 * and again on the same windows with their format disguised: every tool renamed to a generated
 * name and every argument key to a generated key (consistently within a transcript). Truth is taken
 * from the original window (tool names mapped), so a drop on the disguised copy is retention that
 * depended on rules written for a source's tool or argument names.
 * Run: pnpm build && node bench/receipts-by-source.ts
 */
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { loadTranscripts } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { createReceipt } from '../dist/index.js';
import { middleWindow } from '../dist/middle-window.js';
import {
  extractReferenceFacts,
  measureReferenceRetention,
  type ReferenceRetention,
} from '../dist/reference-facts.js';
import { pathCapacity } from './path-capacity.ts';

const counter = createTokenCounter({ encoding: 'o200k_base' });
const transcripts = loadTranscripts();
if (transcripts.length === 0) {
  console.error('corpus not found: this bench needs ../shared/corpus');
  process.exit(1);
}

/** A deterministic, meaningless name for `name` (no tool-name word survives). */
function disguise(name: string, salt: string): string {
  let hash = 2166136261;
  for (const character of `${salt}:${name}`) {
    hash = Math.imul(hash ^ character.charCodeAt(0), 16777619) >>> 0;
  }
  const letters = 'bcdfghjklmnpqrstvwxz';
  let out = '';
  for (let step = 0; step < 7; step++) {
    out += letters[hash % letters.length];
    hash = Math.floor(hash / letters.length) + step * 7919;
  }
  return `${out}${salt === 'tool' ? '_op' : ''}`;
}

function renameKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(renameKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [disguise(key, 'key'), renameKeys(inner)]),
  );
}

/**
 * Results as a JSON-speaking tool returns them: text under a generated key, a failure as an
 * `isError` flag beside MCP-style content (no `error-text` type left to go by).
 */
function wrapOutput(output: { type: string; value?: unknown }): unknown {
  if (output.type === 'text') {
    return { type: 'json', value: { [disguise('stdout', 'key')]: output.value, ok: true } };
  }
  if (output.type === 'error-text') {
    return {
      type: 'json',
      value: { isError: true, content: [{ type: 'text', text: output.value }] },
    };
  }
  return output;
}

function disguiseWindow(window: ModelMessage[]): ModelMessage[] {
  return window.map((message) => {
    if (!Array.isArray(message.content)) return message;
    return {
      ...message,
      content: (message.content as Array<Record<string, unknown>>).map((part) => {
        if (part.type === 'tool-call') {
          return {
            ...part,
            toolName: disguise(String(part.toolName), 'tool'),
            input: renameKeys(part.input),
          };
        }
        if (part.type === 'tool-result') {
          return {
            ...part,
            toolName: disguise(String(part.toolName), 'tool'),
            output: wrapOutput(part.output as { type: string; value?: unknown }),
          };
        }
        return part;
      }),
    } as ModelMessage;
  });
}

const shown: Array<keyof ReferenceRetention> = [
  'toolNamesInActions',
  'weightedPaths',
  'errorLines',
  'userAsks',
];
type Table = Map<string, Record<string, number[]>>;
const tables: Record<'original' | 'disguised', Table> = {
  original: new Map(),
  disguised: new Map(),
};
const bounds = new Map<string, number[]>();
const wordBounds = new Map<string, number[]>();
for (const transcript of transcripts) {
  const window = middleWindow(transcript.messages as ModelMessage[], { counter });
  if (window.length === 0) continue;
  const source = transcript.name.split('__')[0]!;
  const truth = extractReferenceFacts(window);
  const disguisedTruth = { ...truth, toolNames: truth.toolNames.map((n) => disguise(n, 'tool')) };
  for (const [kind, messages, facts] of [
    ['original', window, truth],
    ['disguised', disguiseWindow(window), disguisedTruth],
  ] as const) {
    const receipt = createReceipt(messages, { maxTokens: 2000, counter }).text;
    const score = measureReferenceRetention(receipt, facts);
    const entry = tables[kind].get(source) ?? {};
    tables[kind].set(source, entry);
    for (const measure of shown) {
      if (score[measure] !== undefined)
        entry[measure] = [...(entry[measure] ?? []), score[measure]!];
    }
  }
  if (truth.paths.size > 0) {
    const lines = pathCapacity(truth.paths, (path) => counter.count(`- ${path}\n`), 2000);
    const words = pathCapacity(truth.paths, (path) => counter.count(` ${path}`), 2000);
    bounds.set(source, [...(bounds.get(source) ?? []), lines]);
    wordBounds.set(source, [...(wordBounds.get(source) ?? []), words]);
  }
}
const mean = (values: number[] | undefined) =>
  values && values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : undefined;
const percent = (value: number | undefined) =>
  value === undefined ? '–' : `${(value * 100).toFixed(1)} %`;
for (const kind of ['original', 'disguised'] as const) {
  console.log(`\n${kind} (tools in actions | weighted files | errors | asks)`);
  const worst: Record<string, number> = {};
  const all: Record<string, number[]> = {};
  for (const [source, entry] of [...tables[kind]].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const cells = shown.map((measure) => {
      const value = mean(entry[measure]);
      if (value !== undefined) worst[measure] = Math.min(worst[measure] ?? 1, value);
      all[measure] = [...(all[measure] ?? []), ...(entry[measure] ?? [])];
      return percent(value);
    });
    console.log(`${source.padEnd(22)} ${cells.map((c) => c.padStart(8)).join(' ')}`);
  }
  console.log(
    `${'worst source'.padEnd(22)} ${shown.map((m) => percent(worst[m]).padStart(8)).join(' ')}`,
  );
  console.log(
    `${'mean (transcripts)'.padEnd(22)} ${shown.map((m) => percent(mean(all[m])).padStart(8)).join(' ')}`,
  );
}
for (const [label, table] of [
  ["'- path' lines", bounds],
  ['space-separated words, as receipts now write them', wordBounds],
] as const) {
  console.log(
    `capacity bound on weighted files (${label}): ${[...table]
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([source, values]) => `${source} ${percent(mean(values))}`)
      .join(', ')}`,
  );
}
