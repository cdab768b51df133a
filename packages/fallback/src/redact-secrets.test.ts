import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

// Fake secrets are assembled at run time so the repository never holds a literal token.
const github = 'ghp_' + 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5';
const aws = 'AKIA' + 'Q3EGRTZ7NQ4XKJ5W';

describe('redactSecrets', () => {
  it('replaces a vendor token and reports its position in the original text', () => {
    const text = `token is ${github} ok`;
    const result = redactSecrets(text);
    expect(result.text).toBe('token is [REDACTED:github-token] ok');
    expect(result.findings).toEqual([{ kind: 'github-token', start: 9, end: 9 + github.length }]);
  });

  it('redacts key/value pairs whose key names a secret', () => {
    const password = 'Tr0ub4dor' + '&3x';
    for (const text of [
      `DB_PASSWORD=${password}`,
      `{"password": "${password}"}`,
      `password: ${password}`,
      `--password ${password}`,
    ]) {
      expect(redactSecrets(text).text).not.toContain(password);
    }
  });

  it('redacts credentials in URLs, headers and PEM blocks', () => {
    const secret = 'h7Gk2' + 'pQ9zX';
    expect(redactSecrets(`postgres://app:${secret}@db.internal:5432/x`).text).not.toContain(secret);
    const bearer = 'eyJ' + 'hbGciOiJIUzI1NiJ9.eyJ' + 'zdWIiOiIxMjM0NTY3ODkwIn0.abc123def456';
    expect(redactSecrets(`Authorization: Bearer ${bearer}`).text).not.toContain(bearer);
    const body = Array.from(
      { length: 8 },
      (_, row) =>
        'MIIEv' + String(row) + 'QIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC'.slice(row),
    ).join('\n');
    const pem = '-----BEGIN ' + 'PRIVATE KEY-----\n' + body + '\n-----END PRIVATE KEY-----';
    expect(redactSecrets(`key:\n${pem}\n`).text).toBe('key:\n[REDACTED:private-key]\n');
    expect(redactSecrets(`aws ${aws}`).text).toBe('aws [REDACTED:aws-access-key-id]');
  });

  it('leaves git SHAs, UUIDs, hashes, paths and placeholders alone', () => {
    const harmless = [
      'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
      'id 3f2504e0-4f89-11d3-9a0c-0305e82c3301',
      'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      '/home/user/project/src/very/long/path/to/some_module_name.ts',
      'API_KEY=$' + '{API_KEY}',
      'token: <your-token>',
      'password = "xxxxxxxx"',
      'const apiKey = process.env.API_KEY;',
      'TIMESTAMP="$(date -u +%Y-%m-%dT%H:%M:%S)"',
      'PASS: Sliced bytes',
      'render(messages, session_cwd: session_cwd)',
      'session = Ash.get!(Spotter.Session, id)',
      '{"toolCallId":"toolu_01DD7PwKMijUZtHiGUPFcV7d","toolName":"Read"}',
      'usage: total_tokens: 76365',
      'args = sorted(expr.args, key=default_sort_key)',
    ];
    for (const text of harmless) expect(redactSecrets(text)).toEqual({ text, findings: [] });
  });

  it('uses a custom replacement', () => {
    expect(redactSecrets(github, { replacement: () => '***' }).text).toBe('***');
  });
});

describe('redactSecrets memo and disabledKinds', () => {
  it('returns the same result for a repeated text, in a copy the caller may change', () => {
    const token = github;
    const text = `first line\nexport GITHUB_TOKEN=${token}\n`;
    const first = redactSecrets(text);
    first.findings[0]!.kind = 'changed';
    const second = redactSecrets(text);
    expect(second.text).toBe(first.text);
    expect(second.findings[0]!.kind).toBe('github-token');
    expect(second.text).not.toContain(token);
  });

  it('skips the disabled rule kinds only', () => {
    const text = `aws ${aws} and ${github}`;
    // The generic shape layer knows an access-key id in capitals too: switched off with it.
    const result = redactSecrets(text, { disabledKinds: ['aws-access-key-id', 'prefixed-token'] });
    expect(result.text).toContain(aws);
    expect(result.text).not.toContain(github);
    expect(() => redactSecrets(text, { disabledKinds: 'aws' as never })).toThrow(/disabledKinds/);
  });
});

describe('clearRedactionMemo', () => {
  it('drops remembered texts without changing later results', async () => {
    const { clearRedactionMemo } = await import('./index.js');
    const text = `deploy with GITHUB_TOKEN=${github} now`;
    const before = redactSecrets(text);
    clearRedactionMemo();
    expect(redactSecrets(text)).toEqual(before);
  });
});
