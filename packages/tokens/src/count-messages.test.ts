import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CountableMessage,
  chatFormat,
  createTokenCounter,
  type Encoder,
  InvalidInputError,
  imageTokens,
  unknownImageTokens,
} from './index.js';
import { pngHeader } from './test-utils/png-header.js';

const require = createRequire(import.meta.url);
const tiktoken = require('@dqbd/tiktoken') as typeof import('@dqbd/tiktoken');
const o200k = tiktoken.get_encoding('o200k_base');
const exact = (text: string) => o200k.encode_ordinary(text).length;
const header = (role: string) => chatFormat.tokensPerMessage + exact(role);

describe('OpenAI chat constants', () => {
  // The example conversation of OpenAI's "How to count tokens with tiktoken" cookbook, whose
  // published totals are 129 prompt tokens for gpt-4 / gpt-3.5-turbo and 124 for gpt-4o.
  const cookbook: CountableMessage[] = [
    {
      role: 'system',
      content:
        'You are a helpful, pattern-following assistant that translates corporate jargon into plain English.',
    },
    {
      role: 'system',
      name: 'example_user',
      content: 'New synergies will help drive top-line growth.',
    },
    {
      role: 'system',
      name: 'example_assistant',
      content: 'Things working well together will increase revenue.',
    },
    {
      role: 'system',
      name: 'example_user',
      content:
        "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage.",
    },
    {
      role: 'system',
      name: 'example_assistant',
      content: "Let's talk later when we're less busy about how to do better.",
    },
    {
      role: 'user',
      content:
        "This late pivot means we don't have time to boil the ocean for the client deliverable.",
    },
  ];

  it('reproduces the cookbook totals', () => {
    expect(createTokenCounter({ model: 'gpt-4' }).countMessages(cookbook)).toBe(129);
    expect(createTokenCounter({ model: 'gpt-3.5-turbo-0613' }).countMessages(cookbook)).toBe(129);
    expect(createTokenCounter({ model: 'gpt-4o' }).countMessages(cookbook)).toBe(124);
  });

  it('counts 3 per message, the role, the content, name + 1 and 3 for reply priming', () => {
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    const messages = [
      { role: 'developer', content: 'Be brief.' },
      { role: 'user', name: 'alice', content: 'What is 6 x 7?' },
    ];
    expect(counter.countMessages(messages)).toBe(
      header('developer') +
        exact('Be brief.') +
        header('user') +
        exact('What is 6 x 7?') +
        exact('alice') +
        1 +
        3,
    );
    expect(counter.countMessages([])).toBe(chatFormat.replyPriming);
  });

  it('counts tool_calls (name + JSON arguments) and tool replies', () => {
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    const args = '{"city":"Paris","unit":"celsius"}';
    const messages = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: args } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '21 degrees and sunny' },
    ];
    expect(counter.countMessages(messages)).toBe(
      header('assistant') +
        chatFormat.tokensPerToolCall +
        exact('get_weather') +
        exact('call_1') +
        exact(args) +
        header('tool') +
        exact('call_1') +
        exact('21 degrees and sunny') +
        chatFormat.replyPriming,
    );
  });

  it('counts content-part arrays and image_url parts', () => {
    const counter = createTokenCounter({ encoding: 'o200k_base' });
    const message = {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
      ],
    };
    expect(counter.countMessage(message)).toBe(
      header('user') + exact('What is in this picture?') + 85,
    );
  });
});

