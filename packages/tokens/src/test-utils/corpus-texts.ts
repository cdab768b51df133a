// Real text for the benchmark and the heuristic fit, read at run time (never copied into the repo):
// the agent transcripts, plus CJK and other-script prose found in installed npm packages.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTranscripts } from '@baton/test-corpus';

export type Category = 'prose' | 'code' | 'json' | 'logs' | 'cjk' | 'other-scripts';
export const categories: readonly Category[] = [
  'prose',
  'code',
  'json',
  'logs',
  'cjk',
  'other-scripts',
];

export interface Sample {
  text: string;
  category: Category;
  /** Where it came from, for the held-out split (a whole source goes to one side). */
  source: string;
}

/** Strings a transcript message carries, in order. */
export function messageTexts(message: { content: unknown }): string[] {
  if (typeof message.content === 'string') return [message.content];
  const texts: string[] = [];
  for (const part of message.content as Array<Record<string, unknown>>) {
    if (typeof part.text === 'string') texts.push(part.text);
    if (part.type === 'tool-call') texts.push(JSON.stringify(part.input));
    const output = part.output as { value?: unknown } | undefined;
    if (typeof output?.value === 'string') texts.push(output.value);
  }
  return texts;
}

const jsonStart = /^\s*[[{]/;
const logLine =
  /^(?:\s*(?:\d{4}-\d\d-\d\d|\[\d|\d+:\d\d|[A-Z]+:|error|warning|npm|pnpm|\$ |>|at |Traceback|FAIL|PASS|ok |not ok|\s*\d+ passed|\s*✓|\s*✗|\s*×))/i;
const codeSignals =
  /[{};]\s*$|^\s*(?:import|export|def|class|function|const|let|return|if|for|#include|fn |pub |use )\b|=>|\)\s*\{/m;

/** A rough category for transcript text, by its dominant shape. */
export function categorise(text: string): Category {
  const cjk = text.match(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g)?.length ?? 0;
  if (cjk > text.length * 0.15) return 'cjk';
  const otherScript =
    text.match(/[\u0370-\u03ff\u0400-\u04ff\u0590-\u06ff\u0900-\u0dff\u0e00-\u0e7f]/g)?.length ?? 0;
  if (otherScript > text.length * 0.3) return 'other-scripts';
  if (jsonStart.test(text)) {
    try {
      JSON.parse(text);
      return 'json';
    } catch {}
  }
  const lines = text.split('\n');
  const logLines = lines.filter((line) => logLine.test(line)).length;
  if (lines.length >= 3 && logLines / lines.length > 0.3) return 'logs';
  const codeLines = lines.filter((line) => codeSignals.test(line)).length;
  if (lines.length >= 3 && codeLines / lines.length > 0.2) return 'code';
  if (/^\s*\d+[\t│|→:]/m.test(text) && lines.length >= 3) return 'code';
  return 'prose';
}

/** Splits long text into chunks of about `size` chars at line breaks, as messages would carry it. */
function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const line of text.split(/(?<=\n)/)) {
    current += line;
    if (current.length >= size) {
      out.push(current);
      current = '';
    }
  }
  if (current.trim()) out.push(current);
  return out;
}

export function transcriptSamples(): Sample[] {
  const samples: Sample[] = [];
  for (const { name, messages } of loadTranscripts()) {
    for (const message of messages) {
      for (const text of messageTexts(message)) {
        if (text.trim().length < 20) continue;
        samples.push({ text, category: categorise(text), source: name });
      }
    }
  }
  return samples;
}

const here = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = resolve(here, '../../../..');

/** Files under node_modules/.pnpm (bounded walk) whose names suggest localised prose. */
function* candidateFiles(dir: string, depth: number): Generator<string> {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry);
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(path);
    } catch {
      continue;
    }
    if (stat.isDirectory()) {
      if (depth > 0 && entry !== '.bin' && entry !== 'test' && entry !== '__tests__')
        yield* candidateFiles(path, depth - 1);
    } else if (
      /\.(?:md|json|txt|ya?ml|properties)$/i.test(entry) &&
      stat.size > 400 &&
      stat.size < 2_000_000
    ) {
      yield path;
    }
  }
}

/**
 * CJK and other-script prose shipped in installed npm packages (translated READMEs, locale files).
 * Each file is one source; text is cut into message-sized chunks. Deterministic order.
 */
export function scriptSamples(): Sample[] {
  const root = join(repositoryRoot, 'node_modules', '.pnpm');
  const extra = process.env.BATON_SCRIPT_TEXT_DIR;
  const roots = [root, ...(extra && existsSync(extra) ? [extra] : [])];
  const samples: Sample[] = [];
  const seen = new Set<string>();
  for (const start of roots) {
    const files = [...candidateFiles(start, 7)].sort();
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const key = `${text.length}:${text.slice(0, 200)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const chunk of chunks(text, 1500)) {
        let category = categorise(chunk);
        // Accented-Latin locales (de, fr, pl, tr, cs, ...) count as other languages, not English prose.
        const accented = chunk.match(/[\u00c0-\u024f\u1e00-\u1eff]/g)?.length ?? 0;
        if (category !== 'cjk' && accented > chunk.length * 0.015) category = 'other-scripts';
        // Group copies of one file shipped by several package versions into one source.
        const source = file.replace(/^.*\/node_modules\//, '');
        if (category === 'cjk' || category === 'other-scripts')
          samples.push({ text: chunk, category, source });
      }
    }
  }
  return samples;
}
