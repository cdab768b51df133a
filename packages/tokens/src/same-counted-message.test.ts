import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from './index.js';
import { sameCountedMessage } from './same-counted-message.js';
import { pngHeader } from './test-utils/png-header.js';

// Text of every kind the counter splits differently: ASCII words, Latin-1, CJK, emoji, digits.
const text = fc.noBias(
  fc.oneof(
    fc.string({ maxLength: 24 }),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.stringMatching(/^[a-z ]{0,20}$/),
    fc.stringMatching(/^[\u00c0-\u00ff\u4e00-\u4e40 0-9]{0,12}$/),
  ),
);
const json: fc.Arbitrary<unknown> = fc.noBias(
  fc.jsonValue({ maxDepth: 3 }).map((value) => ({ value, when: new Date(1_700_000_000_000) })),
);
const detail = fc.constantFrom('low', 'high');
const message = fc.oneof(
  fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), content: text }),
  fc.record(
    { role: fc.constant('user'), content: text, name: text, id: text },
    { requiredKeys: ['role', 'content'] },
  ),
  fc.record({
    role: fc.constant('assistant'),
    content: fc.tuple(text, text, json, detail).map(([said, id, input, imageDetail]) => [
      { type: 'text', text: said },
      {
        type: 'tool-call',
        toolCallId: id,
        toolName: 'search',
        input,
        providerOptions: { openai: { imageDetail } },
      },
    ]),
    providerOptions: fc.record({ anthropic: fc.record({ cacheControl: text }) }),
  }),
  fc.record({
    role: fc.constant('tool'),
    content: fc.tuple(text, json).map(([id, value]) => [
      { type: 'tool-result', toolCallId: id, toolName: 'search', output: { type: 'json', value } },
      {
        type: 'tool-result',
        toolCallId: id,
        toolName: 'read',
        output: { type: 'text', value: id },
      },
    ]),
  }),
  fc.record({
    role: fc.constant('user'),
    content: fc
      .tuple(fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 1, max: 4000 }), detail)
      .map(([width, height, imageDetail]) => [
        {
          type: 'image',
          image: pngHeader(width, height),
          providerOptions: { openai: { imageDetail } },
        },
      ]),
  }),
  fc.record({
    role: fc.constant('assistant'),
    content: fc.constant(null),
    tool_calls: fc
      .tuple(text, text)
      .map(([id, args]) => [
        { id, type: 'function', function: { name: 'search', arguments: args } },
      ]),
  }),
);

type Path = Array<string | number>;

/** Every leaf of `value` (strings, numbers, booleans, dates, bytes) with its path. */
function leaves(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (value instanceof Date || value instanceof Uint8Array) out.push(path);
  else if (Array.isArray(value))
    value.forEach((item, i) => {
      leaves(item, [...path, i], out);
    });
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) leaves(item, [...path, key], out);
  else if (value !== null) out.push(path);
  return out;
}

/** A different leaf of the same kind: same-length string edits, width bytes, an invalid date. */
function changed(leaf: unknown, seed: number): unknown {
  if (typeof leaf === 'string') {
    if (leaf === 'low' || leaf === 'high') return leaf === 'low' ? 'high' : 'low';
    if (leaf.length === 0) return 'x';
    const at = seed % leaf.length;
    const code = leaf.charCodeAt(at);
    // Same length: a different code unit in the same range (ASCII stays ASCII, CJK stays CJK).
    const replacement = code < 128 ? 32 + ((code - 31) % 95) : code + 1;
    return leaf.slice(0, at) + String.fromCharCode(replacement) + leaf.slice(at + 1);
  }
  if (typeof leaf === 'number') return leaf + 1;
  if (typeof leaf === 'boolean') return !leaf;
  // A date a second later usually keeps the token count; an invalid one serialises to null.
  if (leaf instanceof Date) return new Date(Number.NaN);
  if (leaf instanceof Uint8Array) {
    const copy = leaf.slice();
    copy[18] = (copy[18]! + 1 + (seed % 7)) & 0xff; // the width's second byte
    return copy;
  }
  return leaf;
}