describe('AI SDK ModelMessage', () => {
  const counter = createTokenCounter({ encoding: 'o200k_base' });

  it('counts text, reasoning and tool-call parts', () => {
    const input = { path: 'src/index.ts', lines: [1, 20] };
    const message = {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'The user wants the file.' },
        { type: 'text', text: 'Reading it now.' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input },
      ],
    };
    expect(counter.countMessage(message)).toBe(
      header('assistant') +
        exact('The user wants the file.') +
        exact('Reading it now.') +
        chatFormat.tokensPerToolCall +
        exact('read_file') +
        exact('c1') +
        exact(JSON.stringify(input)),
    );
  });

  it('counts every tool output type, one provider message per result', () => {
    const json = { ok: false, errors: ['E1', 'E2'] };
    const message = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'a',
          toolName: 't',
          output: { type: 'text', value: 'done' },
        },
        {
          type: 'tool-result',
          toolCallId: 'b',
          toolName: 't',
          output: { type: 'json', value: json },
        },
        {
          type: 'tool-result',
          toolCallId: 'c',
          toolName: 't',
          output: { type: 'error-text', value: 'boom' },
        },
        {
          type: 'tool-result',
          toolCallId: 'd',
          toolName: 't',
          output: { type: 'error-json', value: json },
        },
        {
          type: 'tool-result',
          toolCallId: 'e',
          toolName: 't',
          output: { type: 'execution-denied', reason: 'not allowed' },
        },
        {
          type: 'tool-result',
          toolCallId: 'f',
          toolName: 't',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'see image' },
              { type: 'image-data', data: pngHeader(512, 512), mediaType: 'image/png' },
            ],
          },
        },
      ],
    };
    const body =
      exact('done') +
      exact(JSON.stringify(json)) +
      exact('boom') +
      exact(JSON.stringify(json)) +
      exact('not allowed') +
      exact('see image') +
      imageTokens(512, 512);
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'].reduce((sum, id) => sum + exact(id), 0);
    expect(counter.countMessage(message)).toBe(6 * header('tool') + ids + body);
  });

  it('counts an unknown (future) tool output type by its JSON', () => {
    const value = { rows: 3 };
    const message = {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'a', toolName: 't', output: { type: 'table', value } },
      ],
    };
    expect(counter.countMessage(message)).toBe(
      header('tool') + exact('a') + exact(JSON.stringify(value)),
    );
  });

  it('counts tool-call ids in both shapes (every provider sends them)', () => {
    const id = 'call_' + 'Zx9'.repeat(8);
    const bare = counter.countMessage({ role: 'tool', content: 'done' });
    expect(counter.countMessage({ role: 'tool', tool_call_id: id, content: 'done' })).toBe(
      bare + exact(id),
    );
    const part = (toolCallId?: string) => ({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId, toolName: 't', output: { type: 'text', value: 'done' } },
      ],
    });
    expect(counter.countMessage(part(id)) - counter.countMessage(part())).toBe(exact(id));
    expect(() => counter.countMessage({ role: 'tool', tool_call_id: 7, content: 'x' })).toThrow(
      InvalidInputError,
    );
  });

  it('counts images by the tile formula when the header gives their size', () => {
    expect(imageTokens(1024, 1024)).toBe(765);
    expect(imageTokens(2048, 4096)).toBe(1105);
    expect(imageTokens(4000, 3000, 'low')).toBe(85);
    const image = (data: unknown) =>
      counter.countMessage({ role: 'user', content: [{ type: 'image', image: data }] }) -
      header('user');
    expect(image(pngHeader(1024, 1024))).toBe(765);
    expect(image(Buffer.from(pngHeader(2048, 4096)).toString('base64'))).toBe(1105);
    expect(
      image(`data:image/png;base64,${Buffer.from(pngHeader(300, 200)).toString('base64')}`),
    ).toBe(255);
    expect(image(new URL('https://example.com/unknown.png'))).toBe(unknownImageTokens);
    const file = { type: 'file', mediaType: 'image/png', data: pngHeader(1024, 1024) };
    expect(counter.countMessage({ role: 'user', content: [file] }) - header('user')).toBe(765);
  });

  it('keeps copies of messages with different bytes apart', () => {
    // Same length and same first hundred bytes; only the tail differs.
    const file = (tail: string) => ({
      role: 'user',
      content: [
        {
          type: 'file',
          mediaType: 'text/plain',
          data: new TextEncoder().encode(`${'same prefix '.repeat(10)}${tail}`),
        },
      ],
    });
    const few = counter.countMessage(file('aaaaaaaaaaaaaaaaaaaa'));
    const many = counter.countMessage(file('a;b;c;d;e;f;g;h;i;j;'));
    expect(many).toBeGreaterThan(few);
    expect(counter.countMessage(file('aaaaaaaaaaaaaaaaaaaa'))).toBe(few);
  });

  it('counts text files by their text and other files by a documented constant', () => {
    const text = 'name,age\nada,36\n';
    const csv = { type: 'file', mediaType: 'text/csv', data: Buffer.from(text).toString('base64') };
    expect(counter.countMessage({ role: 'user', content: [csv] })).toBe(
      header('user') + exact(text),
    );
    const bytes = {
      type: 'file',
      mediaType: 'text/plain',
      data: { type: 'data', data: new TextEncoder().encode(text) },
    };
    expect(counter.countMessage({ role: 'user', content: [bytes] })).toBe(
      header('user') + exact(text),
    );
    const linked = { type: 'file', mediaType: 'text/plain', data: 'https://example.com/notes.txt' };
    expect(counter.countMessage({ role: 'user', content: [linked] })).toBe(
      header('user') + chatFormat.unknownFileTokens,
    );
    const pdf = {
      type: 'file',
      mediaType: 'application/pdf',
      data: new Uint8Array(10),
      filename: 'a.pdf',
    };
    expect(counter.countMessage({ role: 'user', content: [pdf] })).toBe(
      header('user') + exact('a.pdf') + chatFormat.unknownFileTokens,
    );
  });

  it('counts tool definitions: preamble, per tool, name, description and schema', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const messages = [{ role: 'user', content: 'Weather in Paris?' }];
    const base = counter.countMessages(messages);
    const expected =
      base +
      chatFormat.toolsPreamble +
      chatFormat.tokensPerTool +
      exact('get_weather') +
      exact('Current weather') +
      exact(JSON.stringify(schema));
    expect(
      counter.countMessages(messages, {
        tools: [{ name: 'get_weather', description: 'Current weather', parameters: schema }],
      }),
    ).toBe(expected);
    // The AI SDK's record of tools with a wrapped schema counts the same.
    expect(
      counter.countMessages(messages, {
        tools: {
          get_weather: { description: 'Current weather', inputSchema: { jsonSchema: schema } },
        },
      }),
    ).toBe(expected);
    expect(counter.countMessages(messages, { tools: [] })).toBe(base);
    // A schema-library object is not JSON schema: its internals are not counted.
    const zodLike = {
      '~standard': { version: 1, vendor: 'zod' },
      _zod: { def: { type: 'object' } },
    };
    expect(
      counter.countMessages(messages, { tools: [{ name: 'get_weather', parameters: zodLike }] }),
    ).toBe(base + chatFormat.toolsPreamble + chatFormat.tokensPerTool + exact('get_weather'));
  });
});

