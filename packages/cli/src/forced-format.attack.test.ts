import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES, InputFileError, parseTranscript, runCli } from './index.js';
import { captureStream } from './test-utils/capture-stream.js';

// Attack: `--format codex-cli`, `gemini-cli` or `claude-code` forced on a file of another shape
// read it as a transcript of 0 messages, exit 0: `baton count` reported 3 tokens for an 801-message
// AI SDK file, and `baton compact --format codex-cli s.json --out c.json` wrote `[]`. A forced
// format whose reader finds nothing of its own in the file is bad input (exit 2), as the other
// readers already say (`line 1: expected a JSON object`, `not a Gemini CLI session`).

const word = fc.stringMatching(/^[a-z]{1,8}$/);
const text = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));
// A user message first: every format keeps it (Gemini's `info` notices and Claude Code's lack of
// system lines would leave a conversation of system messages empty).
const conversation = fc
  .tuple(
    text,
    fc.array(fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), content: text }), {
      maxLength: 12,
    }),
  )
  .map(([ask, rest]) => [{ role: 'user', content: ask }, ...rest]);

/** The conversation written in a shape that is not `forced`. */
const shapes: Record<string, (messages: Array<{ role: string; content: string }>) => string> = {
  'ai-sdk array': (messages) => JSON.stringify(messages),
  'openai request body': (messages) => JSON.stringify({ model: 'gpt-4o', messages }),
  'one message per line': (messages) => messages.map((m) => JSON.stringify(m)).join('\n'),
  'gemini session': (messages) =>
    JSON.stringify({
      sessionId: 's',
      projectHash: 'p',
      messages: messages.map((m) => ({
        type: m.role === 'user' ? 'user' : m.role === 'assistant' ? 'gemini' : 'info',
        content: m.content,
      })),
    }),
  'codex rollout': (messages) =>
    messages
      .map((m) =>
        JSON.stringify({
          timestamp: '2026-01-16T10:00:00.000Z',
          type: 'response_item',
          payload: {
            type: 'message',
            role: m.role,
            content: [
              { type: m.role === 'assistant' ? 'output_text' : 'input_text', text: m.content },
            ],
          },
        }),
      )
      .join('\n'),
  'claude code session': (messages) =>
    messages
      .filter((m) => m.role !== 'system')
      .map((m, index) =>
        JSON.stringify({
          type: m.role,
          uuid: `u${index}`,
          sessionId: 's',
          message: {
            role: m.role,
            content: m.content,
            ...(m.role === 'assistant' ? { id: `m${index}` } : {}),
          },
        }),
      )
      .join('\n'),
};
const native: Record<string, string> = {
  'codex-cli': 'codex rollout',
  'gemini-cli': 'gemini session',
  'claude-code': 'claude code session',
};
const refusal =
  /not a (Codex CLI rollout|Gemini CLI session|Claude Code session)|expected a JSON object|invalid JSON/;

describe('attack: a forced --format that does not match the file', () => {
  it('is refused, never read as an empty transcript (property)', () => {
    let refused = 0;
    fc.assert(
      fc.property(
        conversation,
        fc.constantFrom('codex-cli', 'gemini-cli', 'claude-code'),
        fc.constantFrom(...Object.keys(shapes)),
        (messages, forced, shape) => {
          fc.pre(shape !== native[forced]);
          const text = shapes[shape]!(messages);
          // Premise: the text is a transcript of at least one message in its own format.
          if (shape !== 'one message per line') {
            const own = parseTranscript(text, { file: 'own.json', claudeCode: { history: 'all' } });
            expect(own.messages.length).toBeGreaterThan(0);
          }
          let error: unknown;
          try {
            parseTranscript(text, { file: 's.json', format: forced as 'codex-cli' });
          } catch (caught) {
            error = caught;
          }
          expect(InputFileError.isInstance(error), `${forced} on ${shape}`).toBe(true);
          expect((error as Error).message).toMatch(refusal);
          refused++;
        },
      ),
      { numRuns: 300 },
    );
    expect(refused).toBeGreaterThan(100);
  });

  it('control: each forced format still reads its own files, and the empty session of each', () => {
    fc.assert(
      fc.property(
        conversation,
        fc.constantFrom('codex-cli', 'gemini-cli', 'claude-code'),
        (messages, forced) => {
          const text = shapes[native[forced]!]!(messages);
          const read = parseTranscript(text, { file: 's.json', format: forced as 'codex-cli' });
          expect(read.format).toBe(forced);
          expect(read.messages.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 100 },
    );
    // Files of the format that hold no conversation yet are still that format, not an error.
    expect(
      parseTranscript(JSON.stringify({ sessionId: 's', projectHash: 'p', messages: [] }), {
        format: 'gemini-cli',
      }).messages,
    ).toEqual([]);
    expect(
      parseTranscript(
        JSON.stringify({ timestamp: 't', type: 'session_meta', payload: { id: 'x' } }),
        { format: 'codex-cli' },
      ).messages,
    ).toEqual([]);
    expect(
      parseTranscript(JSON.stringify({ type: 'summary', summary: 'Fix', leafUuid: 'u1' }), {
        format: 'claude-code',
      }).messages,
    ).toEqual([]);
  });

  it('baton compact --format codex-cli on an AI SDK file exits 2 and writes nothing', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'baton-forced-format-'));
    const input = join(folder, 's.json');
    writeFileSync(
      input,
      JSON.stringify([
        { role: 'user', content: 'fix the build' },
        { role: 'assistant', content: 'done' },
      ]),
    );
    const out = join(folder, 'c.json');
    const stdout = captureStream();
    const stderr = captureStream();
    const code = await runCli(['compact', input, '--format', 'codex-cli', '--out', out], {
      stdout,
      stderr,
    });
    expect(code).toBe(EXIT_CODES.badInput);
    expect(existsSync(out)).toBe(false);
    expect(stderr.text).toMatch(/not a Codex CLI rollout/);
    // Control: auto-detection reads the same file.
    const auto = await runCli(['compact', input, '--out', out], {
      stdout: captureStream(),
      stderr: captureStream(),
    });
    expect(auto).toBe(EXIT_CODES.ok);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveLength(2);
  });
});
