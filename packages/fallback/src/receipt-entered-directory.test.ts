import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractHandoffFacts } from './index.js';
import { toolExchange as call } from './test-utils/tool-exchange.js';

// Found by the session-22 review: after `cd packages/api &&` a path climbing with `..` was listed
// as `packages/api/../web/x.ts`, a path `git diff` printed from the repository's root as
// `packages/api/packages/web/x.ts`, and a file a shell command read (`cat ../x`) under no folder.
const runs = Number(process.env.BATON_LEAK_RUNS ?? 100);
const word = fc.noBias(fc.stringMatching(/^[a-z]{3,8}$/));
const folders = fc.array(word, { minLength: 1, maxLength: 3 });
const extension = fc.constantFrom('ts', 'py', 'rs', 'go', 'md');
const paths = (messages: ModelMessage[]) => extractHandoffFacts(messages).files.map((f) => f.path);

describe('paths named from a directory a command entered', () => {
  it('climb with `..` inside the entered directory, and stay as written above it', () => {
    fc.assert(
      fc.property(
        folders,
        fc.noBias(fc.integer({ min: 1, max: 4 })),
        folders,
        word,
        extension,
        (entered, up, below, name, ext) => {
          const relative = `${'../'.repeat(up)}${below.join('/')}/${name}.${ext}`;
          const messages: ModelMessage[] = [
            { role: 'user', content: 'read it' },
            ...call('bash', { command: `cd ${entered.join('/')} && cat ${relative}` }, 'ok'),
          ];
          const expected =
            up <= entered.length
              ? [...entered.slice(0, entered.length - up), ...below, `${name}.${ext}`].join('/')
              : relative;
          const listed = paths(messages);
          expect(listed).toContain(expected);
          // `..` only where it leads the path (above the entered directory), never after a name.
          const inner = (path: string) => path.replace(/^(?:\.\.\/)+/, '');
          expect(listed.some((path) => /(?:^|\/)\.\.?\//.test(inner(path)))).toBe(false);
        },
      ),
      { numRuns: runs },
    );
  });

  it('printed from the repository root (same first folder) are kept; others go under it', () => {
    fc.assert(
      fc.property(word, word, word, word, extension, (top, sub, other, name, ext) => {
        fc.pre(sub !== other && top !== sub);
        const rootFile = `${top}/${other}/${name}.${ext}`;
        const localFile = `src/${name}.${ext}`;
        const messages: ModelMessage[] = [
          { role: 'user', content: 'what changed' },
          ...call(
            'bash',
            { command: `cd ${top}/${sub} && git diff --stat` },
            ` ${rootFile} | 4 ++--\n 1 file changed`,
          ),
          ...call(
            'bash',
            { command: `cd ${top}/${sub} && npx tsc -p .` },
            `${localFile}(3,5): error TS2322: no`,
          ),
        ];
        const listed = paths(messages);
        expect(listed).toContain(rootFile);
        expect(listed).toContain(`${top}/${sub}/${localFile}`);
        expect(listed).not.toContain(`${top}/${sub}/${rootFile}`);
      }),
      { numRuns: runs },
    );
  });
});
