import type { ModelMessage } from '@ai-sdk/provider-utils';
import {
  extractHandoffFacts,
  HANDOFF_SECTIONS,
  type HandoffSectionKey,
  type HandoffSections,
} from '@baton/fallback';
import { markdownHeading } from './markdown-heading.js';

/** Facts the receipt extractor finds in a span (read from redacted messages only). */
export interface SpanFacts {
  /** User asks in the span, latest first (the pinned latest request excluded: it stays verbatim). */
  asks: string[];
  /** Paths mentioned, most referenced first. */
  files: string[];
  /** Error lines, unresolved first, then most frequent. */
  errors: string[];
  /** Tool names called, most called first. */
  tools: string[];
  /** Open work: tool calls that never got a result (`name target`). */
  openWork: string[];
}

export type FactClass = keyof SpanFacts;

/**
 * In the order the top-up fills them. Asks first: the receipt gives them its highest score and most
 * of its room, so a summary topped up after the other classes kept fewer asks than the receipt did.
 */
export const factClasses: readonly FactClass[] = ['asks', 'errors', 'openWork', 'files', 'tools'];

/**
 * Why a summariser reply was not used: `empty` (fewer than three words, or headings with nothing
 * under them), `truncated` (the model
 * stopped at its output cap), `refusal` (a refusal phrase opens it and it holds none of the span's
 * facts), `off-topic` (too few of its words come from the span; see `verifySummary`).
 */
export type SummaryRejection = 'empty' | 'truncated' | 'refusal' | 'off-topic';

/** What checking a summary against its span found and did. */
export interface SummaryVerification {
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
  /** Sections of the reply dropped to make room for earlier asks it missed, in the order dropped. */
  displacedSections: HandoffSectionKey[];
  /** Why the reply was rejected; absent when it was accepted. */
  rejection?: SummaryRejection;
}

/**
 * Most facts of each class checked (and so at most appended): the receipt's own scale. The receipt
 * lists earlier asks until its budget runs out, so they are bounded by the length check rather
 * than by a small count.
 */
const perClassLimit: Record<FactClass, number> = {
  asks: 40,
  files: 12,
  errors: 8,
  tools: 8,
  openWork: 4,
};

const factLength = 200;

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clipFact(text: string): string {
  const collapsed = collapse(text);
  return collapsed.length > factLength ? `${collapsed.slice(0, factLength - 1)}…` : collapsed;
}

/**
 * The deterministic facts of a span, from `@baton/fallback`'s receipt extractor. `messages` must be
 * redacted already: facts are appended to summaries as they are. `excludeAsks` holds positions (in
 * `messages`) of asks that stay verbatim beside the summary.
 */
export function extractSpanFacts(
  messages: readonly ModelMessage[],
  excludeAsks: ReadonlySet<number> = new Set(),
): SpanFacts {
  const facts = extractHandoffFacts(messages);
  // Each class is read in order only until its limit of distinct facts: filtering, copying and
  // mapping every ask, file and call of a 50,000-message span (and a Set of all of them) cost
  // megabytes for the few dozen kept. The lists are this call's own, so sorting them in place
  // copies nothing.
  const asks = new FactList('asks');
  // Asks in the receipt's form: its 200-character key (cut on a space), every ask however short, so
  // a topped-up summary states each one exactly as the receipt would. Latest first.
  for (let at = facts.asks.length - 1; at >= 0 && !asks.full; at--) {
    const ask = facts.asks[at]!;
    if (!excludeAsks.has(ask.index)) asks.add(ask.key);
  }
  const files = new FactList('files');
  facts.files.sort((a, b) => b.references - a.references || b.lastIndex - a.lastIndex);
  for (let at = 0; at < facts.files.length && !files.full; at++) files.add(facts.files[at]!.path);
  const errors = new FactList('errors');
  facts.errors.sort((a, b) => Number(a.resolved) - Number(b.resolved) || b.count - a.count);
  for (let at = 0; at < facts.errors.length && !errors.full; at++) {
    errors.add(clipFact(facts.errors[at]!.line));
  }
  const tools = new FactList('tools');
  for (let at = 0; at < facts.toolCounts.length && !tools.full; at++) {
    tools.add(facts.toolCounts[at]![0]);
  }
  const openWork = new FactList('openWork');
  for (let at = 0; at < facts.toolCalls.length && !openWork.full; at++) {
    const call = facts.toolCalls[at]!;
    if (call.outcome === 'no result') openWork.add(clipFact(`${call.name} ${call.target}`));
  }
  return {
    asks: asks.values,
    files: files.values,
    errors: errors.values,
    tools: tools.values,
    openWork: openWork.values,
  };
}

