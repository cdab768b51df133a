import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, redactSecrets } from './index.js';
import { shellFileEffects } from './shell-file-effects.js';

/**
 * Attack suite (reviewer): outputs big enough that spreading one value per item into a call
 * (`Math.max(...items)`, `push(...items)`) overflows the stack. Every count here is above the
 * ~120k arguments V8 accepts; a crash loses the whole receipt or redaction, not one item. Each
 * test builds megabytes: seconds alone, far more beside other test files on two cores.
 */

const word = fc.noBias(fc.stringMatching(/^[a-z][a-z0-9]{2,6}$/));

function jsonExchange(input: unknown, value: unknown): ModelMessage[] {
  return [
    { role: 'user', content: 'go' },
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'h1', toolName: 'run', input }],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'h1',
          toolName: 'run',
          output: { type: 'json', value: value as never },
        },
      ],
    },
  ];
}

describe('attack: huge inputs do not crash', () => {
  it('redactSecrets on a Slack-prefixed run of 150k+ dash groups (xoxb-<digits>-…)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('xoxb', 'xoxp', 'xapp'),
        fc.noBias(fc.integer({ min: 150_000, max: 200_000 })),
        fc.noBias(fc.stringMatching(/^[0-9A-Za-z]{1,2}$/)),
        (prefix, groups, group) => {
          const text = `${prefix}${`-${group}`.repeat(groups)}`;
          expect(() => redactSecrets(text)).not.toThrow();
        },
      ),
      { numRuns: 2 },
    );
  }, 120_000);

  it('redactSecrets on 130k+ base64 user:password values (one finding each)', () => {
    fc.assert(
      fc.property(
        word,
        word,
        fc.noBias(fc.integer({ min: 130_000, max: 140_000 })),
        (user, pass, count) => {
          const encoded = Buffer.from(`${user}:${pass}!9`).toString('base64');
          const result = redactSecrets(`${encoded} `.repeat(count));
          expect(result.findings.length).toBe(count);
        },
      ),
      { numRuns: 1 },
    );
  }, 120_000);

  it('redactSecrets on 130k+ vendor tokens beside one source map or data URI', () => {
    fc.assert(
      fc.property(
        fc.noBias(fc.stringMatching(/^[A-Z2-7]{16}$/)),
        fc.noBias(fc.integer({ min: 130_000, max: 140_000 })),
        fc.constantFrom('{"mappings":"AAAA"} ', 'data:image/png;base64,AAAA '),
        (body, count, context) => {
          const result = redactSecrets(`${context}${`AKIA${body} `.repeat(count)}`);
          expect(result.findings.length).toBe(count);
        },
      ),
      { numRuns: 1 },
    );
  }, 120_000);

  it('redactSecrets on 130k+ source-map values', () => {
    fc.assert(
      fc.property(
        fc.noBias(fc.stringMatching(/^[A-Za-z]{12}$/)),
        fc.noBias(fc.integer({ min: 130_000, max: 140_000 })),
        (segment, count) => {
          const text = `{"mappings":"${segment}"} `.repeat(count);
          expect(redactSecrets(text).findings).toHaveLength(0);
        },
      ),
      { numRuns: 1 },
    );
  }, 120_000);

  it('createReceipt on a JSON result listing 130k+ distinct files', () => {
    fc.assert(
      fc.property(
        word,
        word,
        fc.noBias(fc.integer({ min: 130_000, max: 140_000 })),
        (dir, name, count) => {
          const files = Array.from({ length: count }, (_, i) => `${dir}/${name}${i}.ts`);
          const receipt = createReceipt(jsonExchange({ command: 'ls' }, { files }));
          expect(receipt.text).toContain(dir);
        },
      ),
      { numRuns: 1 },
    );
  }, 120_000);
});

describe('a shell command naming 150,000 files', () => {
  it('is read without overflowing the stack', () => {
    const files = Array.from({ length: 150_000 }, (_, index) => `f${index}.txt`).join(' ');
    for (const command of [`tee ${files}`, `cat ${files}`, `sed -i s/a/b/ ${files}`]) {
      const effects = shellFileEffects(command);
      expect(effects.written.length + effects.read.length).toBe(150_000);
    }
  });
});
