import {
  extractErrorLines,
  extractPaths,
  HANDOFF_SECTIONS,
  type HandoffSectionKey,
} from '@baton/fallback';

/** Facts read deterministically from the transcript a summariser was given. */
export interface SpanFacts {
  /** Earlier user asks (the flagged latest request excluded: it stays verbatim beside the summary). */
  asks: string[];
  /** Tool names called, most called first. */
  tools: string[];
  /** Paths mentioned, most mentioned first. */
  files: string[];
  /** Error lines from tool results and text, most frequent first. */
  errors: string[];
}

export type FactClass = keyof SpanFacts;

/** What verification found and did. */
export interface SummaryVerification {
  /** `accepted`: the (normalised, topped-up) summary is returned; `rejected`: the receipt is used. */
  verdict: 'accepted' | 'rejected';
  /** Why it was rejected: `empty`, `truncated`, `refusal`, `off-topic` or `unstructured`. */
  reason?: 'empty' | 'truncated' | 'refusal' | 'off-topic' | 'unstructured';
  /** Facts the span holds, per class. */
  facts: Record<FactClass, number>;
  /** Of those, present in the reply before the top-up. */
  present: Record<FactClass, number>;
  /** Share of the span's facts present in the reply before the top-up (1 when the span has none). */
  factCoverage: number;
  /** Facts appended because the reply missed them (bounded). */
  added: SpanFacts;
  /** Repeated lines dropped from the reply (small models loop). */
  droppedRepeatedLines: number;
  /** Sections recognised in the reply. */
  sections: HandoffSectionKey[];
}

export interface VerifySummaryOptions {
  /** Most facts appended per class. Default 8. */
  maxAddedPerClass?: number;
  /** Characters the appended facts may take in all. Default 1,200. */
  maxAddedChars?: number;
  /** The model stopped at its output cap (the record is unfinished). Default false. */
  truncated?: boolean;
}

const titleOf = new Map(HANDOFF_SECTIONS.map((section) => [section.key, section.title]));

/** Words a heading may use for each section, checked in order (first match wins). */
const headingWords: Array<[HandoffSectionKey, RegExp]> = [
  ['latestAsk', /\blatest (user )?(ask|request)\b/],
  ['pendingAsks', /\b(earlier|pending|open|user) (asks?|requests?)\b|\basks?\b/],
  ['goal', /\b(goal|objective|aim|purpose|task|overview)\b/],
  ['constraints', /\b(constraint|preference|requirement|rule|limit)s?\b/],
  [
    'completedActions',
    /\b(completed|done|actions?|steps? taken|progress|what (was|has been) done|history)\b/,
  ],
  ['inProgress', /\b(in.progress|ongoing|under way)\b/],
  ['activeState', /\b(state|status|current)\b/],
  ['blockers', /\b(blockers?|errors?|issues?|problems?|failures?|bugs?)\b/],
  ['decisions', /\b(decisions?|choices?)\b/],
  ['resolvedQuestions', /\bquestions?\b/],
  ['files', /\b(files?|paths?)\b/],
  ['remainingWork', /\b(remaining|todo|to do|next steps?|pending work|left to do)\b/],
  ['criticalContext', /\b(context|notes?|details?|summary|other|key (facts|information))\b/],
];

function sectionForHeading(heading: string): HandoffSectionKey | undefined {
  const normalized = heading
    .toLowerCase()
    .replace(/[^a-z -]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (normalized === '' || normalized.split(' ').length > 6) return undefined;
  for (const [key, pattern] of headingWords) if (pattern.test(normalized)) return key;
  return undefined;
}

/**
 * A heading line in any common form: `## X`, `**X**`, `X:` alone, `1. X:` alone, or a short label
 * that opens a line (`**X:** text`, `X: text`, at most three words) with the rest as body.
 */
function headingText(line: string): { heading: string; rest: string } | undefined {
  const markdown = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
  if (markdown) return { heading: markdown[1]!, rest: '' };
  const bold = /^\s*(?:\d+[.)]\s*)?\*\*(.+?):?\*\*:?\s*(.*)$/.exec(line);
  if (bold) return { heading: bold[1]!, rest: bold[2]! };
  const label = /^\s*(?:\d+[.)]\s*)?([A-Za-z][A-Za-z /&-]{1,40}):(?:\s+(.*))?$/.exec(line);
  if (label && (label[2] === undefined || label[1]!.trim().split(/\s+/).length <= 3)) {
    return { heading: label[1]!, rest: label[2] ?? '' };
  }
  return undefined;
}

const stopWords = new Set(
  'about above after again also because been before being below between both could does doing down during each from further have having here into just more most once only other over same should some such than that their them then there these they this those through under until very were what when where which while will with would your please thanks'.split(
    ' ',
  ),
);