/** The first distinct non-empty facts of a class, in the order added, up to its limit. */
class FactList {
  readonly values: string[] = [];
  readonly #limit: number;
  constructor(kind: FactClass) {
    this.#limit = perClassLimit[kind];
  }
  get full(): boolean {
    return this.values.length >= this.#limit;
  }
  add(value: string): void {
    if (value === '' || this.full || this.values.includes(value)) return;
    this.values.push(value);
  }
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

/** Word stems (first four letters) of a text: inflections and identifiers' parts match. */
export function wordStems(text: string): Set<string> {
  return wordStemsOf([text]);
}

const longestStopWord = Math.max(...[...stopWords].map((word) => word.length));

/** The letter a UTF-16 unit lower-cases to (0-25), or -1: what `toLowerCase` makes of it in a-z. */
function letterOf(code: number): number {
  if (code >= 97 && code <= 122) return code - 97;
  if (code >= 65 && code <= 90) return code - 65;
  // The only other units whose lower case holds a-z: the Kelvin sign (k) and I with a dot above
  // (i followed by a combining dot, which ends the word; see `wordStemsOf`).
  if (code === 0x212a) return 10;
  if (code === 0x130) return 8;
  return -1;
}

// `text.charCodeAt(i)` looks `charCodeAt` up on `text` at every character through the call site's
// property cache, keyed by the string's internal form (flat or joined, sliced, one or two bytes a
// character): past four forms the site goes megamorphic and the scan makes a generic lookup per
// character. Called through the prototype's function, nothing is looked up on `text`.
const charCodeAt = String.prototype.charCodeAt;

/** A word's first four letters as a number (base 26): its stem's index. */
const stemCount = 26 ** 4;

/**
 * Stop words by stem index, each as the code of its letters after the fourth (base 27, a = 1, so
 * lengths differ): a word is checked against them with small integers, without building it.
 */
const stopWordTails = new Map<number, Set<number>>();
for (const stopWord of stopWords) {
  let stem = 0;
  let tail = 0;
  for (let index = 0; index < stopWord.length; index++) {
    const letter = stopWord.charCodeAt(index) - 97;
    if (index < 4) stem = stem * 26 + letter;
    else tail = tail * 27 + letter + 1;
  }
  let tails = stopWordTails.get(stem);
  if (!tails) {
    tails = new Set();
    stopWordTails.set(stem, tails);
  }
  tails.add(tail);
}

function stemText(stem: number): string {
  const d = stem % 26;
  const c = Math.floor(stem / 26) % 26;
  const b = Math.floor(stem / 676) % 26;
  const a = Math.floor(stem / 17_576);
  return String.fromCharCode(97 + a, 97 + b, 97 + c, 97 + d);
}

/**
 * `wordStems` of the texts joined by line breaks, without joining them: a span's transcript runs to
 * megabytes, and its joined, lower-cased copy and its array of every word were most of what
 * checking a summary allocated. A word never spans two texts (a line break ends it). The same stems,
 * in the same order, as matching `/[a-z]{4,}/g` in each lower-cased text, found by scanning the
 * text's units: no lower-cased copy, no match objects, and one string per distinct stem.
 */
export function wordStemsOf(texts: readonly string[]): Set<string> {
  const scanner = new WordStemScanner();
  // Indexed: `for...of` here made an iterator result per text of the span.
  for (let at = 0; at < texts.length; at++) scanner.add(texts[at]!);
  return scanner.stems;
}

/**
 * `wordStemsOf` fed one text at a time: `stems` after adding texts a, b, … is `wordStemsOf([a, b,
 * …])`. A transcript's pieces can be added as they are serialised, without joining them, when no
 * word runs across two pieces (every piece boundary has a non-letter on one side).
 */
export class WordStemScanner {
  readonly stems = new Set<string>();
  readonly #seen = new Uint8Array(stemCount);

