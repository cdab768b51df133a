import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { promptToChatHistory } from './prompt-to-chat-history.js';

const word = fc.stringMatching(/^[a-z]{3,12}$/);

describe('promptToChatHistory', () => {
  it('renders every tool output kind as text in the turn that carries it (generated)', () => {
    fc.assert(
      fc.property(word, word, word, fc.integer(), (tool, text, reason, number) => {
        const outputs = [
          [{ type: 'text', value: text }, text],
          [{ type: 'error-text', value: text }, text],
          [{ type: 'json', value: { [text]: number } }, JSON.stringify({ [text]: number })],
          [{ type: 'error-json', value: [number] }, `[${number}]`],
          [{ type: 'execution-denied', reason }, `execution denied: ${reason}`],
          [{ type: 'execution-denied' }, 'execution denied'],
          [{ type: 'content', value: [{ type: 'text', text }] }, text],
        ] as const;
        for (const [output, expected] of outputs) {
          const prompt = [
            { role: 'user', content: [{ type: 'text', text: 'go' }] },
            {
              role: 'tool',
              content: [{ type: 'tool-result', toolCallId: 'c1', toolName: tool, output }],
            },
          ] as LanguageModelV4Prompt;
          const { history, warnings } = promptToChatHistory(prompt);
          // The tool turn joins the user turn before it: templates expect alternation.
          expect(history).toEqual([
            { type: 'user', text: `go\n\n[tool result ${tool}] ${expected}` },
          ]);
          expect(warnings.map((warning) => warning.type)).toEqual(['compatibility']);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('never throws on a hostile output (cycles, BigInt, missing fields)', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const output of [{ type: 'json', value: cyclic }, { type: 'json', value: 1n }, {}, null]) {
      const prompt = [
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output }],
        },
      ] as unknown as LanguageModelV4Prompt;
      expect(() => promptToChatHistory(prompt)).not.toThrow();
    }
  });
});
