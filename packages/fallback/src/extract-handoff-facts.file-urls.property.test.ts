import type { ModelMessage } from '@ai-sdk/provider-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractHandoffFacts } from './index.js';

/** The file paths of a session whose one edit names `uri`. */
function editedPaths(uri: string): string[] {
  const messages: ModelMessage[] = [
    { role: 'user', content: 'fix' },
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'e', toolName: 'edit_file', input: { uri } }],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'e',
          toolName: 'edit_file',
          output: { type: 'text', value: 'ok' },
        },
      ],
    },
  ];
  return extractHandoffFacts(messages).files.map((fact) => fact.path);
}

const segment = fc.stringMatching(/^[a-z][a-z0-9_-]{0,7}$/);
const filePath = fc
  .tuple(
    fc.array(segment, { minLength: 1, maxLength: 3 }),
    segment,
    fc.constantFrom('ts', 'md', 'py'),
  )
  .map(([dirs, name, ext]) => `/${dirs.join('/')}/${name}.${ext}`);
// RFC 8089: an empty host and `localhost` (any case) are this machine.
const localHost = fc.constantFrom('', 'localhost', 'LocalHost', 'LOCALHOST');

describe('file:// URLs (RFC 8089)', () => {
  it('a local host (empty or `localhost`) names the path after it', () => {
    fc.assert(
      fc.property(localHost, filePath, (host, path) => {
        expect(editedPaths(`file://${host}${path}`)).toEqual([path]);
      }),
      { numRuns: 100 },
    );
  });

  it('another host names a share on it: `//host/share/x`', () => {
    fc.assert(
      fc.property(segment, filePath, (host, path) => {
        // Premise: the host is not this machine.
        fc.pre(host.toLowerCase() !== 'localhost');
        expect(editedPaths(`file://${host}${path}`)).toEqual([`//${host}${path}`]);
      }),
      { numRuns: 100 },
    );
  });

  it('control: a drive path stays a drive path, local host or none', () => {
    fc.assert(
      fc.property(localHost, fc.constantFrom('C', 'd'), filePath, (host, drive, path) => {
        expect(editedPaths(`file://${host}/${drive}:${path}`)).toEqual([`${drive}:${path}`]);
      }),
      { numRuns: 100 },
    );
  });
});
