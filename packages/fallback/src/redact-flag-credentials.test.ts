import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { drawn } from './test-utils/drawn.js';

// `name:password` after a basic-auth flag (`-u`, `--user`, `-a`, `--auth`, `--proxy-user`) is the
// convention of HTTP clients and the tools built on them, whichever tool it is: the tool's name is
// drawn at test time, so no list of tools can be what catches it.
const lower = 'abcdefghijklmnopqrstuvwxyz';
const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const digits = '0123456789';
// A password drawn from letters, digits and shell-safe symbols, holding a lower-case letter and a
// digit or a symbol (what a password policy asks for). `***`, `...` and `xxx` read as a masked or
// elided value, which the redactor keeps by design: the draw leaves them out.
const password = drawn(`${lower}${upper}${digits}!@#%^*_+.-`, 8, 32).filter(
  (value) =>
    /[a-z]/.test(value) &&
    !/\*\*|\.\.|xxx/i.test(value) &&
    // A lower-case name with a number (`deploy2`, `app_user`) is read as a user or group name.
    !/^[a-z]+[_-]?[a-z]*\d{0,4}$/.test(value) &&
    /[\d!@#%^*_+.-]/.test(value) &&
    /^[A-Za-z0-9]/.test(value) &&
    // A uniform draw repeats few characters; one that is mostly one character reads as filler.
    new Set(value).size * 2 >= value.length,
);
const user = drawn(`${lower}${digits}`, 1, 12).filter((value) => /^[a-z]/.test(value));
const tool = drawn(lower, 3, 10).filter((name) => !/curl/.test(name));
const flag = fc.constantFrom('-u ', '--user ', '--user=', '-a ', '--auth ', '--proxy-user ');
const quoting = fc.constantFrom(
  (name: string, secret: string) => `${name}:${secret}`,
  (name: string, secret: string) => `"${name}:${secret}"`,
  (name: string, secret: string) => `'${name}:${secret}'`,
  (name: string, secret: string) => `${name}:'${secret}'`,
  (name: string, secret: string) => `"${name}":"${secret}"`,
);
const position = fc.constantFrom(
  (command: string) => command,
  (command: string) => `$ ${command} https://api.example.com/v1/items`,
  (command: string) => `2024-05-01T10:00:00Z INFO running: ${command} --verbose`,
  (command: string) => `{"cmd":"${command.replace(/"/g, '\\"')} https://h.example.com"}`,
  (command: string) => `steps:\n  - run: ${command} https://h.example.com\n`,
  (command: string) => `I ran \`${command}\` and it worked.`,
);

describe('basic-auth flag credentials on any command line', () => {
  it('redact the password of name:password after a basic-auth flag (property)', () => {
    fc.assert(
      fc.property(
        tool,
        flag,
        quoting,
        user,
        password,
        position,
        (name, option, quote, who, secret, at) => {
          const text = at(`${name} ${option}${quote(who, secret)}`);
          const result = redactSecrets(text);
          expect(result.text).not.toContain(secret);
          // The name is kept: only the secret is a credential.
          expect(result.findings.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keep user:group pairs, addresses, paths, slots and templates after the same flags (property)', () => {
    const word = fc.constantFrom(
      'node',
      'root',
      'app',
      'www-data',
      'postgres',
      'nginx',
      'staff',
      'Staff2',
      'App123',
    );
    const notPassword = fc.oneof(
      fc.tuple(fc.nat({ max: 65535 }), fc.nat({ max: 65535 })).map(([a, b]) => `${a}:${b}`),
      fc.tuple(word, word).map(([a, b]) => `${a}:${b}`),
      fc.constant('"$(id -u):$(id -g)"'),
      fc.constant('$UID:$GID'),
      fc.constant('<user:password>'),
      fc.constant('[user:pass]'),
      fc.constant('user:password'),
      fc.tuple(word, drawn(lower, 3, 10)).map(([host, dir]) => `${host}:/srv/${dir}/Backup2`),
      fc.tuple(word, fc.nat({ max: 65535 })).map(([host, port]) => `TCP:${host}:${port}`),
    );
    fc.assert(
      fc.property(tool, flag, notPassword, (name, option, value) => {
        const text = `${name} ${option}${value} --rm image`;
        // No command-line finding (a key named `auth` is the keyed layer's to judge).
        const found = redactSecrets(text).findings.filter(
          (finding) => finding.kind === 'cli-password',
        );
        expect(found).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
