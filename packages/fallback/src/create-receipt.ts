import type { ModelMessage } from '@ai-sdk/provider-utils';
import { defaultTokenCounter, InvalidInputError, type TokenCounter } from '@baton/tokens';
import { clipText } from './clip-text.js';
import {
  extractHandoffFacts,
  type HandoffFacts,
  itemKey,
  lastTurnCount,
  mutatingTool,
  type ToolCallFact,
} from './extract-handoff-facts.js';
import {
  HANDOFF_CURRENT_ASK_POINTER,
  HANDOFF_SECTIONS,
  type HandoffSectionKey,
  type HandoffSections,
} from './handoff-layout.js';
import { isRunSummary } from './is-run-summary.js';
import { parseHandoff } from './parse-handoff.js';
import { readingMessages } from './receipt-input-error.js';
import { redactSecrets } from './redact-secrets.js';
import { renderHandoff } from './render-handoff.js';

export interface CreateReceiptOptions {
  /** Token budget of the whole receipt text (header and footer included). Default: 2000. Minimum: 120. */
  maxTokens?: number;
  /** Counts tokens. Default: the shared `o200k_base` counter of `@baton/tokens`. */
  counter?: Pick<TokenCounter, 'count'>;
  /**
   * The summary that already stood in for older turns (an earlier Baton handoff or any text). Its
   * content is kept as a snapshot, competing for the budget like everything else. Default: none.
   */
  previousSummary?: string;
  /** How many trailing turns of the window are quoted (clipped). Default: 6. At most 12. */
  lastTurns?: number;
  /**
   * The current user request when it stays in the conversation after the receipt (e.g. in the kept
   * tail). It is not repeated: the latest-ask section holds `HANDOFF_CURRENT_ASK_POINTER` instead,
   * followed by the window's own last ask verbatim, labelled as history, when that was another
   * ask. Default: none; the window's last user message is then stated verbatim as the latest ask.
   */
  latestAsk?: string;
  /**
   * Where each message sits in the caller's history (`messages[i]` is its message
   * `sourceIndexes[i]`), for a reader that can read earlier messages back (a recall tool): each listed
   * ask, action, blocker and file then ends with `(msg N)`, the last message it came from. Same length
   * as `messages`, integers from 0. Default: none (no positions).
   */
  sourceIndexes?: readonly number[];
}

export interface ReceiptSectionStats {
  /** Items the window held. */
  total: number;
  /** Items listed in the receipt (the rest are collapsed into counts). */
  shown: number;
}

export interface ReceiptStats {
  /** Tokens of `text`, counted with the counter in use. */
  tokens: number;
  maxTokens: number;
  messages: number;
  toolCalls: number;
  asks: ReceiptSectionStats;
  /** Completed tool calls (with a result). */
  actions: ReceiptSectionStats;
  /** Tool calls without a result, listed as historical in-progress work. */
  pendingActions: ReceiptSectionStats;
  files: ReceiptSectionStats;
  errors: ReceiptSectionStats;
  turns: ReceiptSectionStats;
  previousSummaryLines: ReceiptSectionStats;
  /** True when the latest ask had to be clipped to fit the budget. */
  latestAskClipped: boolean;
}

export interface Receipt {
  text: string;
  sections: HandoffSections;
  stats: ReceiptStats;
}

type ItemSection =
  | 'pendingAsks'
  | 'completedActions'
  | 'inProgress'
  | 'blockers'
  | 'files'
  | 'previousSummary'
  | 'lastTurns';

interface Candidate {
  section: ItemSection;
  /** Position within its section when rendered. */
  order: number;
  text: string;
  score: number;
  tokens: number;
  /** For collapsed counts: the directory of a file, the name of a tool. */
  group: string;
  /** How many window items the line stands for (identical tool calls share a line). */
  weight?: number;
  /** Files: how often the window referred to it, weighed against the tokens its line costs. */
  value?: number;
  /** Files: 1 edited, else 0. */
  tier?: number;
  /** Files: a tool that does not write targeted it. */
  read?: boolean;
}

