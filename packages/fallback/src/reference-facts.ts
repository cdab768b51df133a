import type { ModelMessage } from '@ai-sdk/provider-utils';
import { toolOutputText } from '@baton/tokens';
import { parseHandoff } from './parse-handoff.js';
import { redactSecretsShared } from './redact-secrets.js';

/**
 * Ground truth for the retention benchmark that shares no code with `extractHandoffFacts` (which
 * the receipt is built from): a metric that grades the extractor against itself cannot see what
 * the extractor misses. Deliberately simple rules, easy to audit, different from the receipt's.
 * Items are passed through `redactSecrets` only because the receipt must never show a secret, so
 * an unredacted item could never be found in it. Not part of the public API.
 */
export interface ReferenceFacts {
  /** Distinct `toolName`s of tool-call parts. */
  toolNames: string[];
  /** Path -> number of occurrences (path-named tool arguments + path-looking tokens in outputs). */
  paths: Map<string, number>;
  /** Distinct error lines, whitespace collapsed. */
  errorLines: string[];
  /** Distinct user messages' text, whitespace collapsed. */
  asks: string[];
  /** The last user message's text as written (trimmed). */
  latestAsk: string | undefined;
}

// Argument names that hold a path, compared without case, `_` or `-`.
const pathArguments = new Set(['path', 'file', 'filename', 'filepath', 'target']);
// A path in output text: optional `~`/`.`/`..` and `/`, at least one directory, a file with an
// extension, bounded by whitespace, quotes or brackets. Windows: a drive, backslashes, an extension.
const posixPath =
  /(?<=^|[\s"'`(=[])(?:~|\.{1,2})?\/?(?:[\w.@+-]+\/)+[\w@+-][\w.@+-]*\.[A-Za-z0-9]{1,8}(?=$|[\s"'`),:;\]])/gm;
const windowsPath = /\b[A-Za-z]:\\(?:[\w.@+ -]+\\)*[\w.@+-]+\.[A-Za-z0-9]{1,8}\b/g;
// An error message line (`ValueError: bad input`, `Error: ENOENT`; not `except ValueError:`), a
// traceback, a non-zero exit code.
const errorLine =
  /Traceback \(most recent call last\)|\b[A-Za-z]*Error: \S|exit code:? ?[1-9]|exit status:? ?[1-9]/;

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
const redact = (text: string) => redactSecretsShared(text).text;

function argumentPaths(input: unknown, into: string[], depth = 0): void {
  if (typeof input !== 'object' || input === null || depth > 8) return;
  for (const [key, value] of Object.entries(input)) {
    if (typeof value === 'string') {
      const name = key.toLowerCase().replace(/[_-]/g, '');
      if (pathArguments.has(name) && value.trim() !== '' && !/\s/.test(value.trim())) {
        into.push(value.trim());
      }
    } else {
      argumentPaths(value, into, depth + 1);
    }
  }
}

function userText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part) => (part as { type?: unknown }).type === 'text')
    .map((part) => String((part as { text?: unknown }).text ?? ''))
    .join('\n');
}

