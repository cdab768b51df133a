import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';

/** Shared by the restart attack properties: tokens, a fixed summariser and a tool turn. */
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A GitHub token; credential-like: a shrunk `AAAA…A9xQ` is a placeholder the redactor leaves alone. */
export const githubToken: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...alnum), { minLength: 36, maxLength: 36 })
  .filter(
    (chars) =>
      Math.max(...[...new Set(chars)].map((c) => chars.filter((d) => d === c).length)) <= 9,
  )
  .map((chars) => `ghp_${chars.join('')}`);

export const fixedSummarizer = async (): Promise<string> =>
  '## Goal\nPush the branch.\n## Completed actions\n1. RAN bash — ok\n## Active state\nok\n## Remaining work\nPush';

/** A bash call and its result of `size` repeated words (plus `suffix`). */
export function toolTurn(id: string, size: number, suffix = ''): ModelMessage[] {
  return [
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: id, toolName: 'bash', input: { command: 'git log' } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: 'bash',
          output: { type: 'text', value: `commit ${id} `.repeat(size) + suffix },
        },
      ],
    },
  ];
}