function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z0-9_]{3,}/g) ?? []).filter(
    (word) => !stopWords.has(word),
  );
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Messages of a `<transcript>` as the compressor serialises them. */
function transcriptMessages(
  prompt: string,
): Array<{ role: string; latest: boolean; body: string }> {
  const open = prompt.indexOf('<transcript>');
  const close = prompt.lastIndexOf('</transcript>');
  if (open < 0 || close < open) return [];
  const transcript = prompt.slice(open, close);
  const messages: Array<{ role: string; latest: boolean; body: string }> = [];
  const pattern =
    /<message index="\d+" role="([a-z]+)"( latest-request="true")?>\n([\s\S]*?)\n<\/message>/g;
  for (let match = pattern.exec(transcript); match; match = pattern.exec(transcript)) {
    messages.push({ role: match[1]!, latest: match[2] !== undefined, body: match[3]! });
  }
  return messages;
}

function rank(values: string[]): string[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([value]) => value);
}

/**
 * The facts of the span in a summariser request: read from the `<transcript>` the compressor sends
 * (already redacted), with `@baton/fallback`'s path and error-line extractors. Empty when the request
 * carries no transcript (cache-friendly mode).
 */
export function extractSpanFacts(prompt: string): SpanFacts {
  const messages = transcriptMessages(prompt);
  const asks: string[] = [];
  const tools: string[] = [];
  const files: string[] = [];
  const errors: string[] = [];
  for (const message of messages) {
    if (message.role === 'user' && !message.latest) {
      const text = collapse(message.body.replace(/\[tool (call|result)[^\]]*\]/g, ' '));
      if (contentWords(text).length >= 2 && !asks.some((ask) => ask === text.slice(0, 200))) {
        asks.push(text.slice(0, 200));
      }
    }
    for (const call of message.body.matchAll(/\[tool call [^:\]]*: ([A-Za-z0-9_.:-]+)/g))
      tools.push(call[1]!);
    files.push(...extractPaths(message.body));
    errors.push(...extractErrorLines(message.body));
  }
  return { asks, tools: rank(tools), files: rank(files), errors: rank(errors) };
}

function basename(path: string): string {
  const parts = path.split(/[/\\]/).filter((part) => part !== '');
  return parts.at(-1) ?? path;
}

/** Whether the summary holds a fact: verbatim, or (asks, errors) most of its content words. */
function holds(kind: FactClass, fact: string, summary: string, summaryWords: Set<string>): boolean {
  const lower = summary.toLowerCase();
  switch (kind) {
    case 'tools':
      return lower.includes(fact.toLowerCase());
    case 'files': {
      const name = basename(fact).toLowerCase();
      return lower.includes(fact.toLowerCase()) || (name.length >= 4 && lower.includes(name));
    }
    default: {
      if (lower.includes(collapse(fact).toLowerCase().slice(0, 60))) return true;
      const words = [...new Set(contentWords(fact))];
      if (words.length === 0) return false;
      const found = words.filter((word) => summaryWords.has(word)).length;
      return found / words.length >= 0.6;
    }
  }
}

/** Where each class of missing facts goes. */
const topUpSection: Record<FactClass, HandoffSectionKey> = {
  errors: 'blockers',
  files: 'files',
  asks: 'pendingAsks',
  tools: 'completedActions',
};

/** The line that opens every top-up, so a reader knows the model did not write what follows. */
export const addedLabel = '(added by Baton: found in the span, missing from the summary)';

