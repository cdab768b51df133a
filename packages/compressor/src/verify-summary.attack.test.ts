import { HANDOFF_SECTIONS } from '@baton/fallback';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SpanFacts, verifySummary, wordStems } from './index.js';

const none = (): SpanFacts => ({ asks: [], files: [], errors: [], tools: [], openWork: [] });
const word = fc.stringMatching(/^[a-z]{4,7}$/);
const requestedTitles = HANDOFF_SECTIONS.filter(
  ({ key }) => !['addedFacts', 'previousSummary', 'lastTurns', 'counts', 'latestAsk'].includes(key),
).map(({ title }) => title);

describe('verifySummary against adversarial replies', () => {
  it('a tool name inside another word (Read in "already") is not the tool: it is topped up', () => {
    fc.assert(
      fc.property(word, word, word, (tool, before, after) => {
        fc.pre(!['goal', 'step', 'migration', 'active', 'state', 'still'].includes(tool));
        const name = tool[0]!.toUpperCase() + tool.slice(1);
        const facts = { ...none(), tools: [name] };
        const reply = `## Goal\nThe ${before}${tool}${after} step of the migration was ${before}ed.\n## Active state\nStill ${after}ing.`;
        const stems = wordStems(reply);
        const { sections, verification } = verifySummary(reply, facts, stems);
        expect(verification.present.tools).toBe(0);
        expect(verification.added.tools).toEqual([name]);
        expect(sections?.addedFacts).toContain(`tool: ${name}`);
      }),
    );
  });

  it('still finds a tool the reply names as a word, in any case, or inside a call like read(...)', () => {
    fc.assert(
      fc.property(
        word,
        fc.constantFrom('%s', '`%s`', '%s(', 'ran %s,', '%s_tool'),
        (tool, form) => {
          fc.pre(
            !['goal', 'finish', 'work', 'completed', 'actions', 'used', 'twice'].includes(tool),
          );
          const facts = { ...none(), tools: [tool] };
          const reply = `## Goal\nFinish the work.\n## Completed actions\nUsed ${form.replace('%s', tool.toUpperCase())} twice.`;
          const { verification } = verifySummary(reply, facts, wordStems(reply));
          // `read_tool` is another tool: only the forms that name this one count.
          expect(verification.present.tools).toBe(form === '%s_tool' ? 0 : 1);
        },
      ),
    );
  });

  it('a file named by another path with the same base name is missing: it is topped up', () => {
    fc.assert(
      fc.property(word, word, word, (folderA, folderB, name) => {
        fc.pre(folderA !== folderB);
        const kept = `packages/${folderA}/src/${name}.ts`;
        const lost = `packages/${folderB}/src/${name}.ts`;
        const facts = { ...none(), files: [kept, lost] };
        const reply = `## Goal\nFix the build.\n## Relevant files\n- ${kept}`;
        const { sections, verification } = verifySummary(reply, facts, wordStems(reply));
        expect(verification.present.files).toBe(1);
        expect(verification.added.files).toEqual([lost]);
        expect(sections?.addedFacts).toContain(lost);
      }),
    );
  });

  it('a reply of one endless path-like run holding the file name: not present, top-up added', () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 50, max: 3_000 }), (folder, name, repeats) => {
        const path = `${folder}/${name}.ts`;
        const facts = { ...none(), files: [path] };
        const reply = `## Goal\nz${`/${name}.ts`.repeat(repeats)}`;
        const { verification } = verifySummary(reply, facts, wordStems(reply));
        expect(verification.present.files).toBe(0);
        expect(verification.added.files).toEqual([path]);
      }),
      { numRuns: 20 },
    );
  });

  it('a file named by its base name alone still counts as present', () => {
    fc.assert(
      fc.property(word, word, (folder, name) => {
        const path = `src/${folder}/${name}.ts`;
        const facts = { ...none(), files: [path] };
        const reply = `## Goal\nFix ${name}.ts, then run the tests.\n## Active state\nGreen.`;
        const { verification } = verifySummary(reply, facts, wordStems(reply));
        expect(verification.present.files).toBe(1);
      }),
    );
  });

  it('a short ask inside a longer word (ok in "took") is not stated: it is topped up', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('ok', 'go', 'yes', 'do it', 'run'),
        word,
        word,
        (ask, before, after) => {
          fc.pre(![before, after].some((w) => w.includes(ask.replace(' ', ''))));
          const facts = { ...none(), asks: [ask] };
          const reply = `## Goal\nThe ${before}${ask.replace(' ', '')}${after} step ${before}.\n## Active state\nDone.`;
          const { verification } = verifySummary(reply, facts, wordStems(reply));
          expect(verification.present.asks).toBe(0);
          expect(verification.added.asks).toEqual([ask]);
        },
      ),
    );
  });

  it('a reply that only echoes the requested headings (empty or "None" bodies) is empty, not a summary', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(requestedTitles, { minLength: 3 }),
        fc.constantFrom('', 'None', 'N/A', '-', '(none)'),
        fc.constantFrom('## %s', '**%s**', '%s:'),
        (titles, body, form) => {
          const facts = { ...none(), files: ['src/app.ts'], tools: ['read_file'] };
          const reply = titles.map((title) => `${form.replace('%s', title)}\n${body}`).join('\n');
          const { sections, verification } = verifySummary(reply, facts, wordStems('app read'));
          expect(verification.rejection).toBe('empty');
          expect(sections).toBeUndefined();
        },
      ),
    );
  });
});
