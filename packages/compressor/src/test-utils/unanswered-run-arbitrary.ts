import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';

/**
 * Operations that grow a conversation the way apps do, with the shapes that stress the tail: runs of
 * 2 to 20 user messages the assistant never answered (a queue, pasted files, failed replies), huge
 * pastes, multi-part asks with images and files, empty asks, tool round trips, system messages in the
 * middle, and credentials in what the user pastes.
 */
export interface AskShape {
  /** Characters of filler (the simple counter takes four a token). */
  size: number;
  shape: 'text' | 'parts' | 'image' | 'file' | 'empty';
  secret: boolean;
}

export type GrowOperation =
  | { kind: 'reply'; size: number }
  | { kind: 'tools'; sizes: number[] }
  | { kind: 'ask'; ask: AskShape }
  | { kind: 'run'; asks: AskShape[] }
  | { kind: 'system' };

const size = (max: number) => fc.noBias(fc.integer({ min: 0, max }));

const askShape: fc.Arbitrary<AskShape> = fc.record({
  // Mostly short asks, some pasted files, some larger than any window used.
  size: fc.oneof(
    { weight: 3, arbitrary: size(400) },
    { weight: 2, arbitrary: size(8_000) },
    { weight: 1, arbitrary: size(40_000) },
  ),
  shape: fc.constantFrom('text', 'text', 'parts', 'image', 'file', 'empty'),
  secret: fc.boolean(),
});

export const growOperation: fc.Arbitrary<GrowOperation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('reply' as const), size: size(3_000) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('tools' as const),
      sizes: fc.array(size(12_000), { minLength: 1, maxLength: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('ask' as const), ask: askShape }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('run' as const),
      asks: fc.array(askShape, { minLength: 2, maxLength: 20 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('system' as const) }) },
);

/** How the conversation opens. */
export interface ConversationStart {
  system: boolean;
  firstAsk: number;
  firstReply: 'text' | 'tools';
  firstReplySize: number;
}

export const conversationStart: fc.Arbitrary<ConversationStart> = fc.record({
  system: fc.boolean(),
  firstAsk: fc.oneof(size(200), size(40_000)),
  firstReply: fc.constantFrom('text', 'tools'),
  firstReplySize: fc.oneof(size(400), size(20_000)),
});

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const vocabulary = ['parse', 'config', 'src/main.ts', 'error', 'value', 'the', 'retry', 'build'];

/** Builds the messages of each operation; ids, markers and secrets are drawn from `random`. */
export class ConversationBuilder {
  readonly messages: ModelMessage[] = [];
  readonly secrets: string[] = [];
  /** The latest user message with content that this builder appended: the ask to keep verbatim. */
  latestAsk: ModelMessage | undefined;
  /** Every user message appended since the assistant last spoke (the unanswered run). */
  unanswered: ModelMessage[] = [];
  #next = 0;
  readonly #random: () => number;

  /** `salt` seeds the draws of markers, fillers and secrets (a property passes a generated one). */
  constructor(salt: number, start: ConversationStart) {
    let state = salt | 0;
    this.#random = () => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) | 0;
      return ((state >>> 8) & 0xffffff) / 0x1000000;
    };
    if (start.system) this.messages.push({ role: 'system', content: this.#marker('system') });
    // The first exchange: a short or huge first ask (an in-context demonstration, a pasted
    // codebase), answered by a reply or by a tool round trip.
    this.#user({ size: start.firstAsk, shape: 'text', secret: false });
    if (start.firstReply === 'tools') this.#tools([start.firstReplySize]);
    else this.#reply(start.firstReplySize);
  }

  apply(operation: GrowOperation): void {
    if (operation.kind === 'reply') this.#reply(operation.size);
    else if (operation.kind === 'tools') this.#tools(operation.sizes);
    else if (operation.kind === 'ask') this.#user(operation.ask);
    else if (operation.kind === 'run') for (const ask of operation.asks) this.#user(ask);
    else this.messages.push({ role: 'system', content: this.#marker('system') });
  }

  /** The credentials drawn so far that appear in any of `requests` (as sent, JSON). */
  leaked(requests: readonly unknown[]): string[] {
    const sent = requests.map((request) => JSON.stringify(request)).join('\n');
    return this.secrets.filter((secret) => sent.includes(secret));
  }

  /** Swaps in a compacted history (the builder keeps appending to it). */
  replace(messages: readonly ModelMessage[]): void {
    this.messages.splice(0, this.messages.length, ...messages);
  }

  #marker(kind: string): string {
    return `${kind}-${++this.#next}-${Math.floor(this.#random() * 1e9).toString(36)}`;
  }

  #filler(characters: number): string {
    const words: string[] = [];
    let length = 0;
    while (length < characters) {
      const word = vocabulary[Math.floor(this.#random() * vocabulary.length)]!;
      words.push(word);
      length += word.length + 1;
    }
    return words.join(' ');
  }

  #secret(): string {
    const body = Array.from(
      { length: 36 },
      () => alphabet[Math.floor(this.#random() * alphabet.length)],
    );
    const secret = `ghp_${body.join('')}`;
    this.secrets.push(secret);
    return secret;
  }

  #user(ask: AskShape): void {
    if (ask.shape === 'empty') {
      // An empty ask, in each of its forms; never the ask to keep.
      const forms: ModelMessage[] = [
        { role: 'user', content: '' },
        { role: 'user', content: [] },
        { role: 'user', content: [{ type: 'text', text: '  \n' }] },
      ];
      const message = forms[Math.floor(this.#random() * forms.length)]!;
      this.messages.push(message);
      this.unanswered.push(message);
      return;
    }
    const text = `${this.#marker('ask')} ${ask.secret ? `token ${this.#secret()} ` : ''}${this.#filler(ask.size)}`;
    let message: ModelMessage;
    if (ask.shape === 'text') message = { role: 'user', content: text };
    else if (ask.shape === 'parts') {
      const cut = Math.floor(text.length / 2);
      message = {
        role: 'user',
        content: [
          { type: 'text', text: text.slice(0, cut) },
          { type: 'text', text: text.slice(cut) },
        ],
      };
    } else if (ask.shape === 'image') {
      message = {
        role: 'user',
        content: [
          { type: 'text', text },
          {
            type: 'image',
            image:
              'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==',
            mediaType: 'image/png',
          },
        ],
      };
    } else {
      message = {
        role: 'user',
        content: [
          {
            type: 'file',
            data: Buffer.from(text).toString('base64'),
            mediaType: 'text/plain',
            filename: 'notes.txt',
          },
          { type: 'text', text: this.#marker('see-file') },
        ],
      };
    }
    this.messages.push(message);
    this.latestAsk = message;
    this.unanswered.push(message);
  }

  #reply(characters: number): void {
    this.messages.push({
      role: 'assistant',
      content: [{ type: 'text', text: `${this.#marker('reply')} ${this.#filler(characters)}` }],
    });
    this.unanswered = [];
  }

  #tools(sizes: number[]): void {
    const ids = sizes.map(() => this.#marker('call'));
    this.messages.push({
      role: 'assistant',
      content: ids.map((toolCallId) => ({
        type: 'tool-call' as const,
        toolCallId,
        toolName: 'read_file',
        input: { path: 'src/main.ts' },
      })),
    });
    this.messages.push({
      role: 'tool',
      content: ids.map((toolCallId, index) => ({
        type: 'tool-result' as const,
        toolCallId,
        toolName: 'read_file',
        output: { type: 'text' as const, value: this.#filler(sizes[index]!) },
      })),
    });
    this.unanswered = [];
  }
}
