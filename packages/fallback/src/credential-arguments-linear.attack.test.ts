import { describe, expect, it } from 'vitest';
import { redactionCpuMs } from './test-utils/generated-values.js';

/**
 * Hostile input for the issue-11 rules (command arguments, redis prompts, `config set`, `.pgpass`
 * lines, netrc in JSON, continued `.properties` pairs, CDATA and attribute-named XML elements,
 * call pairs): one unbroken string or one keyword repeated to 256 KB and to 1 MB. Redacting 4x the
 * text must cost less than 8x the CPU (linear is about 4x, quadratic 16x); the least of three
 * runs is compared, a floor of 150 ms absorbing timer noise on a loaded machine.
 */
const shapes: Record<string, string> = {
  'one unbroken run of letters': 'a',
  'one unbroken run of colons': ':',
  'one unbroken run of backslashes': '\\',
  '.pgpass-shaped fields without an end': 'h:5432:db:user:',
  '.pgpass lines': 'db.internal:5432:orders:app:Pw0rdX9z\n',
  'one colon key of secret words and numbers': 'a:1:pat:ab:',
  'colon keys with a secret word inside': 'KEYS aa:1:dsn:ab:cd\n',
  'redis prompts with AUTH': '127.0.0.1:6379> AUTH user ',
  'redis-cli AUTH on one line': 'redis-cli AUTH ',
  'config set on one line': 'aws configure set aws_secret_access_key ',
  'cqlsh -p on one line': 'cqlsh -u admin -p ',
  'netrc words without a password': 'machine h login u ',
  'netrc in JSON escapes': 'machine h\\n  login u\\n  password ',
  'continued properties': 'db.password=ab\\\n',
  'continued properties in JSON': 'db.password=ab\\\\\\n',
  'continued keys': 'spring.datasource.\\\n',
  'CDATA openings': '<password><![CDATA[',
  'attribute-named elements': '<entry key="api.token" name="password" ',
  'call pairs': 'print("token:", ',
  'labelled call keys': '("api key: %s", "',
  'header call pairs': 'headers.set("Authorization", "Bearer ',
  'or-assignments': 'ENV["AUTH_TOKEN"] ||= ',
  'dotted names under a password key': 'password = Maro.Tilsen.',
};

const build = (unit: string, characters: number) =>
  unit.repeat(Math.ceil(characters / unit.length)).slice(0, characters);

describe('issue-11 rules stay linear on hostile input (256 KB vs 1 MB)', () => {
  for (const [name, unit] of Object.entries(shapes)) {
    it(name, () => {
      redactionCpuMs(build(unit, 64 * 1024));
      const small = redactionCpuMs(build(unit, 256 * 1024));
      const large = redactionCpuMs(build(unit, 1024 * 1024));
      if (process.env.BATON_LEAK_TABLE)
        console.log(
          `| ${name} | ${small.toFixed(1)} | ${large.toFixed(1)} | ${(large / small).toFixed(1)} |`,
        );
      expect(
        large,
        `${small.toFixed(1)} ms at 256 KB, ${large.toFixed(1)} ms at 1 MB`,
      ).toBeLessThan(Math.max(150, small * 8));
    }, 120_000);
  }
});
