import { propertySeed } from '@baton/test-corpus/property-seed';
import { createTokenCounter, type TokenCounter } from '@baton/tokens';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openingTagTokens } from './opening-tag-tokens.js';
import { roleTag } from './summary-prompt.js';

/**
 * The opening tag's count taken from its parts (the fixed prefix, the index digits in threes, the
 * role tag) must equal tokenising the tag, for every index a span reaches, every role, flagged or
 * not, and for look-alikes the serializer never writes (which must be counted whole, still exact).
 */
const seed = propertySeed();
const runs = (numRuns: number) => ({ numRuns, ...(seed === undefined ? {} : { seed }) });

const counters: Record<string, TokenCounter> = {
  o200k: createTokenCounter({ encoding: 'o200k_base' }),
  cl100k: createTokenCounter({ encoding: 'cl100k_base' }),
};
const roles = ['user', 'assistant', 'system', 'tool', 'developer', 'x y', '中'];

describe('openingTagTokens', () => {
  for (const [name, counter] of Object.entries(counters)) {
    it(`${name}: equals counting the tag for every index to 12,000 and every role`, () => {
      let wrong = 0;
      for (const role of roles) {
        for (const latest of [false, true]) {
          const tag = roleTag(role, latest);
          for (let index = 0; index <= 12_000; index++) {
            const line = `<message index="${index}${tag}data\n</message>\n`;
            const end = line.length - 'data\n</message>\n'.length;
            if (openingTagTokens(line, end, role, counter) !== counter.count(line.slice(0, end))) {
              wrong++;
            }
          }
        }
      }
      expect(wrong).toBe(0);
    });

    it(`${name}: equals counting the text before the data for large indexes and look-alikes`, () => {
      let fromParts = 0;
      let cases = 0;
      const digits = fc.oneof(
        fc.nat({ max: 2 ** 31 }).map(String),
        fc.stringMatching(/^[0-9]{1,14}$/),
        fc.constantFrom('', '0', '007', '1e3', '١٢', '12 3'),
      );
      const shape = fc.record({
        digits,
        role: fc.constantFrom(...roles),
        latest: fc.boolean(),
        prefix: fc.oneof(
          { arbitrary: fc.constant('<message index="'), weight: 3 },
          fc.constantFrom('<message index=', '<message  index="', ''),
        ),
        // What the serializer never writes after the digits: the tag must be counted whole.
        tag: fc.option(fc.constantFrom('"', '">\n', ' role="user">\n', '" role="user">'), {
          nil: undefined,
          freq: 2,
        }),
      });
      // A tool result's header after the tag, or text the tag's last piece would run into.
      const rest = fc.constantFrom('', '', '[tool result call-1: read (text)]\n', '\n', '/x', 'x');
      fc.assert(
        fc.property(shape, rest, ({ digits: number, role, latest, prefix, tag }, after) => {
          cases++;
          const opening = `${prefix}${number}${tag ?? roleTag(role, latest)}${after}`;
          const line = `${opening}Then\n</message>\n`;
          const tokens = openingTagTokens(line, opening.length, role, counter);
          expect(tokens).toBe(counter.count(opening));
          if (prefix === '<message index="' && /^[0-9]+$/.test(number) && tag === undefined) {
            fromParts++;
          }
        }),
        runs(400),
      );
      // Premise: a good share of the cases is the serializer's own shape, taken apart.
      expect(fromParts).toBeGreaterThan(cases * 0.2);
    });

    it(`${name}: control: the index counted as one token is wrong for some indexes`, () => {
      // The derivation's digit step matters: a run of four digits or more is several tokens.
      const tag = roleTag('assistant', false);
      let wrong = 0;
      for (let index = 0; index <= 12_000; index += 7) {
        const opening = `<message index="${index}${tag}`;
        const naive = counter.count('<message index="') + 1 + counter.count(tag);
        if (naive !== counter.count(opening)) wrong++;
      }
      expect(wrong).toBeGreaterThan(0);
    });
  }
});
