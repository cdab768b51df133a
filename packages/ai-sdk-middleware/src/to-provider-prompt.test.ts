import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { toJsonMessage } from '@baton/compressor';
import { InvalidInputError } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toModelMessages } from './to-model-messages.js';
import { toProviderPrompt } from './to-provider-prompt.js';

const cacheOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/** One message of every role with every V4 part type, provider options on messages and parts. */
function everyPartPrompt(): LanguageModelV4Prompt {
  return [
    { role: 'system', content: 'You are terse.', providerOptions: cacheOptions },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look at these', providerOptions: { openai: { detail: 'high' } } },
        {
          type: 'file',
          data: { type: 'data', data: new Uint8Array([1, 2, 3]) },
          mediaType: 'image/png',
        },
        {
          type: 'file',
          data: { type: 'url', url: new URL('https://example.com/a.pdf') },
          mediaType: 'application/pdf',
          filename: 'a.pdf',
        },
        {
          type: 'file',
          data: { type: 'reference', reference: { openai: 'file-123' } },
          mediaType: 'application',
        },
        { type: 'file', data: { type: 'text', text: 'inline doc' }, mediaType: 'text/plain' },
      ],
      providerOptions: cacheOptions,
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'reasoning',
          text: 'thinking',
          providerOptions: { anthropic: { signature: 'sig' } },
        },
        { type: 'reasoning-file', data: { type: 'data', data: 'AAEC' }, mediaType: 'image/png' },
        { type: 'custom', kind: 'openai.compaction', providerOptions: { openai: { id: 'c1' } } },
        { type: 'text', text: 'Calling tools' },
        { type: 'file', data: { type: 'data', data: 'aGVsbG8=' }, mediaType: 'text/plain' },
        { type: 'tool-call', toolCallId: 'call-1', toolName: 'read', input: { path: 'a.ts' } },
        {
          type: 'tool-call',
          toolCallId: 'call-2',
          toolName: 'search',
          input: { q: 'x' },
          providerExecuted: true,
        },
        {
          type: 'tool-result',
          toolCallId: 'call-2',
          toolName: 'search',
          output: { type: 'json', value: { hits: 2 } },
        },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call-1',
          toolName: 'read',
          output: { type: 'text', value: 'code' },
          providerOptions: cacheOptions,
        },
        {
          type: 'tool-result',
          toolCallId: 'call-3',
          toolName: 'x',
          output: { type: 'error-text', value: 'boom' },
        },
        {
          type: 'tool-result',
          toolCallId: 'call-4',
          toolName: 'x',
          output: { type: 'error-json', value: { code: 1 } },
        },
        {
          type: 'tool-result',
          toolCallId: 'call-5',
          toolName: 'x',
          output: { type: 'execution-denied', reason: 'no' },
        },
        {
          type: 'tool-result',
          toolCallId: 'call-6',
          toolName: 'shot',
          output: {
            type: 'content',
            value: [
              { type: 'text', text: 'screenshot' },
              { type: 'file', data: { type: 'data', data: 'AAAA' }, mediaType: 'image/png' },
              { type: 'custom', providerOptions: { x: { y: 1 } } },
            ],
          },
        },
        {
          type: 'tool-approval-response',
          approvalId: 'ap-1',
          approved: true,
          reason: 'ok',
          providerOptions: { x: { z: true } },
        },
      ],
    },
  ];
}