function setAt(root: unknown, path: Path, value: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
}

const counted = (counter: ReturnType<typeof createTokenCounter>, messages: unknown[]) => {
  try {
    return counter.countMessages(messages as never);
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('sameCountedMessage', () => {
  it('re-counts deep copies with a random leaf edited anywhere like a fresh counter (property)', () => {
    // Every step deep-copies the conversation (as the AI SDK hands over fresh objects) and edits
    // one leaf: message text, a nested tool-call input, a date in it, provider options, image
    // bytes, an id; most edits keep the length. The memoised counter must agree with a fresh one.
    let edits = 0;
    let changedCounts = 0;
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 6 }),
        (start, steps) => {
          const counter = createTokenCounter();
          let messages: unknown[] = start;
          let before = counted(counter, messages);
          for (const [pick, seed] of steps) {
            messages = structuredClone(messages);
            const paths = leaves(messages);
            const path = paths[pick % paths.length]!;
            let leaf: unknown = messages;
            for (const key of path) leaf = (leaf as Record<string | number, unknown>)[key];
            setAt(messages, path, changed(leaf, seed));
            const after = counted(counter, messages);
            expect(after).toBe(counted(createTokenCounter(), messages));
            edits++;
            if (after !== before) changedCounts++;
            before = after;
          }
        },
      ),
      { numRuns: 300 },
    );
    // The edits must reach the count often, or the property proves little.
    expect(changedCounts).toBeGreaterThan(edits / 4);
  });

  it('ignores only keys the count never reads', () => {
    const base = { role: 'user', content: 'hello there', id: 'a', providerOptions: { x: 1 } };
    expect(sameCountedMessage(base, { ...base, id: 'b', providerOptions: { x: 2 } })).toBe(true);
    expect(sameCountedMessage(base, { ...base, name: 'n' })).toBe(false);
    expect(sameCountedMessage(base, { ...base, content: 'hello thera' })).toBe(false);
    expect(sameCountedMessage(base, { ...base, role: 'tool' })).toBe(false);
    expect(sameCountedMessage(base, { ...base, tool_call_id: 'c' })).toBe(false);
    expect(sameCountedMessage(base, Object.assign([], base))).toBe(false);
    // Without content, the presence of tool calls decides between a count and an error.
    const call = { role: 'assistant', tool_calls: undefined };
    expect(sameCountedMessage(call, { role: 'assistant' })).toBe(false);
    // Dates have no enumerable keys but serialise to different text.
    const input = (time: number) => ({
      role: 'assistant',
      content: [{ type: 'tool-call', toolName: 't', input: { at: new Date(time) } }],
    });
    expect(sameCountedMessage(input(0), input(0))).toBe(false);
  });

  // A typed array's named properties serialise with its bytes (`{"0":1,"note":"a"}`).
  it('re-counts a copy that gains or loses a hidden field the count reads', () => {
    // `for...in` and JSON skip a non-enumerable `toolCallId`, but the count reads it by name.
    const message = (hidden: boolean) => {
      const part: Record<string, unknown> = { type: 'tool-call', toolName: 't', input: 1 };
      if (hidden)
        Object.defineProperty(part, 'toolCallId', {
          value: 'a rather long call id',
          writable: true,
        });
      return [
        { role: 'user', content: 'hello' },
        { role: 'user', content: [part] },
      ];
    };
    for (const [first, second] of [
      [true, false],
      [false, true],
    ]) {
      const counter = createTokenCounter();
      counter.countMessages(message(first!));
      expect(counter.countMessages(message(second!))).toBe(
        createTokenCounter().countMessages(message(second!)),
      );
    }
  });

  it('re-counts a copy whose typed array in a tool input has a different named property', () => {
    const message = (note: string) => {
      const bytes = Object.assign(new Uint8Array([1, 2, 3]), { note });
      return {
        role: 'assistant',
        content: [{ type: 'tool-call', toolName: 't', toolCallId: 'c', input: { bytes } }],
      };
    };
    const longer = message('a much longer note that costs several more tokens');
    const counter = createTokenCounter();
    counter.countMessages([message('a')]);
    expect(counter.countMessages([longer])).toBe(createTokenCounter().countMessages([longer]));
  });
});

