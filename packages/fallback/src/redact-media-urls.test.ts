import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets, pick, seededRandom } from './credential-families.js';
import { findGeneratedTokens } from './find-generated-tokens.js';
import { redactSecrets } from './index.js';
import { familyToken, middleOf } from './test-utils/family-tokens.js';

const seeds = fc.noBias(fc.integer({ min: 1, max: 2 ** 31 - 1 }));
const media = fc.constantFrom(
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'svg',
  'mp4',
  'webm',
  'mp3',
  'JPG',
);
const other = fc.constantFrom('json', 'txt', 'env', 'key', 'pem', 'yaml');
const urls = [
  (name: string) => `<img src="https://cdn5.cdn-example.org/file/${name}" width="800">`,
  (name: string) => `![cover](https://images.example.com/a/b/${name})`,
  (name: string) => `curl -O https://media.example.net/${name}`,
  (name: string) => `<video src="//static.example.com/v/${name}"></video>`,
];
const url = fc.noBias(fc.integer({ min: 0, max: urls.length - 1 })).map((at) => urls[at]!);
const id = fc
  .tuple(seeds, fc.noBias(fc.integer({ min: 32, max: 400 })))
  .map(([seed, length]) =>
    pick(seededRandom(seed), alphabets.base64url, length).replace(/^[-_]+/, 'a'),
  );

describe('media files named in URLs', () => {
  it('a generated id naming an image, audio or video file in a URL is an address, not a token', () => {
    fc.assert(
      fc.property(id, media, url, (name, extension, wrap) => {
        const text = wrap(`${name}.${extension}`);
        expect(findGeneratedTokens(text), text).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('the same id as another file, as a directory or in a query string is still judged', () => {
    // The generic layer is statistical (a random id reads as words now and then): a rate.
    let found = 0;
    let draws = 0;
    fc.assert(
      fc.property(
        id,
        other,
        url,
        fc.constantFrom('file', 'directory', 'query'),
        (name, extension, wrap, place) => {
          const path =
            place === 'file'
              ? `${name}.${extension}`
              : place === 'directory'
                ? `${name}/cover.jpg`
                : `cover.jpg?token=${name}`;
          draws++;
          if (findGeneratedTokens(wrap(path)).length > 0) found++;
        },
      ),
      { numRuns: 200 },
    );
    expect(found, `${found} of ${draws}`).toBeGreaterThanOrEqual(180);
  });

  it("an issuer's token used as a media file name is still redacted", () => {
    // Families that are a whole URL or hold `/` are no file name.
    const tokens = familyToken((token, family) => /[/:?#]/.test(token) || family === 'azure-sas');
    fc.assert(
      fc.property(tokens, media, url, ({ family, token }, extension, wrap) => {
        const text = wrap(`${token}.${extension}`);
        expect(redactSecrets(text).text, `${family}: ${text}`).not.toContain(middleOf(token));
      }),
      { numRuns: 400 },
    );
  });
});