/**
 * Hands the file lines' salience scores out again, highest first: edited files, then the others,
 * each tier in order of references per token (a file a tool read before one only mentioned at
 * equal value: as a strict tier, reads crowded out files named more often). The files section
 * competes with the others as before, but within it a short path named 6 times goes before a long
 * one named 8 times, so the budget spent on files keeps the most references.
 */
function scoreFiles(candidates: Candidate[]): void {
  const files = candidates.filter((candidate) => candidate.section === 'files');
  const scores = files.map((file) => file.score).sort((a, b) => b - a);
  const density = (file: Candidate) => (file.value ?? 1) / Math.max(1, file.tokens);
  const byValue = [...files].sort(
    (a, b) =>
      (b.tier ?? 0) - (a.tier ?? 0) ||
      density(b) - density(a) ||
      Number(b.read ?? false) - Number(a.read ?? false) ||
      (a.text < b.text ? -1 : a.text > b.text ? 1 : 0),
  );
  // Strictly decreasing, so that equal scores do not fall back to alphabetical order when shown.
  let previous = Number.POSITIVE_INFINITY;
  byValue.forEach((file, rank) => {
    file.score = Math.min(scores[rank]!, previous - 1e-6);
    previous = file.score;
  });
}

/** Share of the free budget each section may take before the others had their turn. */
const sectionCaps: Record<ItemSection, number> = {
  pendingAsks: 0.6,
  completedActions: 0.3,
  inProgress: 0.15,
  blockers: 0.3,
  files: 0.5,
  previousSummary: 0.2,
  lastTurns: 0.2,
};

const minimumBudget = 120;
/** Tools named in the line that stands for the calls not listed. */
const collapsedToolLimit = 40;

const historicalAskLabel =
  'Last ask within these earlier turns (historical, already handled or superseded):';

/** Labels of the files section's lines: edited files, then every other file. */
const EDITED_FILES_LABEL = 'Edited:';
const OTHER_FILES_LABEL = 'Read or named:';

/** A path as one space-free word: quoted (JSON) in the rare case it holds whitespace. */
function literalPath(path: string): string {
  return /\s/.test(path) ? JSON.stringify(path) : path;
}

function directoryOf(path: string): string {
  const separator = path.includes('\\') ? '\\' : '/';
  const parts = path.split(separator);
  if (parts.length <= 1) return '.';
  const keep = parts[0] === '' || parts[0] === '~' ? 3 : 2;
  return parts.slice(0, Math.min(keep, parts.length - 1)).join(separator) + separator;
}

/** How the asks are stated: which one verbatim at the top, which keys not to list again. */
interface AskPlan {
  /** Keys of asks already stated (or pointed to) in the latest-ask section. */
  statedKeys: Set<string>;
  /** The window message whose ask the latest-ask section covers, and what its turn line says instead. */
  elidedIndex: number | undefined;
  elidedText: string;
}