  // The word being read (letters so far, its stem's code, the code of its letters past the stem)
  // is kept in locals for the loop, not in fields: a word never runs from one call into the next.
  add(text: string): void {
    const length = text.length;
    let letters = 0;
    let stem = 0;
    let tail = 0;
    for (let index = 0; index < length; index++) {
      const code = charCodeAt.call(text, index);
      const letter = letterOf(code);
      if (letter < 0) {
        if (letters > 0) {
          this.#end(letters, stem, tail);
          letters = 0;
          stem = 0;
          tail = 0;
        }
        continue;
      }
      if (letters < 4) stem = stem * 26 + letter;
      else if (letters < longestStopWord) tail = tail * 27 + letter + 1;
      letters++;
      // I with a dot above lower-cases to i and a combining dot: the word ends after the i.
      if (code === 0x130) {
        this.#end(letters, stem, tail);
        letters = 0;
        stem = 0;
        tail = 0;
      }
    }
    if (letters > 0) this.#end(letters, stem, tail);
  }

  #end(length: number, stem: number, tail: number): void {
    if (length >= 4 && this.#seen[stem] === 0) {
      const stopTails = length > longestStopWord ? undefined : stopWordTails.get(stem);
      if (stopTails === undefined || !stopTails.has(tail)) {
        this.#seen[stem] = 1;
        this.stems.add(stemText(stem));
      }
    }
  }
}

function basename(path: string): string {
  const parts = path.split(/[/\\]/).filter((part) => part !== '');
  return parts.at(-1) ?? path;
}

const wordCharacter = /[\p{L}\p{N}_]/u;
const pathCharacter = /[\p{L}\p{N}_./\\@~-]/u;

/**
 * Whether `needle` occurs in `text` as a whole: not glued to a letter, digit or underscore at an end
 * where the needle itself has one (the tool `Read` is not in "already", the ask "ok" not in "took").
 */
function containsWhole(text: string, needle: string): boolean {
  if (needle === '') return false;
  const guardStart = wordCharacter.test(needle[0]!);
  const guardEnd = wordCharacter.test(needle.at(-1)!);
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    const before = text[at - 1];
    const after = text[at + needle.length];
    if (guardStart && before !== undefined && wordCharacter.test(before)) continue;
    if (guardEnd && after !== undefined && wordCharacter.test(after)) continue;
    return true;
  }
  return false;
}

/**
 * Whether the (lower-cased) summary names the (lower-cased) path: a path token in it that is the
 * path, or a tail of it at a folder boundary, or its bare file name. Another folder's file of the
 * same name (`b/src/index.ts` for `a/src/index.ts`) is not it.
 */