describe('bad input', () => {
  const counter = createTokenCounter({ encoding: 'o200k_base' });
  const pathOf = (run: () => unknown): string | undefined => {
    try {
      run();
    } catch (error) {
      if (InvalidInputError.isInstance(error)) return error.path;
      throw error;
    }
    return undefined;
  };

  it('names the bad field', () => {
    const bad = [
      { role: 'user', content: 'fine' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'fine' },
          { type: 'text', text: 7 },
        ],
      },
    ] as unknown as CountableMessage[];
    expect(pathOf(() => counter.countMessages(bad))).toBe('messages[1].content[1].text');
    expect(
      pathOf(() =>
        counter.countMessages([{ content: 'no role' }] as unknown as CountableMessage[]),
      ),
    ).toBe('messages[0].role');
    expect(pathOf(() => counter.countMessages([null] as unknown as CountableMessage[]))).toBe(
      'messages[0]',
    );
    expect(pathOf(() => counter.countMessages('hi' as unknown as CountableMessage[]))).toBe(
      'messages',
    );
    expect(
      pathOf(() =>
        counter.countMessages([{ role: 'user', content: 5 }] as unknown as CountableMessage[]),
      ),
    ).toBe('messages[0].content');
    expect(
      pathOf(() =>
        counter.countMessages([{ role: 'user', content: [42] }] as unknown as CountableMessage[]),
      ),
    ).toBe('messages[0].content[0]');
    expect(
      pathOf(() =>
        counter.countMessage({
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'x', toolName: 't', output: { type: 42 } }],
        }),
      ),
    ).toBe('message.content[0].output.type');
    expect(pathOf(() => counter.countMessage({ role: 'user', content: 'x', name: 3 }))).toBe(
      'message.name',
    );
    expect(
      pathOf(() => counter.countMessages([], { tools: [{ description: 'no name' }] as never })),
    ).toBe('tools[0].name');
    expect(pathOf(() => createTokenCounter({ encoding: 'o300k' as never }))).toBe(
      'options.encoding',
    );
  });

  it('throws errors that are BatonErrors with a code', () => {
    try {
      counter.countMessages([{ role: 1 }] as unknown as CountableMessage[]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).code).toBe('invalid_input');
      expect((error as Error).message).toContain('messages[0].role');
    }
  });
});