function buildCandidates(
  facts: HandoffFacts,
  previousSummary: string | undefined,
  lastTurns: number,
  askPlan: AskPlan,
  where: (index: number) => string,
): Candidate[] {
  const candidates: Candidate[] = [];
  const span = Math.max(1, facts.messageCount - 1);
  const recency = (index: number) => index / span;
  const add = (candidate: Omit<Candidate, 'tokens'>) =>
    candidates.push({ ...candidate, tokens: 0 });

  facts.asks.forEach((ask, position) => {
    if (askPlan.statedKeys.has(ask.key)) return;
    const clipped = ask.text.replace(/\s+/g, ' ').length > ask.key.length;
    add({
      section: 'pendingAsks',
      order: position,
      text: `- ${ask.key}${clipped ? ' …' : ''}${where(ask.index)}`,
      score: 6 + 2 * recency(ask.index),
      group: 'ask',
    });
  });

  // Identical calls (same tool, target and outcome: a test re-run five times) share one line.
  const sameCalls = new Map<string, ToolCallFact[]>();
  for (const call of facts.toolCalls) {
    const key = `${call.name}\u0000${call.target}\u0000${call.outcome}`;
    const members = sameCalls.get(key);
    if (members) members.push(call);
    else sameCalls.set(key, [call]);
  }
  for (const members of sameCalls.values()) {
    const first = members[0]!;
    const last = members[members.length - 1]!;
    const mutating = mutatingTool.test(first.name);
    // A call without a result (the window ended while it ran, or it never ran) is not completed.
    const pending = first.outcome === 'no result';
    // Numbered when rendered: the listed actions count 1, 2, 3, … in the order they ran.
    add({
      section: pending ? 'inProgress' : 'completedActions',
      order: first.ordinal,
      text: `${first.name}${first.target ? ` ${first.target}` : ''} — ${pending ? 'no result (may not have run)' : first.outcome}${members.length > 1 ? ` (×${members.length})` : ''}${where(last.index)}`,
      score:
        1 +
        2.5 * recency(last.index) +
        (first.failed ? 1.5 : 0) +
        (mutating ? 1 : 0) +
        Math.min(1, Math.log2(members.length) * 0.3),
      group: first.name,
      weight: members.length,
    });
  }

  facts.errors.forEach((error, position) => {
    // Open errors first; one a later call on the same target got past is history, and says so.
    add({
      section: 'blockers',
      order: error.resolved ? facts.errors.length + position : position,
      text: `- ${error.resolved ? '(resolved later) ' : ''}${error.line}${error.count > 1 ? ` (×${error.count})` : ''}${where(error.lastIndex)}`,
      score:
        3 +
        2 * recency(error.lastIndex) +
        // A count, an exit status or a build verdict repeats with every failure and names none:
        // it gives way to the lines that say what failed, and its repeats add nothing.
        (isRunSummary(error.line) ? -0.5 : Math.min(1.5, Math.log2(error.count) * 0.5)) -
        // An exit status or a count printed beside the line that says what failed repeats that
        // failure: it goes after every line that names one.
        (error.accompanied ? 3 : 0) +
        (error.fromFailedCall ? 1 : 0) -
        (error.resolved ? 1 : 0) -
        // A line printed by a command that then exited 0 (a log line, a file it printed) gives way
        // to the failures of calls that did fail.
        (error.fromSucceededCall ? 1 : 0),
      group: error.resolved ? 'resolved' : 'open',
    });
  });

  // A reduce, not `Math.max(...)`: an output listing 130k files would overflow the stack.
  const maxReferences = facts.files.reduce((most, file) => Math.max(most, file.references), 1);
  for (const file of facts.files) {
    // Paths are listed space-separated under a label (`Edited:`, `Read or named:`), each one
    // literal and whole: a bullet and an annotation per file cost about one file in eight.
    add({
      section: 'files',
      order: 0,
      text: `${literalPath(file.path)}${where(file.lastIndex)}`,
      score:
        2 +
        4 * (Math.log2(1 + file.references) / Math.log2(1 + maxReferences)) +
        0.75 * recency(file.lastIndex) +
        (file.written ? 1 : 0),
      group: directoryOf(file.path),
      // A path without an extension that no tool targeted is a directory, a program or an import
      // specifier (`./widgets/Table`, `/bin/zsh`), or a path cut at a space: worth less per token.
      value:
        file.references *
        (file.written || file.read || /\.[A-Za-z][\w]{0,9}$/.test(file.path) ? 1 : 0.25),
      // Edited files first; a file a tool read goes before one only mentioned at equal value
      // (`scoreFiles`).
      tier: file.written ? 1 : 0,
      read: file.read,
    });
  }

  if (previousSummary !== undefined && previousSummary.trim() !== '') {
    // Redacted whole before it is parsed, split and trimmed: a secret known by the lines around it
    // (a YAML block scalar under `token: |`, a PEM body) loses that context once lines are trimmed.
    const summary = redactSecrets(previousSummary).text;
    const parsed = parseHandoff(summary);
    // Lines of the older snapshot (a summary's own snapshot) rank below the rest: kept when the
    // budget allows, first to go otherwise, so snapshots do not grow with every compaction.
    let lines: Array<{ text: string; older: boolean }>;
    if (parsed) {
      lines = [];
      for (const { key, title } of HANDOFF_SECTIONS) {
        // Old quoted turns and counts describe windows that are long gone.
        if (key === 'lastTurns' || key === 'counts') continue;
        const body = parsed[key];
        if (!body) continue;
        const older = key === 'previousSummary';
        lines.push({ text: `${title}:`, older });
        for (const line of body.split('\n')) {
          if (line.trim() !== '') lines.push({ text: `  ${line.trim()}`, older });
        }
      }
    } else {
      lines = summary
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((text) => ({ text, older: false }));
    }
    lines.forEach((line, position) => {
      add({
        section: 'previousSummary',
        order: position,
        text: clipText(redactSecrets(line.text).text, 400),
        score: (line.older ? 3 : 5) - (3 * position) / Math.max(1, lines.length),
        group: 'summary',
      });
    });
  }

  const turns = facts.turns.slice(-lastTurns);
  turns.forEach((turn, position) => {
    // An ask is stated once: quoting it again made models answer it twice.
    const elided = turn.role === 'user' && turn.index === askPlan.elidedIndex;
    const text = elided
      ? askPlan.elidedText
      : clipText(turn.text.replace(/\n{2,}/g, '\n'), 400).replace(/\n/g, '\n  ');
    add({
      section: 'lastTurns',
      order: position,
      text: `- [${turn.role}] ${text}`,
      score: 3 + (3 * (position + 1)) / turns.length,
      group: 'turn',
    });
  });
  return candidates;
}

