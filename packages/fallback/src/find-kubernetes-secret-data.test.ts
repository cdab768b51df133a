import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets, pick, seededRandom } from './credential-families.js';
import { redactSecrets } from './index.js';

// Secret values, key names and layouts are drawn at test time.
const seeds = fc.integer({ min: 1, max: 2 ** 31 - 1 });
const keyName = fc.constantFrom('extra', 'api', 'tls.key', 'config.json', 'db-url', 'value_1');
const indent = fc.constantFrom('  ', '    ', '\t');
const quote = fc.constantFrom('', '"', "'");
const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const secretText = (seed: number, length: number) =>
  pick(seededRandom(seed), `${alphabets.alnum}!#%&*+-_`, length);
// The symbols above can spell the marks of a value someone is meant to replace, which every keyed
// rule leaves alone by design: a mask (`LkJH1***`), a `%VAR%` reference (`%BOY6RLE%`), a `your`
// or `xxxx` standing apart (`!Yourer`, `*Xxxx18`), a run of `#` or `_`, or one letter or digit
// making up most of it in any case (`gg7aYggWG`, `UU!U#aa`). About 1 draw in 8,000.
const marksPlaceholder = (text: string) => {
  if (/\*{3}|#{4}|_{4}|^%\w*%$|(?:^|[^A-Za-z0-9])(?:your|x{4})|x{4}(?![A-Za-z0-9])/i.test(text)) {
    return true;
  }
  const core = text.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
  const counts = new Map<string, number>();
  for (const character of core) counts.set(character, (counts.get(character) ?? 0) + 1);
  const most = Math.max(0, ...counts.values());
  return (core.length >= 8 && most * 2 > core.length) || (core.length >= 4 && counts.size <= 2);
};

describe('Kubernetes Secret data blocks', () => {
  it('redacts every data and stringData value of a kind: Secret, whatever its key', () => {
    fc.assert(
      fc.property(
        seeds,
        fc.integer({ min: 7, max: 48 }),
        keyName,
        indent,
        quote,
        fc.constantFrom('Secret', 'secret', '"Secret"'),
        (seed, length, key, pad, mark, kind) => {
          const clear = secretText(seed, length);
          fc.pre(!marksPlaceholder(clear));
          const encoded = encode(clear);
          const manifest = `apiVersion: v1\nkind: ${kind}\nmetadata:\n${pad}name: app\ntype: Opaque\ndata:\n${pad}${key}: ${mark}${encoded}${mark}\nstringData:\n${pad}${key}: ${mark}${clear}${mark}\n`;
          const output = redactSecrets(manifest).text;
          expect(output, manifest).not.toContain(encoded);
          expect(output, manifest).not.toContain(clear);
          expect(output).toContain(`name: app`);
        },
      ),
    );
  });

  // Base64 of a varied password can itself repeat one letter (`YeV` encodes as `WWVW`): the
  // encoding once read as a placeholder and the password stayed, 1 draw in ~400,000 above.
  it('redacts an encoded value whose base64 repeats one letter, judging the secret it holds', () => {
    const group = fc
      .noBias(fc.integer({ min: 0, max: 14 }))
      .map((index) => `Y${'abcdefghijklmno'[index]}V`);
    fc.assert(
      fc.property(fc.array(group, { minLength: 3, maxLength: 12 }), keyName, (groups, key) => {
        const encoded = encode(groups.join(''));
        const manifest = `kind: Secret\ndata:\n  ${key}: ${encoded}\n`;
        expect(redactSecrets(manifest).text, manifest).not.toContain(encoded);
      }),
      { numRuns: 100 },
    );
  });

  it('redacts block scalars under data and leaves a ConfigMap in the same file alone', () => {
    fc.assert(
      fc.property(seeds, fc.integer({ min: 40, max: 200 }), keyName, (seed, length, key) => {
        const encoded = encode(secretText(seed, length));
        const lines = encoded.match(/.{1,32}/g)!.join('\n    ');
        const config = encode(secretText(seed + 1, 20));
        const file = `kind: ConfigMap\ndata:\n  settings: ${config}\n---\nkind: Secret\ndata:\n  ${key}: |\n    ${lines}\n  other: x\n`;
        const output = redactSecrets(file).text;
        for (const line of lines.split('\n    ')) expect(output, file).not.toContain(line);
        expect(output).toContain(config);
        expect(output).toContain('other: x');
      }),
    );
  });

  it('redacts the data map of `kubectl get secret -o json`, not a ConfigMap', () => {
    fc.assert(
      fc.property(seeds, fc.integer({ min: 7, max: 48 }), keyName, (seed, length, key) => {
        const encoded = encode(secretText(seed, length));
        const secret = JSON.stringify({
          apiVersion: 'v1',
          data: { [key]: encoded },
          kind: 'Secret',
        });
        expect(redactSecrets(secret).text).not.toContain(encoded);
        const map = JSON.stringify({
          apiVersion: 'v1',
          data: { [key]: encoded },
          kind: 'ConfigMap',
        });
        expect(redactSecrets(map).findings.filter((f) => f.kind === 'kubernetes-secret')).toEqual(
          [],
        );
      }),
    );
  });

  it('leaves values shorter than gitleaks takes, templates and placeholders', () => {
    fc.assert(
      fc.property(seeds, fc.integer({ min: 1, max: 6 }), (seed, length) => {
        const short = encode(secretText(seed, length));
        const manifest = `kind: Secret\ndata:\n  user: ${short}\n  password: "{{ .Values.password | b64enc }}"\n  token: xxxxxxxxxxxx\n`;
        expect(redactSecrets(manifest).findings, manifest).toEqual([]);
      }),
    );
  });
});