function namesPath(lower: string, path: string): boolean {
  const name = basename(path);
  if (name.length < 4) return containsWhole(lower, path);
  for (let at = lower.indexOf(name); at !== -1; at = lower.indexOf(name, at + 1)) {
    const end = at + name.length;
    const after = lower[end];
    if (after !== undefined && wordCharacter.test(after)) continue;
    // A token longer than the path (and a `./`) cannot be it: the scan stops there, so a reply of
    // one endless path-like run costs its length times the path's, not its length squared.
    const limit = Math.max(0, end - path.length - 2);
    let start = at;
    while (start > limit && pathCharacter.test(lower[start - 1]!)) start--;
    if (start > 0 && pathCharacter.test(lower[start - 1]!)) continue;
    const token = lower.slice(start, end).replace(/^\.\//, '');
    if (
      token === name ||
      token === path ||
      path.endsWith(`/${token}`) ||
      path.endsWith(`\\${token}`)
    ) {
      return true;
    }
  }
  return false;
}

/** Whether the summary holds a fact: verbatim, by file name, or (text facts) most of its words. */
function holds(
  kind: FactClass,
  fact: string,
  lower: string,
  flat: string,
  summaryWords: Set<string>,
): boolean {
  switch (kind) {
    case 'tools':
      return containsWhole(lower, fact.toLowerCase());
    case 'files':
      return namesPath(lower, fact.toLowerCase());
    case 'asks':
      // Stated, not paraphrased: a small model's restatement with most of an ask's words dropped
      // its wording and its details, which the receipt quotes (case and all).
      return containsWhole(flat, fact);
    default: {
      if (lower.includes(fact.toLowerCase().slice(0, 60))) return true;
      const words = [...new Set(contentWords(fact))];
      if (words.length === 0) return false;
      const found = words.filter((word) => summaryWords.has(word)).length;
      return found / words.length >= 0.6;
    }
  }
}

/** Words a paraphrased heading may use for each section, checked in order (first match wins). */
const headingWords: Array<[HandoffSectionKey, RegExp]> = [
  ['latestAsk', /\blatest (user )?(ask|request)\b/],
  ['pendingAsks', /\b(earlier|pending|open|user) (asks?|requests?)\b|\basks?\b|\brequests?\b/],
  ['goal', /\b(goal|objective|aim|purpose|task|overview)s?\b/],
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
  ['remainingWork', /\b(remaining|todo|to do|next steps?|pending work|left to do|open work)\b/],
  ['criticalContext', /\b(context|notes?|details?|summary|other|key (facts|information))\b/],
];

/** Sections a model may write: never the ones Baton fills itself. */
const batonOnly = new Set<HandoffSectionKey>([
  'addedFacts',
  'previousSummary',
  'lastTurns',
  'counts',
]);

function normalizeHeading(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z -]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const exactTitles = new Map<string, HandoffSectionKey>(
  HANDOFF_SECTIONS.map(({ key, title }) => [normalizeHeading(title), key]),
);

function sectionForHeading(heading: string): HandoffSectionKey | undefined {
  const normalized = normalizeHeading(heading);
  const exact = exactTitles.get(normalized);
  if (exact !== undefined) return batonOnly.has(exact) ? 'criticalContext' : exact;
  if (normalized === '' || normalized.split(' ').length > 8) return undefined;
  for (const [key, pattern] of headingWords) if (pattern.test(normalized)) return key;
  return undefined;
}

/**
 * A heading line in any common form: `## X`, `**X**`, `X:` alone, `1. X:` alone, or a short label
 * that opens a line (`**X:** text` with the rest as body, `X: text` of at most three words kept whole).
 */
function headingOf(line: string): { heading: string; rest: string } | undefined {
  const markdown = markdownHeading(line);
  if (markdown !== undefined) return { heading: markdown, rest: '' };
  const bold = /^\s*(?:\d+[.)]\s*)?\*\*([^*]{1,80}?):?\*\*:?\s*(.*)$/.exec(line);
  if (bold) return { heading: bold[1]!, rest: bold[2]! };
  const label = /^\s*(?:\d+[.)]\s*)?([A-Za-z][A-Za-z /&()-]{1,40}):(?:\s+(.*))?$/.exec(line);
  if (label && (label[2] === undefined || label[1]!.trim().split(/\s+/).length <= 3)) {
    // A plain label keeps its line: `Error: text` is content as much as a heading.
    return { heading: label[1]!, rest: label[2] === undefined ? '' : line.trim() };
  }
  return undefined;
}