type Step =
  | { op: 'append'; message: unknown }
  | { op: 'edit'; pick: number; seed: number }
  | { op: 'replace'; at: number; message: unknown }
  | { op: 'truncate'; keep: number }
  | { op: 'reorder'; from: number; to: number }
  | { op: 'copy' }
  | { op: 'splice'; at: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('append' as const), message }),
  fc.record({ op: fc.constant('edit' as const), pick: fc.nat(), seed: fc.nat() }),
  fc.record({ op: fc.constant('replace' as const), at: fc.nat(), message }),
  fc.record({ op: fc.constant('truncate' as const), keep: fc.nat() }),
  fc.record({ op: fc.constant('reorder' as const), from: fc.nat(), to: fc.nat() }),
  fc.record({ op: fc.constant('copy' as const) }),
  fc.record({ op: fc.constant('splice' as const), at: fc.nat() }),
);

/** Applies `s` to `messages` (the same array, mutated in place, as a caller's history would be). */
function apply(messages: unknown[], s: Step): void {
  const n = messages.length;
  switch (s.op) {
    case 'append':
      messages.push(structuredClone(s.message));
      return;
    case 'edit': {
      if (n === 0) return;
      // A fresh copy of one message, edited: the original object is never mutated.
      const at = s.pick % n;
      const copy = structuredClone(messages[at]);
      const paths = leaves(copy);
      if (paths.length === 0) return;
      const path = paths[s.seed % paths.length]!;
      let leaf: unknown = copy;
      for (const key of path) leaf = (leaf as Record<string | number, unknown>)[key];
      setAt(copy, path, changed(leaf, s.seed));
      messages[at] = copy;
      return;
    }
    case 'replace':
      if (n > 0) messages[s.at % n] = structuredClone(s.message);
      return;
    case 'truncate':
      messages.length = n === 0 ? 0 : s.keep % n;
      return;
    case 'reorder': {
      if (n === 0) return;
      const [moved] = messages.splice(s.from % n, 1);
      messages.splice(s.to % n, 0, moved);
      return;
    }
    case 'copy':
      messages.splice(0, n, ...structuredClone(messages));
      return;
    case 'splice':
      if (n > 0) messages.splice(s.at % n, 1);
      return;
  }
}

describe('countMessages under sequences of history operations', () => {
  it('agrees with a fresh counter after every append, edit, replace, truncate, reorder and copy (property)', () => {
    let steps = 0;
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 6 }),
        fc.array(step, { minLength: 1, maxLength: 12 }),
        (start, operations) => {
          const counter = createTokenCounter();
          const messages: unknown[] = structuredClone(start);
          counted(counter, messages);
          for (const operation of operations) {
            apply(messages, operation);
            expect(counted(counter, messages)).toBe(counted(createTokenCounter(), messages));
            steps++;
          }
        },
      ),
      { numRuns: 400 },
    );
    expect(steps).toBeGreaterThan(400);
  });
});

// Values beyond plain JSON, described by a recipe and built afresh each time (a copy); every node
// holds two variants drawn alike, and a mutation builds one node from its other variant.
type Recipe =
  | { kind: 'leaf'; variants: [unknown, unknown] }
  | { kind: 'typed'; variants: [Buffered, Buffered] }
  | { kind: 'array'; items: Recipe[]; variants: [Extras, Extras] }
  | { kind: 'object'; fields: Array<[string, Recipe]>; variants: [Extras, Extras] }
  | { kind: 'instance'; variants: [Instance, Instance] }
  | { kind: 'part'; template: number; variants: [Extras, Extras] };