function countsBody(facts: HandoffFacts, toolLimit = Number.POSITIVE_INFINITY): string {
  const roles = Object.entries(facts.roleCounts)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([role, count]) => `${role} ${count}`)
    .join(', ');
  const lines = [`Messages: ${facts.messageCount}${roles ? ` (${roles})` : ''}.`];
  if (facts.toolCalls.length > 0) {
    const shown = facts.toolCounts.slice(0, toolLimit).map(([name, count]) => `${name} ×${count}`);
    const hidden = facts.toolCounts.length - shown.length;
    lines.push(
      `Tool calls: ${facts.toolCalls.length} (${shown.join(', ')}${hidden > 0 ? `, +${hidden} more tools` : ''}).`,
    );
  }
  return lines.join('\n');
}

function collapseLines(section: ItemSection, omitted: Candidate[]): string[] {
  if (omitted.length === 0) return [];
  switch (section) {
    case 'files': {
      const byDirectory = new Map<string, number>();
      for (const item of omitted)
        byDirectory.set(item.group, (byDirectory.get(item.group) ?? 0) + 1);
      const groups = [...byDirectory].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      const lines = groups
        .slice(0, 3)
        .map(
          ([directory, count]) =>
            `- +${count} more file${count === 1 ? '' : 's'} under ${directory}`,
        );
      const rest = groups.slice(3).reduce((sum, [, count]) => sum + count, 0);
      if (rest > 0) lines.push(`- +${rest} more files elsewhere`);
      return lines;
    }
    case 'inProgress':
    case 'completedActions': {
      const byTool = new Map<string, number>();
      let calls = 0;
      for (const item of omitted) {
        byTool.set(item.group, (byTool.get(item.group) ?? 0) + (item.weight ?? 1));
        calls += item.weight ?? 1;
      }
      // Every tool of the omitted calls is named (up to a bound): a tool the reader never hears of
      // is work it cannot know was done. Counts only for the busiest ones, names are what matter.
      const sorted = [...byTool].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      const tools = sorted
        .slice(0, collapsedToolLimit)
        .map(([name, count], rank) => (rank < 6 ? `${name} ×${count}` : name));
      return [
        `(+${calls} more calls not listed: ${tools.join(', ')}${byTool.size > collapsedToolLimit ? ', …' : ''})`,
      ];
    }
    case 'blockers': {
      const open = omitted.filter((item) => item.group === 'open').length;
      const resolved = omitted.length - open;
      return [
        `- +${omitted.length} more error line${omitted.length === 1 ? '' : 's'} not listed (${open} open, ${resolved} resolved later)`,
      ];
    }
    case 'pendingAsks':
      return [`- +${omitted.length} more earlier ask${omitted.length === 1 ? '' : 's'} not listed`];
    case 'previousSummary':
      return [`(+${omitted.length} more lines of the previous summary not kept)`];
    case 'lastTurns':
      return [];
  }
}

