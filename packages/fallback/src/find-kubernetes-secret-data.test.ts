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