export function extractReferenceFacts(messages: readonly ModelMessage[]): ReferenceFacts {
  const toolNames = new Set<string>();
  const paths = new Map<string, number>();
  const errorLines = new Set<string>();
  const asks = new Set<string>();
  let latestAsk: string | undefined;
  const addPath = (raw: string) => {
    const path = redact(raw);
    paths.set(path, (paths.get(path) ?? 0) + 1);
  };
  for (const message of messages) {
    if (message.role === 'user') {
      const text = userText(message.content).trim();
      if (text !== '') {
        asks.add(collapse(redact(text)));
        latestAsk = redact(text);
      }
      continue;
    }
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as unknown[]) {
      const record = part as {
        type?: unknown;
        toolName?: unknown;
        input?: unknown;
        output?: unknown;
      };
      if (record.type === 'tool-call' && typeof record.toolName === 'string') {
        toolNames.add(record.toolName);
        const found: string[] = [];
        argumentPaths(record.input, found);
        found.forEach(addPath);
      } else if (record.type === 'tool-result') {
        // Pretty-printed JSON, so that each field is a line of its own.
        const text = toolOutputText(record.output, { jsonSpace: 1 });
        const kind = (record.output as { type?: unknown } | undefined)?.type;
        const flagged = kind === 'error-text' || kind === 'error-json';
        for (const match of text.matchAll(posixPath)) addPath(match[0]);
        for (const match of text.matchAll(windowsPath)) addPath(match[0]);
        const lines = text.split('\n').map(collapse);
        if (flagged) {
          const first = lines.find((line) => line !== '');
          if (first !== undefined) errorLines.add(collapse(redact(first)));
        }
        for (const line of lines) {
          if (line.length <= 500 && errorLine.test(line)) errorLines.add(collapse(redact(line)));
        }
      }
    }
  }
  return {
    toolNames: [...toolNames],
    paths,
    errorLines: [...errorLines],
    asks: [...asks],
    latestAsk,
  };
}

/** Share of the reference facts found in a handoff text (0..1; `undefined` when none existed). */
export interface ReferenceRetention {
  /** Tool names named anywhere in the text (the counts line alone satisfies this). */
  toolNames: number | undefined;
  /** Tool names named in the actions sections (completed and in progress) only. */
  toolNamesInActions: number | undefined;
  weightedPaths: number | undefined;
  errorLines: number | undefined;
  userAsks: number | undefined;
  latestAskVerbatim: number | undefined;
}

// Lines and asks are matched on their first 100 characters: a handoff may clip a long line.
const prefixLength = 100;

function namedIn(text: string, name: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(name, from);
    if (at === -1) return false;
    const before = text[at - 1];
    const after = text[at + name.length];
    if (
      (before === undefined || !/[\w-]/.test(before)) &&
      (after === undefined || !/[\w-]/.test(after))
    ) {
      return true;
    }
    from = at + 1;
  }
}

/**
 * `./App.css` and `../src/a.ts` are relative to a folder the reader may not know; a handoff that
 * names the file once under a fuller path (`/workspace/src/App.css`) still names it. Only paths with
 * a directory and a file name after the `./` or `../` count this way.
 */
function namedFromElsewhere(flat: string, path: string): boolean {
  if (!/^\.{1,2}\//.test(path)) return false;
  const remainder = path.replace(/^(?:\.{1,2}\/)+/, '');
  if (!/\.[A-Za-z0-9]+$/.test(remainder)) return false;
  return flat.includes(`/${remainder}`);
}

export function measureReferenceRetention(text: string, facts: ReferenceFacts): ReferenceRetention {
  const flat = collapse(text);
  const sections = parseHandoff(text);
  const actions = collapse(`${sections?.completedActions ?? ''}\n${sections?.inProgress ?? ''}`);
  const share = (
    items: readonly string[],
    present: (item: string) => boolean,
    weight?: (item: string) => number,
  ) => {
    const total = items.reduce((sum, item) => sum + (weight ? weight(item) : 1), 0);
    if (total === 0) return undefined;
    return (
      items.reduce((sum, item) => sum + (present(item) ? (weight ? weight(item) : 1) : 0), 0) /
      total
    );
  };
  const prefix = (item: string) => item.slice(0, prefixLength).trim();
  return {
    toolNames: share(facts.toolNames, (name) => namedIn(flat, name)),
    toolNamesInActions: share(facts.toolNames, (name) => namedIn(actions, name)),
    weightedPaths: share(
      [...facts.paths.keys()],
      (path) => flat.includes(path) || namedFromElsewhere(flat, path),
      (path) => facts.paths.get(path) ?? 0,
    ),
    errorLines: share(facts.errorLines, (line) => flat.includes(prefix(line))),
    userAsks: share(facts.asks, (ask) => flat.includes(prefix(ask))),
    latestAskVerbatim:
      facts.latestAsk === undefined ? undefined : text.includes(facts.latestAsk) ? 1 : 0,
  };
}