describe('toModelMessages / toProviderPrompt', () => {
  it('round-trips every V4 part type with provider options, structurally and by identity', () => {
    const prompt = everyPartPrompt();
    const structural = toProviderPrompt(toModelMessages(prompt));
    expect(structural).toEqual(prompt);
    const originals = new WeakMap<object, LanguageModelV4Message>();
    const messages = toModelMessages(prompt, originals);
    const back = toProviderPrompt(messages, originals);
    for (const [index, message] of back.entries()) expect(message).toBe(prompt[index]);
  });

  it('passes parts by reference and never mutates the prompt', () => {
    const prompt = everyPartPrompt();
    const snapshot = everyPartPrompt();
    const messages = toModelMessages(prompt);
    const user = messages[1] as { content: unknown[] };
    expect(user.content[1]).toBe((prompt[1] as { content: unknown[] }).content[1]);
    toProviderPrompt(messages);
    expect(prompt).toEqual(snapshot);
  });

  it('normalises ModelMessage-only shapes the way the AI SDK does', () => {
    const bytes = new Uint8Array([9, 8, 7]);
    const messages: ModelMessage[] = [
      { role: 'user', content: 'plain string' },
      {
        role: 'user',
        content: [
          { type: 'image', image: bytes },
          { type: 'image', image: new URL('https://example.com/cat.png'), mediaType: 'image/png' },
          { type: 'file', data: 'data:text/plain;base64,aGk=', mediaType: 'text/plain' },
          { type: 'file', data: 'https://example.com/doc.pdf', mediaType: 'application/pdf' },
          { type: 'file', data: bytes.buffer, mediaType: 'application/octet-stream' },
          { type: 'file', data: { openai: 'file-9' }, mediaType: 'application/pdf' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c', toolName: 't', input: {} },
          { type: 'tool-approval-request', approvalId: 'a', toolCallId: 'c' },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool-approval-request', approvalId: 'b', toolCallId: 'd' }],
      },
      { role: 'assistant', content: 'reply' },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 't',
            output: {
              type: 'content',
              value: [
                { type: 'image-data', data: 'AAAA', mediaType: 'image/jpeg' },
                { type: 'file-url', url: 'https://example.com/x.csv', mediaType: 'text/csv' },
                { type: 'image-url', url: 'https://example.com/y.png' },
              ],
            },
          },
        ],
      },
    ];
    const prompt = toProviderPrompt(messages);
    expect(prompt).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'plain string' }] },
      {
        role: 'user',
        content: [
          { type: 'file', data: { type: 'data', data: bytes }, mediaType: 'image' },
          {
            type: 'file',
            data: { type: 'url', url: new URL('https://example.com/cat.png') },
            mediaType: 'image/png',
          },
          { type: 'file', data: { type: 'data', data: 'aGk=' }, mediaType: 'text/plain' },
          {
            type: 'file',
            data: { type: 'url', url: new URL('https://example.com/doc.pdf') },
            mediaType: 'application/pdf',
          },
          {
            type: 'file',
            data: { type: 'data', data: new Uint8Array(bytes.buffer) },
            mediaType: 'application/octet-stream',
          },
          {
            type: 'file',
            data: { type: 'reference', reference: { openai: 'file-9' } },
            mediaType: 'application/pdf',
          },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c', toolName: 't', input: {} }],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'reply' }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c',
            toolName: 't',
            output: {
              type: 'content',
              value: [
                { type: 'file', data: { type: 'data', data: 'AAAA' }, mediaType: 'image/jpeg' },
                {
                  type: 'file',
                  data: { type: 'url', url: new URL('https://example.com/x.csv') },
                  mediaType: 'text/csv',
                },
                {
                  type: 'file',
                  data: { type: 'url', url: new URL('https://example.com/y.png') },
                  mediaType: 'image',
                },
              ],
            },
          },
        ],
      },
    ]);
  });

  it('restores a prompt that went through JSON (the session store)', () => {
    const prompt = everyPartPrompt();
    const stored = JSON.parse(
      JSON.stringify(toModelMessages(prompt).map(toJsonMessage)),
    ) as ModelMessage[];
    const back = toProviderPrompt(stored);
    const user = back[1] as Extract<LanguageModelV4Message, { role: 'user' }>;
    expect(user.content[1]).toEqual({
      type: 'file',
      data: { type: 'data', data: 'AQID' },
      mediaType: 'image/png',
    });
    expect(user.content[2]).toMatchObject({
      data: { type: 'url', url: new URL('https://example.com/a.pdf') },
    });
    // Everything but the bytes (now base64) is unchanged.
    const withoutBytes = (value: LanguageModelV4Prompt) =>
      value.map((message, index) =>
        index === 1 && message.role === 'user'
          ? { ...message, content: message.content.filter((_, part) => part !== 1) }
          : message,
      );
    expect(withoutBytes(back)).toEqual(withoutBytes(prompt));
  });

  it('names the bad field of an unsupported part', () => {
    const bad = [
      { role: 'user', content: [{ type: 'video', src: 'x' }] },
    ] as unknown as ModelMessage[];
    expect(() => toProviderPrompt(bad)).toThrow(InvalidInputError);
    try {
      toProviderPrompt(bad);
    } catch (error) {
      expect(InvalidInputError.isInstance(error) && error.path).toBe('messages[0].content[0].type');
    }
  });

  it('round-trips arbitrary V4 prompts (property)', () => {
    const providerOptions = fc.option(
      fc.dictionary(
        fc.constantFrom('openai', 'anthropic'),
        fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
        { maxKeys: 1 },
      ),
      { nil: undefined },
    );
    const withOptions = <T extends object>(part: fc.Arbitrary<T>) =>
      fc
        .tuple(part, providerOptions)
        .map(([value, options]) =>
          options === undefined ? value : { ...value, providerOptions: options },
        );
    const text = withOptions(fc.record({ type: fc.constant('text' as const), text: fc.string() }));
    const file = withOptions(
      fc.record({
        type: fc.constant('file' as const),
        mediaType: fc.constantFrom('image/png', 'application/pdf', 'text'),
        data: fc.oneof(
          fc.record({
            type: fc.constant('data' as const),
            data: fc.oneof(fc.base64String(), fc.uint8Array({ maxLength: 8 })),
          }),
          fc.webUrl().map((url) => ({ type: 'url' as const, url: new URL(url) })),
          fc.record({ type: fc.constant('text' as const), text: fc.string() }),
        ),
      }),
    );
    const toolCall = withOptions(
      fc.record({
        type: fc.constant('tool-call' as const),
        toolCallId: fc.string({ minLength: 1 }),
        toolName: fc.string({ minLength: 1 }),
        input: fc.jsonValue({ maxDepth: 2 }),
      }),
    );
    const output = fc.oneof(
      fc.record({ type: fc.constant('text' as const), value: fc.string() }),
      fc.record({ type: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 2 }) }),
      fc.record({ type: fc.constant('error-text' as const), value: fc.string() }),
      fc.record({ type: fc.constant('execution-denied' as const), reason: fc.string() }),
      fc.record({
        type: fc.constant('content' as const),
        value: fc.array(fc.record({ type: fc.constant('text' as const), text: fc.string() }), {
          maxLength: 2,
        }),
      }),
    );
    const toolResult = withOptions(
      fc.record({
        type: fc.constant('tool-result' as const),
        toolCallId: fc.string({ minLength: 1 }),
        toolName: fc.string({ minLength: 1 }),
        output,
      }),
    );
    const reasoning = withOptions(
      fc.record({ type: fc.constant('reasoning' as const), text: fc.string() }),
    );
    const message = fc.oneof(
      fc.record({ role: fc.constant('system' as const), content: fc.string() }),
      fc.record({
        role: fc.constant('user' as const),
        content: fc.array(fc.oneof(text, file), { maxLength: 3 }),
      }),
      fc.record({
        role: fc.constant('assistant' as const),
        content: fc.array(fc.oneof(text, reasoning, toolCall, file), {
          minLength: 1,
          maxLength: 3,
        }),
      }),
      fc.record({
        role: fc.constant('tool' as const),
        content: fc.array(toolResult, { minLength: 1, maxLength: 3 }),
      }),
    );
    const prompt = fc.array(withOptions(message), { maxLength: 6 });
    fc.assert(
      fc.property(prompt, (value) => {
        const typed = value as unknown as LanguageModelV4Prompt;
        expect(toProviderPrompt(toModelMessages(typed))).toEqual(typed);
      }),
      { numRuns: 200 },
    );
  });
});
