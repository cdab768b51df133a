import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseDots } from './normalize-files.js';

// The split-and-join form every path went through before paths with nothing to collapse were
// returned as they are: the reference the fast path must agree with.
function referenceCollapse(path: string): string {
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(segment);
  }
  return (absolute ? '/' : '') + out.join('/');
}

// Paths built from the pieces that matter: empty, dot and dot-dot segments, dotted names.
const piece = fc.constantFrom('', '.', '..', '...', '.a', 'a.', 'src', 'x.ts', '~', 'a..b');

describe('collapseDots', () => {
  it('agrees with splitting and joining on every path', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 7 }), (pieces) => {
        const path = pieces.join('/');
        expect(collapseDots(path)).toBe(referenceCollapse(path));
      }),
      { numRuns: 2_000 },
    );
  });

  it('agrees on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('/', '.', 'a', ' ') }), (path) => {
        expect(collapseDots(path)).toBe(referenceCollapse(path));
      }),
      { numRuns: 2_000 },
    );
  });
});