const itemSections: ItemSection[] = [
  'pendingAsks',
  'completedActions',
  'inProgress',
  'blockers',
  'files',
  'previousSummary',
  'lastTurns',
];

/** The kept files, most salient first: one line of edited files, one of the others. */
function fileLines(kept: Candidate[]): string[] {
  const edited = kept.filter((item) => item.tier === 1).map((item) => item.text);
  const others = kept.filter((item) => item.tier !== 1).map((item) => item.text);
  return [
    ...(edited.length > 0 ? [`${EDITED_FILES_LABEL} ${edited.join(' ')}`] : []),
    ...(others.length > 0 ? [`${OTHER_FILES_LABEL} ${others.join(' ')}`] : []),
  ];
}

function renderSelection(
  fixed: HandoffSections,
  candidates: Candidate[],
  chosen: Set<Candidate>,
): HandoffSections {
  const sections: HandoffSections = { ...fixed };
  // Actions are numbered from 1 across completed and in-progress ones, in the order they ran.
  let actionNumber = 0;
  for (const section of itemSections) {
    const items = candidates.filter((candidate) => candidate.section === section);
    if (items.length === 0) continue;
    const kept = items.filter((item) => chosen.has(item));
    const omitted = items.filter((item) => !chosen.has(item));
    if (section === 'files') kept.sort((a, b) => b.score - a.score || (a.text < b.text ? -1 : 1));
    else kept.sort((a, b) => a.order - b.order);
    if (section === 'files') {
      const lines = [...fileLines(kept), ...collapseLines(section, omitted)];
      if (lines.length > 0) sections.files = lines.join('\n');
      continue;
    }
    const numbered = section === 'completedActions' || section === 'inProgress';
    const lines = [
      ...kept.map((item) => (numbered ? `${++actionNumber}. ${item.text}` : item.text)),
      ...collapseLines(section, omitted),
    ];
    if (lines.length > 0) sections[section as HandoffSectionKey] = lines.join('\n');
  }
  return sections;
}

/**
 * Builds a deterministic, redacted handoff receipt for a window of dropped messages: the latest
 * user ask verbatim (once), earlier asks, completed actions, files, errors, a snapshot of the
 * previous summary, the last turns and counts, in the shared handoff layout and framed as history.
 * Items compete for `maxTokens` by salience (references, recency, errors above successes); what
 * does not fit is collapsed into counts. The same input always gives byte-identical output.
 */
export function createReceipt(
  messages: readonly ModelMessage[],
  options: CreateReceiptOptions = {},
): Receipt {
  return readingMessages(() => buildReceipt(messages, options));
}

