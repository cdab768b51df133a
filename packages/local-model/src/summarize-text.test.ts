import { createTokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyLines, summarizeText, type TextSummarizerRequest } from './summarize-text.js';

const counter = createTokenCounter({ model: 'gpt-4o' });
const random = () => Math.random().toString(36).slice(2, 10);

/** A generated log: a heading, many ordinary lines, paths, one error, a closing line. */
function log(lines = 400) {
  const path = `src/${random()}/module-${random()}.ts`;
  const error = `Error: connection refused to db-${random()} on port 5432`;
  const body = Array.from(
    { length: lines },
    (_, index) => `step ${index}: processed batch ${random()} in ${index % 97} ms`,
  );
  body.splice(Math.floor(lines / 2), 0, '## Database migration', `loading ${path}`, error);
  return {
    text: [`run ${random()} started`, ...body, `run finished with status ${random()}`].join('\n'),
    path,
    error,
  };
}

describe('summarizeText', () => {
  it('returns a text under minChars unchanged, without calling the summariser', async () => {
    let calls = 0;
    const text = `short output ${random()}`;
    const result = await summarizeText(text, {
      summarizer: async () => {
        calls++;
        return 'x';
      },
    });
    expect(result).toMatchObject({ text, strategy: 'unchanged', chunks: 0 });
    expect(calls).toBe(0);
  });

  it('chunks a long text within chunkTokens, rolling the summary forward, with detail and topics in the instructions', async () => {
    const { text } = log(2_000);
    const requests: TextSummarizerRequest[] = [];
    const result = await summarizeText(text, {
      chunkTokens: 1_000,
      detail: 'brief',
      preserveTopics: ['database migration'],
      counter,
      summarizer: async (request) => {
        requests.push(request);
        return `summary of part ${request.chunkIndex + 1}`;
      },
    });
    expect(result.strategy).toBe('summarize');
    expect(result.chunks).toBeGreaterThan(1);
    expect(requests).toHaveLength(result.chunks);
    expect(result.text).toBe(`summary of part ${result.chunks}`);
    for (const [index, request] of requests.entries()) {
      const document = request.prompt.slice(request.prompt.indexOf('<document'));
      expect(counter.count(document)).toBeLessThanOrEqual(1_000 + 40);
      expect(request.instructions).toContain('database migration');
      expect(request.instructions).toMatch(/brief/i);
      if (index > 0) expect(request.prompt).toContain(`summary of part ${index}`);
    }
  });

  it('never sends a secret to the summariser, nor returns one', async () => {
    const token = `ghp_${Array.from({ length: 36 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 36)]).join('')}`;
    const { text } = log(300);
    let seen = '';
    const input = `${text}\nexport GITHUB_TOKEN=${token}\n`;
    const summarized = await summarizeText(input, {
      summarizer: async (request) => {
        seen += request.prompt;
        return `deployed with ${token}`;
      },
    });
    expect(seen).not.toContain(token);
    expect(seen).toContain('[REDACTED');
    expect(summarized.text).not.toContain(token);
    const result = await summarizeText(input, {
      summarizer: async () => {
        throw new Error(`upstream failed on ${token}`);
      },
    });
    expect(result.strategy).toBe('key-lines');
    expect(result.text).not.toContain(token);
    expect(result.fallbackReason).not.toContain(token);
  });

  it.each([
    ['throws', async () => Promise.reject(new Error('boom')), /boom/],
    ['replies empty', async () => '  ', /empty/],
    ['refuses', async () => "I'm sorry, I can't help with that.", /refused/],
    ['replies far over the target', async () => 'word '.repeat(2_000), /exceeds its target/],
  ])('falls back to the key lines when the summariser %s', async (_, summarizer, reason) => {
    const { text, path, error } = log(600);
    const result = await summarizeText(text, { summarizer, targetTokens: 300, counter });
    expect(result.strategy).toBe('key-lines');
    expect(result.fallbackReason).toMatch(reason);
    expect(result.text).toContain(error);
    expect(result.text).toContain(path);
    expect(result.text).toContain('## Database migration');
    expect(result.text).toContain(text.split('\n')[0]);
    expect(result.text).toContain(text.split('\n').at(-1));
    expect(result.tokensAfter).toBeLessThanOrEqual(300);
  });

  it('falls back on timeout and on abort, even when the summariser ignores its signal', async () => {
    const { text } = log(300);
    const never = () => new Promise<string>(() => {});
    const timedOut = await summarizeText(text, { summarizer: never, timeoutMs: 50 });
    expect(timedOut).toMatchObject({ strategy: 'key-lines', fallbackReason: 'timed out' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const aborted = await summarizeText(text, {
      summarizer: never,
      abortSignal: controller.signal,
    });
    expect(aborted).toMatchObject({
      strategy: 'key-lines',
      fallbackReason: 'aborted by the caller',
    });
  });
});

describe('keyLines', () => {
  it('stays within its budget for any text and keeps the first line when it fits', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 300 }), { maxLength: 200 }),
        fc.integer({ min: 40, max: 600 }),
        (lines, budget) => {
          const text = lines.join('\n');
          const result = keyLines(text, budget, counter);
          expect(counter.count(result)).toBeLessThanOrEqual(budget + 8);
        },
      ),
      { numRuns: 200 },
    );
  });
});