interface Buffered {
  type: number;
  bytes: number[];
  named: Array<[string, unknown, boolean]>;
}
interface Extras {
  named: Array<[string, unknown, boolean]>;
  getters: Array<[string, unknown]>;
  symbols: unknown[];
  holes: number[];
  toJson: number | undefined;
}
interface Instance {
  type: number;
  entries: Array<[string, number]>;
}

// Names the counter reads from parts and outputs, so a hidden or extra property can matter.
const fieldName = fc.constantFrom(
  'type',
  'text',
  'data',
  'toolCallId',
  'toolName',
  'mediaType',
  'value',
  'input',
  'note',
  'toJSON',
  'length',
  '0',
  '1',
);
const smallValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -5, max: 999 }),
  fc.constantFrom('data', 'text', 'json', 'tool-call', 'image', 'image/png'),
  fc.constant(undefined),
);
const named = fc.array(fc.tuple(fieldName, smallValue, fc.boolean()), { maxLength: 2 });
const extras: fc.Arbitrary<Extras> = fc.record({
  named,
  getters: fc.array(fc.tuple(fieldName, smallValue), { maxLength: 1 }),
  symbols: fc.array(smallValue, { maxLength: 1 }),
  holes: fc.array(fc.nat({ max: 3 }), { maxLength: 1 }),
  toJson: fc.option(fc.nat({ max: 2 }), { nil: undefined }),
});
// Fields a part's count reads by name, with values of the right type.
const partExtras: fc.Arbitrary<Extras> = fc.record({
  named: fc.array(
    fc.tuple(
      fc.constantFrom('toolCallId', 'text', 'type', 'toolName', 'providerOptions'),
      fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('text', 'tool-call')),
      fc.boolean(),
    ),
    { minLength: 1, maxLength: 2 },
  ),
  getters: fc.oneof(
    { arbitrary: fc.constant<Array<[string, unknown]>>([]), weight: 3 },
    fc.array(fc.tuple(fc.constantFrom('toolCallId', 'text'), fc.string({ maxLength: 12 })), {
      maxLength: 1,
    }),
  ),
  symbols: fc.array(smallValue, { maxLength: 1 }),
  holes: fc.constant([]),
  toJson: fc.option(fc.nat({ max: 2 }), { nil: undefined, freq: 6 }),
});
const buffered: fc.Arbitrary<Buffered> = fc.record({
  type: fc.nat({ max: 5 }),
  bytes: fc.array(fc.nat({ max: 255 }), { maxLength: 6 }),
  named,
});
const instance: fc.Arbitrary<Instance> = fc.record({
  type: fc.nat({ max: 4 }),
  entries: fc.array(fc.tuple(fieldName, fc.integer({ min: 0, max: 99 })), { maxLength: 2 }),
});
const two = <T>(arbitrary: fc.Arbitrary<T>) => fc.tuple(arbitrary, arbitrary);
const recipe: fc.Arbitrary<Recipe> = fc.letrec<{ node: Recipe }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ kind: fc.constant('leaf' as const), variants: two(smallValue) }),
    fc.record({ kind: fc.constant('typed' as const), variants: two(buffered) }),
    fc.record({ kind: fc.constant('instance' as const), variants: two(instance) }),
    fc.record({
      kind: fc.constant('array' as const),
      items: fc.array(tie('node'), { maxLength: 3 }),
      variants: two(extras),
    }),
    fc.record({
      kind: fc.constant('object' as const),
      fields: fc.array(fc.tuple(fieldName, tie('node')), { maxLength: 3 }),
      variants: two(extras),
    }),
  ),
})).node;
const part: fc.Arbitrary<Recipe> = fc.record({
  kind: fc.constant('part' as const),
  template: fc.nat({ max: 3 }),
  variants: two(partExtras),
});

