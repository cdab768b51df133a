import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InputFileError, parseTranscript, readTranscript } from './index.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));

describe('readTranscript', () => {
  it('detects Claude Code JSONL', async () => {
    const transcript = await readTranscript(join(fixtures, 'claude-code-session.jsonl'));
    expect(transcript.format).toBe('claude-code');
    expect(transcript.compactions).toBe(1);
    expect(transcript.messages.length).toBeGreaterThan(0);
  });

  it('detects Claude Code JSONL that opens with a summary title line', () => {
    const jsonl = [
      '{"type":"summary","summary":"Checkout rounding fix","leafUuid":"u-2"}',
      '{"type":"user","uuid":"u-1","sessionId":"s","message":{"role":"user","content":"hi"}}',
      '{"type":"assistant","uuid":"u-2","sessionId":"s","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"hello"}]}}',
    ].join('\r\n');
    expect(parseTranscript(jsonl)).toMatchObject({
      format: 'claude-code',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      ],
    });
  });

  it('detects OpenAI chat JSON in a { messages } body', async () => {
    const transcript = await readTranscript(join(fixtures, 'openai-chat.json'));
    expect(transcript.format).toBe('openai-chat');
    expect(transcript.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it('reads AI SDK messages as they are', () => {
    const messages = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 't', toolName: 'x', input: {} }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 't',
            toolName: 'x',
            output: { type: 'text', value: 'ok' },
          },
        ],
      },
    ];
    const transcript = parseTranscript(JSON.stringify(messages));
    expect(transcript.format).toBe('ai-sdk');
    expect(transcript.messages).toEqual(messages);
  });

  it('reads plain role/content arrays and strips a byte-order mark', () => {
    const transcript = parseTranscript('\ufeff[{"role":"user","content":"hi"}]');
    expect(transcript).toMatchObject({
      format: 'ai-sdk',
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it.each([
    ['{"role":', /^x\.json: invalid JSON: /],
    ['', /^x\.json: empty file$/],
    ['{"hello":"world"}', /^x\.json: unknown format: /],
    ['[1, 2]', /^x\.json: unknown format: messages\[0\]/],
    [
      '[{"role":"wizard","content":"hi"}]',
      /^x\.json: messages\[0\]\.role: .*got a string of 6 characters$/,
    ],
    [
      '[{"role":"tool","content":"hi"}]',
      /^x\.json: messages\[0\]\.content: must be an array of tool results in a tool message$/,
    ],
    [
      '[{"role":"assistant","content":[{"type":"tool-call","toolName":"x"}]}]',
      /toolCallId: must be a string$/,
    ],
  ])('rejects %j with a one-line error naming the file', (text, expected) => {
    try {
      parseTranscript(text, { file: 'x.json' });
      expect.unreachable();
    } catch (error) {
      expect(InputFileError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(expected);
      expect((error as Error).message).not.toContain('\n');
      expect((error as InputFileError).file).toBe('x.json');
    }
  });

  it('names a missing or unreadable file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-cli-'));
    await expect(readTranscript(join(dir, 'nope.json'))).rejects.toThrow(
      /nope\.json: cannot read file: no such file$/,
    );
    await expect(readTranscript(dir)).rejects.toThrow(/cannot read file: is a directory/);
    writeFileSync(
      join(dir, 'x.jsonl'),
      '{"type":"user","uuid":"u","message":{"role":"user","content":"hi"}}\nnot json\n',
    );
    await expect(readTranscript(join(dir, 'x.jsonl'))).rejects.toThrow(
      /x\.jsonl: line 2: invalid JSON/,
    );
  });

  it('honours a forced format', () => {
    const openAI = '[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"}]';
    expect(parseTranscript(openAI, { format: 'openai-chat' }).format).toBe('openai-chat');
    expect(() => parseTranscript(openAI, { format: 'claude-code', file: 'f' })).toThrow(
      /^f: line 1: expected a JSON object$/,
    );
  });
});
