import { isKeyedSecret } from './secret-rules.js';
import { maxWalkDepth } from './walk-limits.js';

/** What a JSON tool result says, read without knowing which tool or agent wrote it. */
export interface JsonOutputReading {
  /**
   * Its string values, each on lines of its own with its newlines restored, and its status fields as
   * `key: value` lines: serialised JSON keeps a whole output on one line with `\n` escapes, where no
   * line-based reading of errors or paths can see it.
   */
  text: string;
  /** A failure flag was set (`isError`, `success: false`, `status: "failed"`, an `error` message). */
  failed: boolean;
  /** The first non-zero exit status field (`exit_code`, `exitCode`, `returncode`, ...). */
  exitCode: number | undefined;
  /** The message of the first `error`-named field, or when only a flag said so, undefined. */
  errorText: string | undefined;
}

// Keys compared lower-cased without `_`, `-` or spaces.
const failureFlags = new Set(['iserror', 'error', 'failed', 'failure', 'haserror', 'errored']);
const successFlags = new Set(['success', 'ok', 'succeeded', 'passed', 'issuccess']);
const statusKeys = new Set(['status', 'state', 'result', 'outcome', 'conclusion']);
const failedStatus =
  /^(?:error|errored|errors|fail|failed|failure|failing|crashed|timeout|timedout|timed out|aborted|cancelled|canceled|rejected)$/i;
const exitKeys = new Set(['exitcode', 'exitstatus', 'returncode', 'rc', 'exit']);
const errorKeys = new Set(['error', 'err', 'errormessage', 'errormsg', 'exception', 'stderr']);
// Flags deeper than this belong to data the tool returned (a fixture, a package manifest), not to
// the result itself: `{ "metadata": { "exit_code": 1 } }` is two levels down.
const flagDepth = 2;
// A string value that is itself a JSON document (MCP text content often is) is read once more.
const nestedDocuments = 2;

// Discriminators (`{ "type": "text", "text": … }`): a word naming the shape, never what happened.
const shapeKeys = new Set([
  'type',
  'kind',
  'mimetype',
  'mediatype',
  'contenttype',
  'role',
  'encoding',
]);

const normalise = (key: string) => key.toLowerCase().replace(/[\s_-]/g, '');

/** Parses `text` when it is one JSON object or array; undefined for anything else. */
export function parseJsonDocument(text: string): unknown {
  const trimmed = text.trim();
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  if (!((first === '{' && last === '}') || (first === '[' && last === ']'))) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a JSON tool result (an `json`/`error-json` output's value, or a text output that parses as
 * a JSON document). One pass over the value; cycles and nesting beyond `maxWalkDepth` are skipped.
 */
export function readJsonOutput(value: unknown): JsonOutputReading {
  const lines: string[] = [];
  // Status lines go after the values: a result's first line is what a failure is reported by.
  const statusLines: string[] = [];
  const reading: JsonOutputReading = {
    text: '',
    failed: false,
    exitCode: undefined,
    errorText: undefined,
  };
  const ancestors = new Set<object>();
  const walk = (node: unknown, key: string | undefined, depth: number, documents: number) => {
    const name = key === undefined ? '' : normalise(key);
    const flagged = depth <= flagDepth + 1;
    if (typeof node === 'string') {
      if (node.trim() === '' || shapeKeys.has(name)) return;
      // Shown without its key, a value under `password` could no longer be told from a word.
      if (key !== undefined && isKeyedSecret(key, node)) return;
      if (flagged && statusKeys.has(name) && failedStatus.test(node.trim())) {
        reading.failed = true;
        statusLines.push(`${key}: ${node.trim()}`);
        return;
      }
      if (flagged && errorKeys.has(name) && name !== 'stderr') {
        reading.failed = true;
        reading.errorText ??= node;
      }
      const nested = documents < nestedDocuments ? parseJsonDocument(node) : undefined;
      if (nested !== undefined) walk(nested, key, depth, documents + 1);
      else lines.push(node);
      return;
    }
    if (typeof node === 'boolean') {
      if (!flagged) return;
      if ((node && failureFlags.has(name)) || (!node && successFlags.has(name))) {
        reading.failed = true;
      }
      return;
    }
    if (typeof node === 'number') {
      if (flagged && exitKeys.has(name) && Number.isInteger(node) && node !== 0) {
        reading.exitCode ??= node;
        statusLines.push(`${key}: ${node}`);
      }
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    if (depth > maxWalkDepth || ancestors.has(node)) return;
    ancestors.add(node);
    if (Array.isArray(node)) {
      for (const item of node) walk(item, key, depth + 1, documents);
    } else {
      // `error: {}` and `error: null` say nothing failed; `error: { message }` does.
      if (flagged && errorKeys.has(name) && name !== 'stderr' && Object.keys(node).length > 0) {
        reading.failed = true;
      }
      for (const [field, inner] of Object.entries(node)) walk(inner, field, depth + 1, documents);
    }
    ancestors.delete(node);
  };
  walk(value, undefined, 0, 0);
  reading.text = [...lines, ...statusLines].join('\n');
  return reading;
}