// Shared, so two builds can hold the same function (as spread copies do).
const toJsonMethods = [() => 'a', () => 'a longer replacement text', () => ({ kept: 1 })];
const bufferTypes = [
  (bytes: number[]) => Uint8Array.from(bytes),
  (bytes: number[]) => Uint16Array.from(bytes),
  (bytes: number[]) => Float64Array.from(bytes),
  (bytes: number[]) => Uint8Array.from(bytes).buffer,
  (bytes: number[]) => new DataView(Uint8Array.from(bytes).buffer),
  (bytes: number[]) => Buffer.from(bytes),
];
// Valid content parts, so a field added, hidden or replaced reaches the count rather than an error.
const partTemplates = [
  () => ({ type: 'tool-call', toolName: 't', input: 1 }),
  () => ({ type: 'text', text: 'some text' }),
  () => ({ type: 'tool-result', toolName: 't', output: { type: 'text', value: 'v' } }),
  () => ({ type: 'image', image: 'https://example.com/a.png' }),
];
class Point {
  constructor(
    public x: number,
    public label: string,
  ) {}
}
const instanceTypes = [
  (entries: Array<[string, number]>) => new Map(entries),
  (entries: Array<[string, number]>) => new Set(entries.map(([key]) => key)),
  (entries: Array<[string, number]>) => new Date(entries[0]?.[1] ?? Number.NaN),
  (entries: Array<[string, number]>) => new Point(entries.length, entries[0]?.[0] ?? ''),
  (entries: Array<[string, number]>) =>
    Object.assign(Object.create(null), Object.fromEntries(entries)),
];

/** Defines a property where the target accepts it (a typed array refuses index keys). */
function define(target: object, key: PropertyKey, descriptor: PropertyDescriptor): void {
  try {
    Object.defineProperty(target, key, { configurable: true, ...descriptor });
  } catch {
    // Not definable here: the value stays without it.
  }
}

function decorate(target: object, extra: Extras | Buffered): void {
  for (const [key, value, enumerable] of extra.named)
    define(target, key, { value, enumerable, writable: true });
  if (!('getters' in extra)) return;
  for (const [key, value] of extra.getters)
    define(target, key, {
      get: () => value,
      enumerable: true,
      configurable: true,
    });
  for (const value of extra.symbols) define(target, Symbol('s'), { value, enumerable: true });
  if (extra.toJson !== undefined)
    define(target, 'toJSON', { value: toJsonMethods[extra.toJson], enumerable: false });
}

/** Builds `node` afresh, with the node numbered `flipped` (depth first) from its other variant. */
function build(node: Recipe, flipped: number, counter = { next: 0 }): unknown {
  const variant = node.variants[counter.next++ === flipped ? 1 : 0]!;
  switch (node.kind) {
    case 'leaf':
      return variant;
    case 'typed': {
      const { type, bytes } = variant as Buffered;
      const value = bufferTypes[type]!(bytes);
      decorate(value, variant as Buffered);
      return value;
    }
    case 'instance': {
      const { type, entries } = variant as Instance;
      return instanceTypes[type]!(entries);
    }
    case 'part': {
      const part = partTemplates[node.template]!();
      decorate(part, variant as Extras);
      return part;
    }
    case 'array': {
      const items = node.items.map((item) => build(item, flipped, counter));
      for (const hole of (variant as Extras).holes) if (hole < items.length) delete items[hole];
      decorate(items, variant as Extras);
      return items;
    }
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, field] of node.fields) value[key] = build(field, flipped, counter);
      decorate(value, variant as Extras);
      return value;
    }
  }
}

function nodes(node: Recipe): number {
  if (node.kind === 'array') return 1 + node.items.reduce((sum, item) => sum + nodes(item), 0);
  if (node.kind === 'object')
    return 1 + node.fields.reduce((sum, [, field]) => sum + nodes(field), 0);
  return 1;
}

/** The places a value reaches the count: JSON (tool input, output), content, image data. */
const placed = (where: number, value: unknown): unknown => {
  switch (where % 6) {
    case 0:
      return {
        role: 'assistant',
        content: [{ type: 'tool-call', toolName: 't', toolCallId: 'c', input: value }],
      };
    case 1:
      return {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c', toolName: 't', output: { type: 'json', value } },
        ],
      };
    case 2:
    case 5:
      return { role: 'user', content: Array.isArray(value) ? value : [value] };
    case 3:
      return { role: 'user', content: [{ type: 'image', image: value }] };
    default:
      return { role: 'user', content: [{ type: 'file', mediaType: 'image/png', data: value }] };
  }
};

