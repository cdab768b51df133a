import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractHandoffFacts } from './index.js';

let id = 0;
function read(path: string): ModelMessage[] {
  const toolCallId = `r${++id}`;
  return [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId, toolName: 'read_file', input: { path } }],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId,
          toolName: 'read_file',
          output: { type: 'text', value: 'x' },
        },
      ],
    },
  ];
}

const segment = fc.stringMatching(/^[a-z][a-z0-9]{1,7}$/);

describe('working directories named in prose, POSIX and Windows', () => {
  it('one file per path whatever punctuation ends the sentence naming the directory', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        segment,
        fc.constantFrom('.', ',', ';', ')', '.)', ''),
        fc.boolean(),
        (parts, file, end, windows) => {
          const root = windows ? `D:\\${parts.join('\\')}` : `/${parts.join('/')}`;
          const absolute = windows ? `${root}\\src\\${file}.ts` : `${root}/src/${file}.ts`;
          const messages: ModelMessage[] = [
            { role: 'user', content: `(Working directory: ${root}${end} Fix ${file}.)` },
            ...read(absolute),
            ...read(`src/${file}.ts`),
            ...read(`./src/${file}.ts`),
          ];
          const paths = extractHandoffFacts(messages).files.map((fact) => fact.path);
          expect(paths).toEqual([absolute]);
        },
      ),
      { numRuns: 80 },
    );
  });
});