const refusal =
  /\b(i(?:'m| am) (?:sorry|unable|not able)|i (?:can ?not|can't|cannot) (?:help|assist|do|provide|comply|summari[sz]e|complete|write)|as an ai\b|i (?:will|must) not|i won't|i'm afraid i can)/i;

const emptyBody = /^(none\.?|n\/a|-|\(none\)|nothing\.?)$/i;

export interface VerifySummaryOptions {
  /** The model stopped at its output cap. Default false. */
  truncated?: boolean;
  /** Whether to append missing facts. Default true. */
  topUp?: boolean;
  /**
   * Whether a text fits: the top-up adds facts only while the rendered sections still fit. Default:
   * always fits (the per-class limits still bound it).
   */
  fits?: (sections: HandoffSections) => boolean;
}

/** Reply sections that give way to missing asks when the record is full, least specific first. */
const displaceable: readonly HandoffSectionKey[] = [
  'criticalContext',
  'goal',
  'activeState',
  'constraints',
  'resolvedQuestions',
  'decisions',
  'completedActions',
  'inProgress',
  'remainingWork',
  'files',
  'blockers',
  'pendingAsks',
];

/** How each appended fact is labelled inside the `addedFacts` section. */
const factLabels: Record<FactClass, string> = {
  asks: 'earlier ask',
  files: 'file',
  errors: 'error',
  tools: 'tool',
  openWork: 'open work',
};

/** Distinct word stems a fact-free reply must share with its span to count as about it. */
const minimumSharedStems = 2;

/**
 * Reads whatever structure a summariser reply has (markdown, bold or `Label:` headings in any
 * wording, or bare prose, which becomes critical context), drops lines it repeats, and checks the
 * span's deterministic facts against it. Rejects the reply as `empty` (fewer than three words, or headings with nothing under them),
 * `truncated`, `refusal` (a refusal phrase in its first 300 characters and none of the span's facts)
 * or `off-topic` (without three of the requested section headings: none of the span's facts and under
 * a quarter of its word stems (or, past three stems, fewer than two) from the span, or under a tenth whatever it holds). Otherwise appends the missing facts, bounded, under the
 * `addedFacts` section, so the summary never holds fewer of them than the receipt would.
 */
