import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';

describe('code on the right-hand side of a secret-named key', () => {
  const keys = ['password', 'apiToken', 'SECRET_KEY', 'db_pass', 'auth_token', 'clientSecret'];
  const rights = [
    'Config::get("services.secret")',
    'Rails::Application::credentials',
    'std::string(buffer)',
    'Secret::new(bytes)',
    'crate::config::load()?',
    'Vec::<u8>::with_capacity(32)',
    'await secrets.get("db")',
    'yield getPassword()',
    'typeof window',
  ];
  const forms = ['{K} = {R}', 'const {K} = {R};', '{K}: {R},', '$_{K} = {R};', '{K} => {R},'];
  it('leaves every generated combination of key, expression and form unchanged', () => {
    const destroyed: string[] = [];
    for (const key of keys)
      for (const right of rights)
        for (const form of forms) {
          const line = form.replace('{K}', key).replace('{R}', right);
          const out = redactSecrets(line).text;
          if (out !== line) destroyed.push(`${line} -> ${out}`);
        }
    expect(destroyed).toEqual([]);
  });

  it('still redacts a literal written with the same keys and forms', () => {
    for (const key of keys)
      for (const form of forms) {
        const line = form.replace('{K}', key).replace('{R}', '"q7Rv2LmX9pZt4NwB"');
        expect(redactSecrets(line).text, line).not.toContain('q7Rv2LmX9pZt4NwB');
      }
  });
});