function buildReceipt(messages: readonly ModelMessage[], options: CreateReceiptOptions): Receipt {
  const maxTokens = options.maxTokens ?? 2000;
  if (!Number.isInteger(maxTokens) || maxTokens < minimumBudget) {
    throw new InvalidInputError({
      path: 'options.maxTokens',
      message: `expected an integer >= ${minimumBudget}`,
    });
  }
  const lastTurns = options.lastTurns ?? 6;
  if (!Number.isInteger(lastTurns) || lastTurns < 0 || lastTurns > lastTurnCount) {
    throw new InvalidInputError({
      path: 'options.lastTurns',
      message: `expected an integer from 0 to ${lastTurnCount}`,
    });
  }
  if (options.previousSummary !== undefined && typeof options.previousSummary !== 'string') {
    throw new InvalidInputError({ path: 'options.previousSummary', message: 'expected a string' });
  }
  if (options.latestAsk !== undefined && typeof options.latestAsk !== 'string') {
    throw new InvalidInputError({ path: 'options.latestAsk', message: 'expected a string' });
  }
  if (
    options.sourceIndexes !== undefined &&
    (!Array.isArray(options.sourceIndexes) ||
      options.sourceIndexes.length !== messages.length ||
      !options.sourceIndexes.every((index) => Number.isSafeInteger(index) && index >= 0))
  ) {
    throw new InvalidInputError({
      path: 'options.sourceIndexes',
      message: 'expected one integer >= 0 per message',
    });
  }
  const counter = options.counter ?? defaultTokenCounter();
  const count = (text: string) => counter.count(text);
  const facts = extractHandoffFacts(messages);
  const windowAsk = facts.latestAsk;
  // With `latestAsk` the current request follows the handoff verbatim: the receipt points to it
  // instead of repeating it, and the window's own last ask, when another one, is history.
  const currentKey =
    options.latestAsk !== undefined && options.latestAsk.trim() !== ''
      ? itemKey(redactSecrets(options.latestAsk.trim()).text)
      : undefined;
  const statedAsk =
    currentKey === undefined ? windowAsk : windowAsk?.key === currentKey ? undefined : windowAsk;
  const askPlan: AskPlan = {
    statedKeys: new Set(
      [statedAsk?.key, currentKey].filter((key): key is string => key !== undefined),
    ),
    elidedIndex: windowAsk?.index,
    elidedText:
      currentKey === undefined
        ? '(the latest ask, quoted at the top)'
        : statedAsk === undefined
          ? '(the current request, repeated after this handoff)'
          : '(the last ask of these turns, quoted at the top)',
  };
  const composeAsk = (ask: string | undefined) => {
    if (currentKey === undefined) return ask;
    return ask === undefined
      ? HANDOFF_CURRENT_ASK_POINTER
      : `${HANDOFF_CURRENT_ASK_POINTER}\n\n${historicalAskLabel}\n${ask}`;
  };

  // Fixed parts: the latest ask (clipped only when it alone would crowd out everything else) and counts.
  const fixed: HandoffSections = {};
  let latestAskClipped = false;
  if (statedAsk) {
    const askBudget = Math.floor(maxTokens * 0.6);
    let ask = statedAsk.text;
    const askTokens = count(ask);
    if (askTokens > askBudget) {
      latestAskClipped = true;
      let length = Math.floor(ask.length * (askBudget / askTokens));
      ask = clipText(statedAsk.text, length);
      while (length > 0 && count(ask) > askBudget) {
        length = Math.floor(length * 0.8);
        ask = clipText(statedAsk.text, length);
      }
    }
    fixed.latestAsk = composeAsk(ask);
  } else if (currentKey !== undefined) {
    fixed.latestAsk = HANDOFF_CURRENT_ASK_POINTER;
  }
  fixed.counts = countsBody(facts);
  let fixedTokens = count(renderHandoff(fixed));
  if (fixedTokens > maxTokens) {
    fixed.counts = countsBody(facts, 5);
    fixedTokens = count(renderHandoff(fixed));
  }
  if (fixedTokens > maxTokens && statedAsk !== undefined) {
    latestAskClipped = true;
    fixed.latestAsk = composeAsk(
      clipText(
        statedAsk.text,
        Math.max(40, (maxTokens - count(renderHandoff({ counts: fixed.counts }))) * 2),
      ),
    );
    fixedTokens = count(renderHandoff(fixed));
  }
  if (fixedTokens > maxTokens) {
    fixed.counts = `Messages: ${facts.messageCount}.`;
    fixedTokens = count(renderHandoff(fixed));
  }

  const { sourceIndexes } = options;
  const where = (index: number) =>
    sourceIndexes === undefined || sourceIndexes[index] === undefined
      ? ''
      : ` (msg ${sourceIndexes[index]})`;
  const candidates = buildCandidates(facts, options.previousSummary, lastTurns, askPlan, where);
  for (const candidate of candidates) {
    // Actions get their number (`12. `) when rendered.
    const numbered = candidate.section === 'completedActions' || candidate.section === 'inProgress';
    // A file is a word of a line (` path`); other items are lines of their own.
    candidate.tokens =
      candidate.section === 'files'
        ? count(` ${candidate.text}`)
        : count(candidate.text) + 1 + (numbered ? 2 : 0);
  }
  scoreFiles(candidates);
  // Highest salience first; ties broken by position and text so the order never depends on chance.
  const ranked = [...candidates].sort(
    (a, b) =>
      b.score - a.score || b.order - a.order || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0),
  );

  const headingCosts = new Map(
    itemSections.map((section) => [
      section,
      count(`## ${HANDOFF_SECTIONS.find((entry) => entry.key === section)!.title}`) +
        2 +
        (section === 'files' ? count(`${EDITED_FILES_LABEL}\n${OTHER_FILES_LABEL}`) : 0),
    ]),
  );
  const headingCost = (section: ItemSection) => headingCosts.get(section)!;
  const reserve =
    24 * itemSections.filter((section) => candidates.some((c) => c.section === section)).length;
  const free = Math.max(0, maxTokens - fixedTokens - reserve);
  const chosen = new Set<Candidate>();
  const spent = new Map<ItemSection, number>();
  let used = 0;
  for (const capped of [true, false]) {
    for (const candidate of ranked) {
      if (chosen.has(candidate)) continue;
      const opened = spent.has(candidate.section);
      const cost = candidate.tokens + (opened ? 0 : headingCost(candidate.section));
      if (used + cost > free) continue;
      const sectionSpent = spent.get(candidate.section) ?? 0;
      if (capped && sectionSpent + cost > free * sectionCaps[candidate.section]) continue;
      chosen.add(candidate);
      spent.set(candidate.section, sectionSpent + cost);
      used += cost;
    }
  }

  // Per-item counts are estimates of the joined text; trim the least salient items until it fits.
  let sections = renderSelection(fixed, candidates, chosen);
  let text = redactSecrets(renderHandoff(sections)).text;
  let tokens = count(text);
  const byAscendingScore = ranked.filter((candidate) => chosen.has(candidate)).reverse();
  while (tokens > maxTokens && byAscendingScore.length > 0) {
    let excess = tokens - maxTokens;
    while (excess > 0 && byAscendingScore.length > 0) {
      const dropped = byAscendingScore.shift()!;
      chosen.delete(dropped);
      excess -= dropped.tokens;
    }
    sections = renderSelection(fixed, candidates, chosen);
    text = redactSecrets(renderHandoff(sections)).text;
    tokens = count(text);
  }
  if (tokens > maxTokens) {
    // Only collapse lines are left: drop them, keeping header, latest ask, counts and footer.
    sections = { ...fixed };
    text = redactSecrets(renderHandoff(sections)).text;
    tokens = count(text);
  }

  // Counted in window items: a shared line for five identical calls shows five calls.
  const stat = (section: ItemSection): ReceiptSectionStats => {
    const items = candidates.filter((candidate) => candidate.section === section);
    const weight = (list: Candidate[]) => list.reduce((sum, item) => sum + (item.weight ?? 1), 0);
    return { total: weight(items), shown: weight(items.filter((item) => chosen.has(item))) };
  };
  const redactedSections: HandoffSections = {};
  for (const [key, body] of Object.entries(sections) as Array<[HandoffSectionKey, string]>) {
    redactedSections[key] = redactSecrets(body).text;
  }
  return {
    text,
    sections: redactedSections,
    stats: {
      tokens,
      maxTokens,
      messages: facts.messageCount,
      toolCalls: facts.toolCalls.length,
      asks: stat('pendingAsks'),
      actions: stat('completedActions'),
      pendingActions: stat('inProgress'),
      files: stat('files'),
      errors: stat('blockers'),
      turns: stat('lastTurns'),
      previousSummaryLines: stat('previousSummary'),
      latestAskClipped,
    },
  };
}