export function verifySummary(
  reply: string,
  facts: SpanFacts,
  spanStems: ReadonlySet<string>,
  options: VerifySummaryOptions = {},
): { sections: HandoffSections | undefined; verification: SummaryVerification } {
  const zero = () => ({ asks: 0, files: 0, errors: 0, tools: 0, openWork: 0 });
  const verification: SummaryVerification = {
    facts: zero(),
    present: zero(),
    factCoverage: 1,
    added: { asks: [], files: [], errors: [], tools: [], openWork: [] },
    droppedRepeatedLines: 0,
    displacedSections: [],
  };
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const line of reply.replace(/\r\n?/g, '\n').split('\n')) {
    // Models often wrap markdown in a code fence.
    if (/^\s*```[a-z]*\s*$/i.test(line)) continue;
    const key = collapse(line).toLowerCase();
    if (key.length >= 8 && seen.has(key)) {
      verification.droppedRepeatedLines++;
      continue;
    }
    if (key.length >= 8) seen.add(key);
    lines.push(line);
  }
  const cleaned = lines.join('\n').trim();
  const lower = cleaned.toLowerCase();
  const flat = cleaned.replace(/\s+/g, ' ');
  const summaryWords = new Set(contentWords(cleaned));
  let present = 0;
  let total = 0;
  const missing: SpanFacts = { asks: [], files: [], errors: [], tools: [], openWork: [] };
  for (const kind of factClasses) {
    verification.facts[kind] = facts[kind].length;
    for (const fact of facts[kind]) {
      total++;
      if (holds(kind, fact, lower, flat, summaryWords)) {
        verification.present[kind]++;
        present++;
      } else missing[kind].push(fact);
    }
  }
  verification.factCoverage = total === 0 ? 1 : present / total;
  const reject = (rejection: SummaryRejection) => ({
    sections: undefined,
    verification: { ...verification, rejection },
  });

  if ((cleaned.match(/[\p{L}\p{N}]{2,}/gu) ?? []).length < 3) return reject('empty');
  if (options.truncated) return reject('truncated');
  if (present === 0 && refusal.test(cleaned.slice(0, 300))) return reject('refusal');

  // Sections in the reply's own order; text before any heading (or bare prose) is context.
  const bodies = new Map<HandoffSectionKey, string[]>();
  // Appended in place: copying a section's body for every line added to it made a reply of many
  // lines under one heading cost quadratic time (40,000 lines, 17 s).
  const bodyOf = (key: HandoffSectionKey): string[] => {
    const body = bodies.get(key);
    if (body !== undefined) return body;
    const started: string[] = [];
    bodies.set(key, started);
    return started;
  };
  let current: HandoffSectionKey = 'criticalContext';
  let exactHeadings = 0;
  for (const line of lines) {
    const heading = headingOf(line);
    const key = heading === undefined ? undefined : sectionForHeading(heading.heading);
    if (key !== undefined) {
      if (exactTitles.has(normalizeHeading(heading!.heading))) exactHeadings++;
      // The latest ask stays verbatim beside the summary; a model's restatement is history.
      current = key === 'latestAsk' ? 'pendingAsks' : key;
      if (heading!.rest.trim() !== '') bodyOf(current).push(heading!.rest);
      continue;
    }
    bodyOf(current).push(line);
  }
  // A reply in the requested layout is the model's record and the top-up covers what it missed;
  // one without it must show that it is about the span.
  if (exactHeadings < 3) {
    const replyStems = [...wordStems(cleaned)];
    const shared = replyStems.filter((stem) => spanStems.has(stem)).length;
    const share = replyStems.length === 0 ? 0 : shared / replyStems.length;
    // A reply of a few stems shares a quarter of them by one common word (`calls`): past three
    // stems, a reply with none of the facts must share more than one. Three or fewer (`## Goal` /
    // `Fix the build.`) say too little to tell, and the top-up adds the facts either way.
    const tooFew =
      present === 0 && (share < 0.25 || (replyStems.length > 3 && shared < minimumSharedStems));
    if (tooFew || share < 0.1) return reject('off-topic');
  }
  const sections: HandoffSections = {};
  for (const [key, body] of bodies) {
    const text = body.join('\n').trim();
    if (text !== '' && !emptyBody.test(text)) sections[key] = text;
  }
  // The requested headings echoed with nothing (or "None") under them: a template, not a record.
  if (Object.keys(sections).length === 0) return reject('empty');

  if (options.topUp !== false) {
    const fits = options.fits ?? (() => true);
    const items: string[] = [];
    for (const kind of factClasses) {
      for (const fact of missing[kind]) {
        const item = `- ${factLabels[kind]}: ${fact}`;
        let fitted = fits({ ...sections, addedFacts: [...items, item].join('\n') });
        // The receipt quotes asks before anything else; a reply that filled the room with its own
        // prose gives way to them, its least specific sections first.
        while (!fitted && kind === 'asks') {
          const displaced = displaceable.find((key) => sections[key] !== undefined);
          if (displaced === undefined) break;
          delete sections[displaced];
          verification.displacedSections.push(displaced);
          fitted = fits({ ...sections, addedFacts: [...items, item].join('\n') });
        }
        if (!fitted) break;
        items.push(item);
        verification.added[kind].push(fact);
      }
    }
    if (items.length > 0) sections.addedFacts = items.join('\n');
  }
  return { sections, verification };
}