const refusal =
  /\b(i(?:'m| am) (?:sorry|unable|not able)|i can(?:not|'t) (?:help|assist|do|provide|comply|summari[sz]e|complete)|as an ai\b|i (?:will|must) not|i won't)\b/i;

/**
 * Reads whatever structure a summariser reply has (markdown, bold or `Label:` headings in any
 * wording, or bare prose), drops lines it repeats, checks the span's deterministic facts (earlier asks,
 * files, error lines, tool names) against it and appends the missing ones, bounded, under a labelled
 * line in the section each belongs to (errors under blockers, files under files, asks under earlier
 * asks, tools under completed actions). Returns the record in the compressor's headings (so it parses), or a
 * rejection: empty, truncated (the model hit its output cap), refusal-like (a refusal phrase and none
 * of the span's facts), off-topic (none of the span's facts and under a quarter of its words from the
 * span), or unstructured (fewer than three sections even after the top-up).
 */
export function verifySummary(
  reply: string,
  facts: SpanFacts,
  transcriptText: string,
  options: VerifySummaryOptions = {},
): { text: string | undefined; verification: SummaryVerification } {
  const classes: FactClass[] = ['errors', 'files', 'asks', 'tools'];
  const zero = () => ({ asks: 0, tools: 0, files: 0, errors: 0 });
  const verification: SummaryVerification = {
    verdict: 'rejected',
    facts: zero(),
    present: zero(),
    factCoverage: 1,
    added: { asks: [], tools: [], files: [], errors: [] },
    droppedRepeatedLines: 0,
    sections: [],
  };
  for (const kind of classes) verification.facts[kind] = facts[kind].length;

  // Drop repeated lines (a looping small model), keeping the first of each.
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const line of reply.replace(/\r\n?/g, '\n').split('\n')) {
    const key = collapse(line).toLowerCase();
    if (key.length >= 8 && seen.has(key)) {
      verification.droppedRepeatedLines++;
      continue;
    }
    if (key.length >= 8) seen.add(key);
    if (/^\s*```[a-z]*\s*$/i.test(line)) continue;
    lines.push(line);
  }
  const cleaned = lines.join('\n').trim();

  const summaryWords = new Set(contentWords(cleaned));
  let present = 0;
  let total = 0;
  const missing: SpanFacts = { asks: [], tools: [], files: [], errors: [] };
  for (const kind of classes) {
    for (const fact of facts[kind]) {
      total++;
      if (holds(kind, fact, cleaned, summaryWords)) {
        verification.present[kind]++;
        present++;
      } else missing[kind].push(fact);
    }
  }
  verification.factCoverage = total === 0 ? 1 : present / total;

  if (cleaned === '')
    return { text: undefined, verification: { ...verification, reason: 'empty' } };
  if (options.truncated)
    return { text: undefined, verification: { ...verification, reason: 'truncated' } };
  if (present === 0 && refusal.test(cleaned.slice(0, 300))) {
    return { text: undefined, verification: { ...verification, reason: 'refusal' } };
  }
  // Off-topic by shared word stems (first four letters: inflections and identifiers' parts match).
  const stems = (text: string) =>
    new Set(
      (text.toLowerCase().match(/[a-z]{4,}/g) ?? [])
        .filter((word) => !stopWords.has(word))
        .map((word) => word.slice(0, 4)),
    );
  const spanWords = stems(transcriptText);
  const replyWords = [...stems(cleaned)];
  const shared = replyWords.filter((word) => spanWords.has(word)).length;
  if (
    total > 0 &&
    present === 0 &&
    (replyWords.length === 0 || shared / replyWords.length < 0.25)
  ) {
    return { text: undefined, verification: { ...verification, reason: 'off-topic' } };
  }

  // Sections, in the reply's own order; text before any heading is context.
  const sections = new Map<HandoffSectionKey, string[]>();
  let current: HandoffSectionKey = 'criticalContext';
  for (const line of lines) {
    if (/^\s*```[a-z]*\s*$/i.test(line)) continue;
    const heading = headingText(line);
    const key = heading === undefined ? undefined : sectionForHeading(heading.heading);
    if (key) {
      current = key === 'latestAsk' ? 'pendingAsks' : key;
      if (!sections.has(current)) sections.set(current, []);
      if (heading!.rest.trim() !== '') sections.get(current)!.push(heading!.rest);
      continue;
    }
    if (!sections.has(current)) sections.set(current, []);
    sections.get(current)!.push(line);
  }
  for (const [key, body] of sections) {
    const text = body.join('\n').trim();
    if (text === '' || /^(none\.?|n\/a|-|\(none\))$/i.test(text)) sections.delete(key);
    else sections.set(key, [text]);
  }

  // Top-up, bounded, most telling classes first, each class in its own section under a label.
  const perClass = options.maxAddedPerClass ?? 8;
  let room = options.maxAddedChars ?? 1_200;
  for (const kind of classes) {
    const chosen: string[] = [];
    for (const fact of missing[kind].slice(0, perClass)) {
      const item = fact.length > 200 ? `${fact.slice(0, 199)}…` : fact;
      if (item.length + 4 > room) break;
      chosen.push(item);
      room -= item.length + 4;
    }
    if (chosen.length === 0) continue;
    verification.added[kind] = chosen;
    const key = topUpSection[kind];
    const existing = sections.get(key)?.[0];
    const block = `${addedLabel}\n${chosen.map((item) => `- ${item}`).join('\n')}`;
    sections.set(key, [existing === undefined ? block : `${existing}\n${block}`]);
  }
  verification.sections = [...sections.keys()];
  if (sections.size < 3) {
    return { text: undefined, verification: { ...verification, reason: 'unstructured' } };
  }
  const order = HANDOFF_SECTIONS.map((section) => section.key).filter((key) => sections.has(key));
  const text = order.map((key) => `## ${titleOf.get(key)}\n${sections.get(key)![0]}`).join('\n\n');
  return { text, verification: { ...verification, verdict: 'accepted' } };
}