describe('countMessages with values beyond plain JSON', () => {
  it('re-counts a copy with any one value mutated like a fresh counter (typed arrays, extra array properties, holes, hidden fields, getters, symbols, toJSON, Maps, Sets, Dates, class instances) (property)', () => {
    let steps = 0;
    let changedCounts = 0;
    fc.assert(
      fc.property(
        fc.noBias(fc.nat()),
        fc.oneof(recipe, part),
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        (where, root, flips) => {
          const counter = createTokenCounter();
          // A part goes where parts are read, as content.
          const at = root.kind === 'part' ? 2 : where;
          const messages = (flipped: number) => [
            { role: 'user', content: 'hello' },
            placed(at, build(root, flipped)),
          ];
          let before = counted(counter, messages(-1));
          for (const flip of flips) {
            const next = messages(flip % (nodes(root) + 1));
            const after = counted(counter, next);
            expect(after).toBe(counted(createTokenCounter(), next));
            if (after !== before) changedCounts++;
            before = after;
            steps++;
          }
        },
      ),
      { numRuns: 1500 },
    );
    expect(changedCounts).toBeGreaterThan(steps / 10);
  });
});

// Field names `countMessageTokens` reads (property reads and destructuring), taken from its source
// at test time: an edit adding one of them is what a comparison by named reads could miss.
const countSource = readFileSync(new URL('./count-message-tokens.ts', import.meta.url), 'utf8');
const readNames = [
  ...new Set([
    ...[...countSource.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!),
    ...[...countSource.matchAll(/const \{([^}]*)\}/g)].flatMap((m) =>
      m[1]!.split(',').map((name) => name.trim()),
    ),
  ]),
].filter((name) => /^[A-Za-z_]\w*$/.test(name));

/** A deep copy with fresh objects and fresh strings, keeping prototypes, holes and hidden fields. */
function deepCopy(value: unknown): unknown {
  if (typeof value === 'string') return [...value].join('');
  if (typeof value !== 'object' || value === null) return value;
  // Buffers and Maps are shared between copies and never edited.
  if (ArrayBuffer.isView(value) || value instanceof Map) return value;
  const copy: object = Array.isArray(value)
    ? new Array(value.length)
    : value instanceof Date
      ? new Date(value.getTime())
      : Object.create(Object.getPrototypeOf(value));
  for (const key of Reflect.ownKeys(value)) {
    if (Array.isArray(value) && key === 'length') continue;
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    if ('value' in descriptor) descriptor.value = deepCopy(descriptor.value);
    Object.defineProperty(copy, key, descriptor);
  }
  return copy;
}

/** Every object and array below the messages array (and it), with its parent and key. */
function editableNodes(
  root: unknown,
): Array<{ node: object; parent?: object; key?: string | number }> {
  const out: Array<{ node: object; parent?: object; key?: string | number }> = [];
  const walk = (node: unknown, parent?: object, key?: string | number) => {
    if (typeof node !== 'object' || node === null || ArrayBuffer.isView(node)) return;
    if (node instanceof Map) return;
    out.push({ node, parent, key });
    for (const k of Object.keys(node)) walk((node as Record<string, unknown>)[k], node, k);
  };
  walk(root);
  return out;
}

class Part {
  constructor(fields: object) {
    Object.assign(this, fields);
  }
}

