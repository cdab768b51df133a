import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReceipt, extractHandoffFacts } from './index.js';
import { toolExchange as call } from './test-utils/tool-exchange.js';

/**
 * Attack suite (reviewer): a path-named argument holding one absolute path with spaces
 * (`/Users/me/Library/Application Support/x.json`, `C:\Program Files\…`, `My Component.tsx`) was
 * read as text: the receipt listed `/Users/me/Library/Application`, a file that does not exist,
 * under "Read or named", and the edit of the real file was lost.
 */

const piece = fc.noBias(fc.stringMatching(/^[A-Za-z][A-Za-z0-9é_-]{1,8}$/));
const spaced = fc.array(piece, { minLength: 2, maxLength: 3 }).map((pieces) => pieces.join(' '));
const path = fc
  .tuple(
    fc.constantFrom('/Users/dev/', '/home/dev/', '~/', 'C:\\Users\\dev\\'),
    fc.array(fc.oneof(piece, spaced), { minLength: 1, maxLength: 3 }),
    spaced,
    fc.constantFrom('ts', 'tsx', 'json', 'md', 'py'),
  )
  .map(([root, directories, name, extension]) => {
    const separator = root.includes('\\') ? '\\' : '/';
    return `${root}${[...directories, `${name}.${extension}`].join(separator)}`;
  });

describe('attack: one path with spaces in a path-named argument', () => {
  it('is one file, edited or read as the tool did, quoted whole in the receipt', () => {
    fc.assert(
      fc.property(
        path,
        fc.constantFrom('file_path', 'path', 'filePath', 'target_file'),
        fc.boolean(),
        (file, field, edit) => {
          const messages = [
            { role: 'user' as const, content: 'fix it' },
            ...(edit
              ? call('edit', { [field]: file, old_string: 'a', new_string: 'b' }, 'ok')
              : call('read', { [field]: file }, 'contents')),
          ];
          const facts = extractHandoffFacts(messages);
          expect(facts.files.map((fact) => fact.path)).toEqual([file]);
          expect(facts.files[0]![edit ? 'written' : 'read']).toBe(true);
          const section = createReceipt(messages).sections.files ?? '';
          expect(section).toContain(JSON.stringify(file));
        },
      ),
      { numRuns: 300 },
    );
  });
});
