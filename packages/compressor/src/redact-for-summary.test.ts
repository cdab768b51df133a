import type { ModelMessage } from '@ai-sdk/provider-utils';
import { clipMiddle, redactSecrets } from '@baton/fallback';
import { describe, expect, it } from 'vitest';
import { redactForSummary } from './redact-for-summary.js';

const secret = () => 'ghp_' + 'a1B2c3D4e5F6g7H8' + 'i9J0k1L2m3N4o5P6q7R8';
const limit = 3_000;

function toolMessage(value: string): ModelMessage {
  return {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'c1', toolName: 'bash', output: { type: 'text', value } },
    ],
  };
}

function outputOf(message: ModelMessage): string {
  const part = (message.content as Array<{ output: { value: string } }>)[0]!;
  return part.output.value;
}

const line = (index: number) => `line ${String(index).padStart(5, '0')} of the build log\n`;
const log = (lines: number) => Array.from({ length: lines }, (_, index) => line(index)).join('');

// Where the clip of a 1,000-line log cuts: the kept start and end around the marker's own line.
const reference = clipMiddle(log(1_000), limit);
const head = reference.indexOf('\n[Baton: ');
const tail = reference.length - reference.indexOf(' omitted]\n') - ' omitted]\n'.length;

describe('redactForSummary', () => {
  for (const [where, position] of [
    ['across the end of the kept start', head - 10],
    ['across the start of the kept end', -tail - 10],
    ['inside the kept start', 100],
    ['in the elided middle', 10_000],
  ] as const) {
    it(`redacts a secret ${where}`, () => {
      const text = log(1_000);
      const at = position < 0 ? text.length + position : position;
      const planted = `${text.slice(0, at)}token=${secret()} ${text.slice(at)}`;
      const [redacted] = redactForSummary([toolMessage(planted)], limit);
      const value = outputOf(redacted!);
      expect(value).not.toContain(secret());
      expect(value).not.toContain(secret().slice(0, 12));
      expect(value.length).toBeLessThanOrEqual(limit);
      // Same text as clipping the fully redacted output, but for the elision count.
      const reference = clipMiddle(redactSecrets(planted).text, limit);
      expect(value.slice(0, 200)).toBe(reference.slice(0, 200));
      expect(value.slice(-200)).toBe(reference.slice(-200));
    });
  }

  it('leaves short texts to redactMessages and keeps untouched messages as they are', () => {
    const short = toolMessage(`export TOKEN=${secret()}`);
    const user: ModelMessage = { role: 'user', content: 'hello' };
    const [redactedShort, redactedUser] = redactForSummary([short, user], limit);
    expect(outputOf(redactedShort!)).not.toContain(secret());
    expect(redactedUser).toEqual(user);
  });

  it('windows long strings inside tool-call inputs and JSON outputs', () => {
    const message: ModelMessage = {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: 'c2',
          toolName: 'write',
          input: { path: 'a.txt', content: `${log(500)}password = ${secret()}\n${log(500)}` },
        },
      ],
    };
    const [redacted] = redactForSummary([message], limit);
    const input = (redacted!.content as Array<{ input: { path: string; content: string } }>)[0]!
      .input;
    expect(input.path).toBe('a.txt');
    expect(input.content).not.toContain(secret());
    expect(input.content.length).toBeLessThanOrEqual(limit);
    expect(input.content).toMatch(/\n\[Baton: \d+ characters omitted\]\n/);
  });
});
