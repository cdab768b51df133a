/**
 * The fact extractor of this harness (deliberately not `@baton/fallback`'s, so Baton is not scored by its own
 * yardstick). Four kinds, each a set of strings taken from the input conversation; a fact survives when its
 * string is found in the compacted conversation's text (whitespace collapsed), wherever it sits: a kept
 * message, a summary, a receipt or a masked placeholder.
 */
import { type Message, messageText, userText } from './messages.ts';

export type FactKind = 'files' | 'errors' | 'tools' | 'asks';
export type Facts = Record<FactKind, Set<string>>;

const FILE_EXTENSIONS =
  'py|pyi|ts|tsx|js|jsx|mjs|cjs|json|md|go|rs|java|kt|c|h|cc|cpp|hpp|rb|php|yml|yaml|toml|txt|sh|pony|cfg|ini|html|css|sql|lock|rst|xml|csv';
// A path with at least one folder, or a bare file name with a known source extension. Not part of a URL.
const PATH = new RegExp(
  `(?<![\\w:/.-])(?:\\.{0,2}/)?(?:[\\w@+-][\\w.@+-]*/)+[\\w.@+-]*\\w\\.[A-Za-z0-9]{1,8}\\b|(?<![\\w/.-])[\\w-]+\\.(?:${FILE_EXTENSIONS})\\b`,
  'g',
);
const ERROR_LINE = /\b(error|exception|traceback|failed|failure|fatal|panic)\b/i;
const ASK_CHARS = 160;

export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function extractFacts(messages: readonly Message[]): Facts {
  const facts: Facts = { files: new Set(), errors: new Set(), tools: new Set(), asks: new Set() };
  for (const message of messages) {
    const text = messageText(message);
    for (const match of text.matchAll(PATH)) {
      const path = match[0].replace(/^\.\//, '');
      if (path.length >= 4 && path.length <= 200) facts.files.add(path);
    }
    if (message.role === 'tool' || message.role === 'user') {
      for (const line of text.split('\n')) {
        const trimmed = collapse(line);
        if (trimmed.length >= 8 && ERROR_LINE.test(trimmed))
          facts.errors.add(trimmed.slice(0, 120));
      }
    }
    if (message.role === 'assistant' && Array.isArray(message.content)) {
      for (const part of message.content)
        if (part.type === 'tool-call') facts.tools.add(part.toolName);
    }
    const ask = userText(message);
    if (ask !== undefined && collapse(ask).length > 0)
      facts.asks.add(collapse(ask).slice(0, ASK_CHARS));
  }
  return facts;
}

/** Share of each kind of input fact found in the output (1 when the input has none of that kind). */
export function factSurvival(input: Facts, output: readonly Message[]): Record<FactKind, number> {
  const haystack = collapse(output.map(messageText).join('\n'));
  const toolNames = new Set<string>();
  for (const message of output) {
    if (message.role === 'assistant' && Array.isArray(message.content)) {
      for (const part of message.content)
        if (part.type === 'tool-call') toolNames.add(part.toolName);
    }
  }
  const share = (kind: FactKind, found: (fact: string) => boolean): number => {
    const all = [...input[kind]];
    if (all.length === 0) return 1;
    return all.filter(found).length / all.length;
  };
  return {
    files: share('files', (fact) => haystack.includes(fact)),
    errors: share('errors', (fact) => haystack.includes(fact)),
    tools: share(
      'tools',
      (fact) =>
        toolNames.has(fact) ||
        new RegExp(`(?<![\\w-])${escapeRegExp(fact)}(?![\\w-])`).test(haystack),
    ),
    asks: share('asks', (fact) => haystack.includes(fact)),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
