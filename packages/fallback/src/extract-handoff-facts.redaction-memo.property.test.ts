import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractHandoffFacts } from './extract-handoff-facts.js';

// A window redacts each distinct text once and shares it between call targets, paths and error
// lines: what a call shows must not depend on what else the window holds, and no secret may
// survive through a shared entry.
const secrets = ['ghp_16C7e42F292c6912E7710c838347Ae178B4a', 'AKIAZ3MHQK7PLR4SXV2N'];
const target = fc.constantFrom(
  'src/a.ts',
  './src/a.ts',
  `src/${secrets[0]}.ts`,
  `password=${secrets[1]}`,
  `curl -H "Authorization: Bearer ${secrets[0]}" https://x.io`,
  'npm test',
  `/repo/${secrets[1]}/b.py`,
);
const call = fc.record({
  field: fc.constantFrom('path', 'command', 'file_path', 'pattern'),
  value: target,
  failed: fc.boolean(),
  output: target,
});

function window(calls: Array<{ field: string; value: string; failed: boolean; output: string }>) {
  return calls.flatMap(({ field, value, failed, output }, index): ModelMessage[] => [
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: `c${index}`, toolName: 'run', input: { [field]: value } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: `c${index}`,
          toolName: 'run',
          output: failed
            ? { type: 'error-text', value: `Error: ${output}` }
            : { type: 'text', value: output },
        },
      ],
    },
  ]);
}

describe('extractHandoffFacts redaction within a window', () => {
  it('shows each call as it shows it alone, and leaks no secret', () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 8 }), (calls) => {
        const facts = extractHandoffFacts(window(calls));
        calls.forEach((item, index) => {
          const alone = extractHandoffFacts(window([item])).toolCalls[0]!;
          const shown = facts.toolCalls[index]!;
          expect({ target: shown.target, outcome: shown.outcome }).toEqual({
            target: alone.target,
            outcome: alone.outcome,
          });
        });
        const text = JSON.stringify(facts);
        for (const secret of secrets) expect(text).not.toContain(secret);
      }),
      { numRuns: 300 },
    );
  });
});
