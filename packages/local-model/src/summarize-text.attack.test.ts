import { randomBytes } from 'node:crypto';
import { createTokenCounter, InvalidInputError } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyLines, summarizeText, type TextSummarizerRequest } from './index.js';

const counter = createTokenCounter({ model: 'gpt-4o' });
const random = () => randomBytes(4).toString('hex');
/** Characters that cost about one token each (CJK), and ones that cost almost nothing (spaces). */
const dense = (length: number) =>
  Array.from({ length }, () =>
    String.fromCodePoint(0x4e00 + Math.floor(Math.random() * 20_000)),
  ).join('');

/** The document part of a request, as the summariser reads it. */
const documentOf = (prompt: string) => prompt.slice(prompt.lastIndexOf('<document'));

describe('summarizeText on hostile input', () => {
  it('a huge line with dense ends and a sparse middle: no request exceeds chunkTokens', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 4_000, max: 20_000 }),
        fc.integer({ min: 200_000, max: 1_000_000 }),
        fc.integer({ min: 256, max: 1_500 }),
        async (ends, middle, chunkTokens) => {
          const line = `${dense(ends)}${' '.repeat(middle)}${dense(ends)}`;
          const sent: number[] = [];
          const result = await summarizeText(`first ${random()}\n${line}\nlast ${random()}`, {
            counter,
            chunkTokens,
            summarizer: async (request: TextSummarizerRequest) => {
              sent.push(counter.count(documentOf(request.prompt)));
              return `A summary of part ${request.chunkIndex + 1}.`;
            },
          });
          expect(result.strategy).toBe('summarize');
          // The document tags and the part number take a few tokens of their own.
          for (const tokens of sent) expect(tokens).toBeLessThanOrEqual(chunkTokens + 24);
        },
      ),
      { numRuns: 6 },
    );
  });

  it('non-finite sizes and times are refused with a typed error, never an unbounded output or request', async () => {
    const text = Array.from({ length: 400 }, (_, index) => `line ${index} ${random()}`).join('\n');
    for (const option of ['targetTokens', 'chunkTokens', 'minChars', 'timeoutMs'] as const) {
      for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
        const error = await summarizeText(text, {
          counter,
          summarizer: async () => 'short summary of the lines',
          [option]: value,
        }).catch((caught: unknown) => caught);
        expect(InvalidInputError.isInstance(error), `${option}: ${value}`).toBe(true);
        expect((error as InvalidInputError).message).toContain(option);
      }
    }
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => keyLines(text, value, counter)).toThrow(InvalidInputError);
    }
  });

  it('a text of nothing but secrets, to a model that echoes its prompt: no secret in any request or result', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
    const secrets = Array.from({ length: 300 }, (_, index) =>
      index % 2 === 0
        ? `ghp_${randomBytes(27)
            .toString('base64')
            .replace(/[^A-Za-z0-9]/g, 'x')
            .slice(0, 36)}`
        : `AKIA${Array.from({ length: 16 }, () => alphabet[Math.floor(Math.random() * 32)]).join('')}`,
    );
    const prompts: string[] = [];
    for (const echo of [true, false]) {
      const result = await summarizeText(secrets.join('\n'), {
        counter,
        chunkTokens: 400,
        targetTokens: 2_000,
        summarizer: async (request: TextSummarizerRequest) => {
          prompts.push(request.prompt);
          if (!echo) throw new Error(`upstream failed for ${secrets[0]}`);
          return request.prompt.slice(0, 2_000);
        },
      });
      const everything = `${prompts.join('\n')}\n${result.text}\n${result.fallbackReason ?? ''}`;
      for (const secret of secrets) expect(everything).not.toContain(secret);
    }
  });
});
