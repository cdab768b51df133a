import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { drawn } from './test-utils/drawn.js';

// What the generic layers (flag credentials, URL signatures, netrc entries, short prefixed bodies,
// capital-and-digit keys) must leave alone: what agents print all day. Drawn at test time.
const hex = '0123456789abcdef';
const word = fc.constantFrom(
  ...'user service request handler config session cache client server message value buffer stream record parser builder factory manager context option result status worker queue table index account response error file path item list node tree format render update delete create fetch load save open close read write event timer state store model view route param header body style color image frame layer point vector count total first last next size length width height'.split(
    ' ',
  ),
);
const capital = (value: string) => value[0]!.toUpperCase() + value.slice(1);

describe('generic layers keep ordinary text', () => {
  it('keep code identifiers of words, with numbers and prefixes (property)', () => {
    const identifier = fc
      .tuple(
        // `m_RecordStyleLengthV2`, `ErrorStyleLengthHeightV2` and `self.Key1…` (humps poor in
        // vowels, a number among them) read as generated tokens once.
        fc.constantFrom('', 'get', 'set', 'use', 'on', 'is', 'k', '_', 'm_', 'self.'),
        fc.array(word, { minLength: 2, maxLength: 5 }),
        fc.constantFrom('', '2', '32', '64', 'V2', 'V3', 'v2'),
      )
      .map(([head, words, tail]) => `${head}${words.map(capital).join('')}${tail}`);
    const line = fc.constantFrom(
      (name: string) => `const ${name} = await ${name}Factory.create();`,
      (name: string) => `  at ${name} (src/${name}.ts:12:5)`,
      (name: string) => `export function ${name}(input: string): void {`,
      (name: string) => `${name.toUpperCase()}_${name.toUpperCase()}=1`,
    );
    fc.assert(
      fc.property(identifier, line, (name, wrap) => {
        expect(redactSecrets(wrap(name)).findings).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('keep commit hashes in git output and UUIDs in logs (property)', () => {
    const sha = drawn(hex, 40, 40);
    const uuid = fc.uuid();
    const line = fc.oneof(
      sha.map((value) => `commit ${value}\nAuthor: Dev <dev@example.com>`),
      sha.map((value) => `${value.slice(0, 7)} fix: handle empty input`),
      fc.tuple(sha, sha).map(([a, b]) => `Merge: ${a.slice(0, 7)} ${b.slice(0, 7)}`),
      uuid.map(
        (value) => `2024-05-01T10:00:00Z INFO request_id=${value} status=200 path=/v1/items`,
      ),
      uuid.map((value) => `GET /api/items/${value}?expand=owner HTTP/1.1`),
    );
    fc.assert(
      fc.property(line, (text) => {
        expect(redactSecrets(text).findings).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('keep base64 image bytes and sentences of words (property)', () => {
    const base64 = drawn(
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
      200,
      600,
    );
    const text = fc.oneof(
      base64.map((bytes) => `<img src="data:image/png;base64,iVBORw0KGgo${bytes}=" />`),
      fc
        .array(word, { minLength: 4, maxLength: 20 })
        .map((words) => `${capital(words.join(' '))}.`),
      fc
        .array(word, { minLength: 2, maxLength: 4 })
        .map((words) => `docker run -u ${words[0]}:${words[1]} --name ${words.join('-')} image`),
    );
    fc.assert(
      fc.property(text, (value) => {
        expect(redactSecrets(value).findings).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