// Messages of the shapes agent transcripts are made of (plain JSON, no Dates, which are never
// compared): text and reasoning parts, tool calls with JSON inputs, text and JSON tool results.
const plainJson = fc.noBias(fc.jsonValue({ maxDepth: 3 }));
const transcriptPart = fc.oneof(
  fc.record({ type: fc.constantFrom('text', 'reasoning'), text }),
  fc.record(
    { type: fc.constant('tool-call'), toolCallId: text, toolName: text, input: plainJson },
    { requiredKeys: ['type', 'toolName', 'input'] },
  ),
  fc.record({
    type: fc.constant('tool-result'),
    toolCallId: text,
    toolName: text,
    output: fc.oneof(
      fc.record({ type: fc.constantFrom('text', 'error-text'), value: text }),
      fc.record({ type: fc.constantFrom('json', 'error-json'), value: plainJson }),
      fc.record({ type: fc.constant('execution-denied'), reason: text }),
    ),
  }),
);
const transcriptMessage = fc.oneof(
  fc.record({ role: fc.constantFrom('user', 'assistant', 'system', 'tool'), content: text }),
  fc.record({
    role: fc.constantFrom('user', 'assistant', 'tool'),
    content: fc.array(transcriptPart, { minLength: 1, maxLength: 3 }),
  }),
);

type StructuralEdit = [kind: number, pick: number, name: number, value: unknown, seed: number];

const editValue = fc.noBias(
  fc.oneof(
    text,
    fc.integer(),
    fc.constant(undefined),
    fc.constant(null),
    fc.constantFrom('text', 'json', 'tool-call', 'tool-result', 'error-text', 'user', 'tool'),
    fc.record({ type: fc.constantFrom('text', 'json'), value: text }),
    fc.array(text, { maxLength: 2 }),
  ),
);
const structuralEdit: fc.Arbitrary<StructuralEdit> = fc.tuple(
  fc.nat({ max: 12 }),
  fc.nat(),
  fc.nat(),
  editValue,
  fc.nat(),
);
const kinds = 13;

/** Applies one edit a re-count must see (or rightly ignore) to a node of `messages`. */
function edit(messages: unknown[], [kind, pick, nameAt, value, seed]: StructuralEdit): void {
  const all = editableNodes(messages);
  const { node, parent, key } = all[pick % all.length]!;
  const record = node as Record<string, unknown>;
  const keys = Object.keys(node);
  const name = nameAt % 3 === 0 ? `extra${nameAt % 5}` : readNames[nameAt % readNames.length]!;
  switch (kind % kinds) {
    case 0: // add or overwrite an enumerable field
      record[name] = value;
      return;
    case 1: // add a hidden field
      if (!Object.hasOwn(node, name))
        Object.defineProperty(node, name, { value, writable: true, configurable: true });
      return;
    case 2: // remove a field
      if (keys.length > 0) delete record[keys[seed % keys.length]!];
      return;
    case 3: {
      // reorder: rotate the keys of an object or the elements of an array
      if (Array.isArray(node)) {
        if (node.length > 1) node.push(node.shift());
        return;
      }
      if (keys.length < 2) return;
      const entries = keys.map((k) => [k, record[k]] as const);
      for (const k of keys) delete record[k];
      entries.push(entries.shift()!);
      for (const [k, v] of entries) record[k] = v;
      return;
    }
    case 4: // a hole, or an undefined, in place of an element
      if (Array.isArray(node) && node.length > 0) {
        const at = seed % node.length;
        if (seed % 2 === 0) delete node[at];
        else node[at] = undefined;
      }
      return;
    case 5: // a class instance with the same fields
      if (parent !== undefined && !Array.isArray(node))
        (parent as Record<string | number, unknown>)[key!] = new Part({ ...node });
      return;
    case 6: // a toJSON
      record.toJSON = () => value;
      return;
    case 7: // an own forEach on an array
      if (Array.isArray(node))
        Object.defineProperty(node, 'forEach', {
          value: (visit: (item: unknown, index: number) => void) => {
            visit(value, 0);
          },
        });
      return;
    case 8: // a getter in place of a field
      if (keys.length > 0)
        Object.defineProperty(node, keys[seed % keys.length]!, {
          // A fresh value on every read: a value shared by copies would be edited in place.
          get: () => deepCopy(value),
          enumerable: true,
        });
      return;
    case 9: // a typed array with a named property in place of a field
      if (keys.length > 0)
        record[keys[seed % keys.length]!] = Object.assign(new Uint8Array([seed & 0xff, 1]), {
          [name]: value,
        });
      return;
    case 10:
    case 11: {
      // One string anywhere (not only in the picked node): a character changed, or lengthened.
      const strings = editableNodes(messages).flatMap(({ node }) =>
        Object.keys(node)
          .filter((k) => typeof (node as Record<string, unknown>)[k] === 'string')
          .map((k) => [node as Record<string, unknown>, k] as const),
      );
      if (strings.length === 0) return;
      const [owner, field] = strings[pick % strings.length]!;
      const old = owner[field] as string;
      const record = owner;
      // A changed character often keeps the count; a longer string rarely does.
      if (old.length === 0 || seed % 2 === 1) record[field] = `${old} ${old}x`;
      else {
        const at = seed % old.length;
        const code = old.charCodeAt(at);
        record[field] =
          old.slice(0, at) + String.fromCharCode(code === 97 ? 98 : 97) + old.slice(at + 1);
      }
      return;
    }
    default: // the value of a field replaced
      if (keys.length > 0) record[keys[seed % keys.length]!] = value;
      return;
  }
}

