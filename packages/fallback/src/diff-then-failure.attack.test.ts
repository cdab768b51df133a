import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { extractHandoffFacts } from './index.js';
import { toolExchange as call } from './test-utils/tool-exchange.js';

// Review attack: a hunk ran on while lines opened with a space or `-`, so the failures a command
// printed right after a diff (`git diff && npx jest`: `  ● suite › test`, `    TypeError: …`;
// `go test`: `--- FAIL: TestA`) were taken for diff lines and left out of the receipt. A hunk
// holds the lines its header counts.
const word = fc.noBias(fc.stringMatching(/^[a-z]{3,9}$/));
const words = fc.array(word, { minLength: 2, maxLength: 6 }).map((list) => list.join(' '));
const failure = fc.oneof(
  fc
    .tuple(word, words)
    .map(([name, text]) => `    ${name[0]!.toUpperCase()}${name.slice(1)}Error: ${text}`),
  words.map((text) => `--- FAIL: Test${text.replace(/ /g, '')} (0.01s)`),
  words.map((text) => `  Error: ${text}`),
);

it('failures printed right after a diff are errors; the same lines inside a counted hunk are not', () => {
  fc.assert(
    fc.property(failure, fc.integer({ min: 1, max: 4 }), fc.boolean(), (line, context, inHunk) => {
      const body = Array.from({ length: context }, (_, at) => ` line ${at}`).join('\n');
      // Control: the header counts the line as a context or removed line of the hunk.
      const counted = inHunk ? 1 : 0;
      const header = `@@ -1,${context + 1 + counted} +1,${context + 1 + (inHunk && line.startsWith(' ') ? 1 : 0)} @@`;
      const output = `diff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n${header}\n${body}\n-old\n+new\n${line}\nexit code: 0`;
      const messages: ModelMessage[] = [
        { role: 'user', content: 'check the change' },
        ...call('shell', { command: 'git diff && npm test' }, output),
      ];
      const errors = extractHandoffFacts(messages).errors.map((error) => error.line);
      expect(errors.some((error) => error.includes(line.trim()))).toBe(!inHunk);
    }),
    { numRuns: 150 },
  );
});
