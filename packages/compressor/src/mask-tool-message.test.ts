import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestOf, maskToolMessage } from './mask-tool-message.js';

const redact = (text: string) => text.replaceAll('secret', '[REDACTED]');

describe('maskToolMessage', () => {
  it("states the output's line count and first non-blank line as splitting it on line breaks does", () => {
    const unit = fc.constantFrom(
      'a',
      'secret',
      ' ',
      '\t',
      '\r',
      '\n',
      '\n\n',
      '\u2028',
      'é',
      'xyz ',
    );
    fc.assert(
      fc.property(
        fc
          .array(unit, { minLength: 30, maxLength: 400, size: 'large' })
          .map((units) => units.join('')),
        fc.constantFrom('text', 'error-text'),
        (value, type) => {
          const message = {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: 'c1', toolName: 'run', output: { type, value } },
            ],
          } as ModelMessage;
          const lines = value === '' ? 0 : value.split('\n').length;
          const first = value
            .split('\n')
            .map((line) => line.trim())
            .find((line) => line !== '');
          const status = type === 'error-text' ? 'error' : 'ok';
          const expected = `[Baton: earlier run output masked; ${status}; ${lines} lines, ${value.length} chars; first line: "${digestOf(first ?? '', redact)}"]`;
          const masked = maskToolMessage(message, redact);
          if (expected.length >= value.length) expect(masked).toBe(message);
          else
            expect(masked).toEqual({
              role: 'tool',
              content: [
                {
                  type: 'tool-result',
                  toolCallId: 'c1',
                  toolName: 'run',
                  output: { type, value: expected },
                },
              ],
            });
        },
      ),
      { numRuns: 500, seed: 20_261_123 },
    );
  });
});