describe('re-counting deep copies after structural edits', () => {
  it('agrees with a fresh counter after adding, hiding, removing and reordering fields, holes, class instances, toJSON, own forEach, getters and buffers (property)', () => {
    let steps = 0;
    let changedCounts = 0;
    fc.assert(
      fc.property(
        fc.array(fc.oneof(transcriptMessage, transcriptMessage, message), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.array(structuralEdit, { minLength: 1, maxLength: 4 }),
        (start, edits) => {
          const counter = createTokenCounter();
          let messages = start as unknown[];
          let before = counted(counter, messages);
          for (const change of edits) {
            // The re-count of a deep copy compares it with the copy counted before.
            counted(counter, deepCopy(messages) as unknown[]);
            messages = deepCopy(messages) as unknown[];
            try {
              edit(messages, change);
            } catch {
              // An edit a strict-mode write refuses (a getter without a setter) edits nothing.
            }
            const after = counted(counter, messages);
            expect(after).toBe(counted(createTokenCounter(), deepCopy(messages) as unknown[]));
            // And once more, a deep copy of the edited conversation.
            const again = deepCopy(messages) as unknown[];
            expect(counted(counter, again)).toBe(after);
            if (after !== before) changedCounts++;
            before = after;
            steps++;
          }
        },
      ),
      { numRuns: Number(process.env.RECOUNT_RUNS ?? 1000) },
    );
    expect(changedCounts).toBeGreaterThan(steps / 5);
  });
});

/** A conversation with the message or content part at `at` in one of four states. */
function slotVariant(
  messages: unknown[],
  at: number,
  state: number,
  inContent: boolean,
): unknown[] {
  const copy = deepCopy(messages) as unknown[];
  let target = copy;
  let index = at % copy.length;
  if (inContent) {
    const content = (copy[index] as { content?: unknown }).content;
    if (!Array.isArray(content) || content.length === 0) return copy;
    target = content;
    index = at % content.length;
  }
  if (state === 1) delete target[index];
  else if (state === 2) target[index] = undefined;
  else if (state === 3)
    Object.defineProperty(target[index], 'name', { value: 'a hidden name', configurable: true });
  return copy;
}

describe('re-counting slots that hold a hole, an undefined or an uncomparable message', () => {
  it('agrees with a fresh counter whatever state a slot moves between (property)', () => {
    fc.assert(
      fc.property(
        fc.array(transcriptMessage, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.boolean(),
        fc.array(fc.nat({ max: 3 }), { minLength: 2, maxLength: 5 }),
        (messages, at, inContent, states) => {
          const counter = createTokenCounter();
          for (const state of states) {
            const next = slotVariant(messages, at, state, inContent);
            expect(counted(counter, next)).toBe(counted(createTokenCounter(), next));
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