describe('incremental counting', () => {
  /** A loader whose encoder records what reaches it, so tests can see what was memoised. */
  function recordingLoader() {
    const seen: string[] = [];
    const loadEncoder = (): Encoder => {
      const real = tiktoken.get_encoding('o200k_base');
      return {
        encode_ordinary(text: string) {
          seen.push(text);
          return real.encode_ordinary(text);
        },
      };
    };
    return { seen, loadEncoder };
  }

  const conversation = Array.from({ length: 1000 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `Message ${i}: ${'lorem ipsum dolor sit amet '.repeat(1 + (i % 7))}token${i * 7919}`,
  }));

  it('re-counts after an append without re-encoding earlier messages', () => {
    const { seen, loadEncoder } = recordingLoader();
    const counter = createTokenCounter({ loadEncoder });
    const cold = counter.countMessages(conversation);
    expect(cold).toBe(conversation.reduce((sum, m) => sum + header(m.role) + exact(m.content), 3));
    seen.length = 0;
    const appended = { role: 'user', content: 'A brand new question about zyxwvut?' };
    const warm = counter.countMessages([...conversation, appended]);
    expect(warm).toBe(cold + header('user') + exact(appended.content));
    expect(seen.join('')).toBe(seen.filter((piece) => appended.content.includes(piece)).join(''));
  });

  it('re-counts sequences of edited deep copies like a fresh counter (property)', () => {
    // Each step deep-copies the last conversation and edits it: a changed text, a reordered or
    // added key, a message turned into content parts or an array, an append or a removal. The
    // memoised counter must always agree with one that has seen nothing.
    const edit = fc.record({
      kind: fc.constantFrom('text', 'reorder', 'key', 'parts', 'array', 'append', 'remove', 'none'),
      at: fc.nat(),
      word: fc.constantFrom('alpha', 'beta', 'ok', '字', 'ok 1'),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 12 }), (edits) => {
        const counter = createTokenCounter();
        let messages: Record<string, unknown>[] = Array.from({ length: 6 }, (_, i) => ({
          role: i % 2 ? 'assistant' : 'user',
          content: `ok ${i}`,
        }));
        counter.countMessages(messages as never);
        for (const { kind, at, word } of edits) {
          messages = structuredClone(messages);
          const i = at % Math.max(1, messages.length);
          const target = messages[i];
          if (kind === 'text' && target) target.content = `${String(target.content)} ${word}`;
          if (kind === 'reorder' && target)
            messages[i] = { content: target.content, role: target.role };
          if (kind === 'key' && target) target.name = word;
          if (kind === 'parts' && target)
            target.content = [{ type: 'text', text: String(target.content) }];
          if (kind === 'array' && target) messages[i] = [target.role, target.content] as never;
          if (kind === 'append') messages.push({ role: 'user', content: word });
          if (kind === 'remove') messages.splice(i, 1);
          const count = (counter: ReturnType<typeof createTokenCounter>) => {
            try {
              return counter.countMessages(messages as never);
            } catch (error) {
              return (error as { code?: string }).code;
            }
          };
          expect(count(counter)).toBe(count(createTokenCounter()));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('recognises copies of messages by content, and forgets nothing it must not after dispose', () => {
    const { seen, loadEncoder } = recordingLoader();
    const counter = createTokenCounter({ loadEncoder });
    const total = counter.countMessages(conversation);
    seen.length = 0;
    expect(counter.countMessages(structuredClone(conversation))).toBe(total);
    expect(seen).toEqual([]);
    counter.dispose();
    expect(counter.countMessages(conversation)).toBe(total);
  });
});

describe('image headers', () => {
  const counter = createTokenCounter({ encoding: 'o200k_base' });
  const cost = (bytes: Uint8Array) =>
    counter.countMessage({ role: 'user', content: [{ type: 'image', image: bytes }] }) -
    header('user');

  it('reads JPEG (after an EXIF segment), GIF and WebP sizes', () => {
    const jpeg = new Uint8Array(2 + 4 + 20_000 + 11);
    const view = new DataView(jpeg.buffer);
    jpeg.set([0xff, 0xd8, 0xff, 0xe1]);
    view.setUint16(4, 20_002);
    const frame = 6 + 20_000;
    jpeg.set([0xff, 0xc0], frame);
    view.setUint16(frame + 2, 17);
    jpeg[frame + 4] = 8;
    view.setUint16(frame + 5, 1080);
    view.setUint16(frame + 7, 1920);
    expect(cost(jpeg)).toBe(imageTokens(1920, 1080));
    expect(
      counter.countMessage({
        role: 'user',
        content: [{ type: 'image', image: Buffer.from(jpeg).toString('base64') }],
      }) - header('user'),
    ).toBe(imageTokens(1920, 1080));
    const gif = new Uint8Array(13);
    gif.set([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x00, 0x04, 0x00, 0x02]);
    expect(cost(gif)).toBe(imageTokens(1024, 512));
    const webp = new Uint8Array(30);
    webp.set([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x58]);
    webp.set([0xff, 0x03, 0x00, 0xff, 0x02, 0x00], 24);
    expect(cost(webp)).toBe(imageTokens(1024, 768));
  });

  it('falls back to the documented constant for unreadable bytes', () => {
    expect(cost(new Uint8Array([1, 2, 3]))).toBe(unknownImageTokens);
  });
});

describe('model-aware image pricing', () => {
  const imageMessage = (width: number, height: number) => ({
    role: 'user',
    content: [{ type: 'image', image: pngHeader(width, height) }],
  });
  const imageCost = (model: string | undefined, width: number, height: number) => {
    const counter = createTokenCounter(model === undefined ? {} : { model });
    return (
      counter.countMessage(imageMessage(width, height)) -
      counter.countMessage({ role: 'user', content: [] })
    );
  };

  it('prices images by the counter model (OpenAI published per-model costs)', () => {
    // 1024x1024: 4 tiles after the 768 px shortening, or 1,024 32-px patches.
    expect(imageCost(undefined, 1024, 1024)).toBe(85 + 4 * 170);
    expect(imageCost('gpt-4o', 1024, 1024)).toBe(85 + 4 * 170);
    expect(imageCost('gpt-4.1', 1024, 1024)).toBe(85 + 4 * 170);
    expect(imageCost('gpt-4o-mini', 1024, 1024)).toBe(2833 + 4 * 5667);
    expect(imageCost('gpt-5', 1024, 1024)).toBe(70 + 4 * 140);
    expect(imageCost('openai/o3', 1024, 1024)).toBe(75 + 4 * 150);
    expect(imageCost('gpt-4.1-mini', 1024, 1024)).toBe(Math.ceil(1024 * 1.62));
    expect(imageCost('gpt-4.1-nano-2025-04-14', 1024, 1024)).toBe(Math.ceil(1024 * 2.46));
    expect(imageCost('o4-mini', 1024, 1024)).toBe(Math.ceil(1024 * 1.72));
    expect(imageCost('anthropic:claude-sonnet-4-5', 1000, 1000)).toBe(Math.ceil(1_000_000 / 750));
  });

  it('normalises tagged and provider-prefixed ids the way resolveModel does', () => {
    // An Ollama-style `:latest` tag is a tag, not a provider: it must not erase the model name.
    expect(imageTokens(1024, 1024, 'auto', 'gpt-4o-mini:latest')).toBe(2833 + 4 * 5667);
    expect(imageTokens(1024, 1024, 'auto', 'o4-mini:latest')).toBe(Math.ceil(1024 * 1.72));
    expect(imageCost('gpt-4o-mini:latest', 1024, 1024)).toBe(2833 + 4 * 5667);
    expect(imageCost('openai/o4-mini:latest', 1024, 1024)).toBe(Math.ceil(1024 * 1.72));
    expect(imageTokens(1024, 1024, 'auto', 'openai:gpt-4o-mini')).toBe(2833 + 4 * 5667);
    expect(imageTokens(1024, 1024, 'auto', 'OpenRouter/OpenAI/GPT-5')).toBe(70 + 4 * 140);
    expect(imageTokens(1000, 1000, 'auto', 'us.anthropic.claude-sonnet-4-5-v1:0')).toBe(
      Math.ceil(1_000_000 / 750),
    );
    expect(imageTokens(1000, 1000, 'auto', 'anthropic/claude-opus-4-1@20250805')).toBe(
      Math.ceil(1_000_000 / 750),
    );
  });

  it('caps patch models at 1,536 patches and follows the published 1800x2400 example', () => {
    // OpenAI's worked example: 1800x2400 scales to 1,452 patches (gpt-4.1-mini: x1.62).
    expect(imageTokens(1800, 2400, 'auto', 'gpt-4.1-mini')).toBe(Math.ceil(1452 * 1.62));
    expect(imageTokens(8000, 8000, 'auto', 'gpt-4.1-nano')).toBeLessThanOrEqual(
      Math.ceil(1536 * 2.46),
    );
    expect(imageTokens(4000, 3000, 'low', 'gpt-4o-mini')).toBe(2833);
  });

  it('rejects a bad detail with a typed error', () => {
    expect(() => imageTokens(10, 10, 'medium' as never)).toThrow(InvalidInputError);
  });
});
