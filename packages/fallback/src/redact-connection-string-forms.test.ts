import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alphabets } from './credential-families.js';
import { redactSecrets } from './index.js';
import { oneOf, randomValue } from './test-utils/generated-values.js';

// Passwords in the forms database drivers and SQL take them, each left in the clear before:
// ODBC/ADO.NET brace-quoted values (`PWD={…}`), Oracle's `user/password@` in JDBC URLs, SQL's
// `IDENTIFIED BY`, and a password holding a dot (`nr0V4uIo.Z8`), read as member access.
const symbolled = fc
  .tuple(randomValue([alphabets.alnum], 10, 18), oneOf(['!', '%', '#', '*', '~', ';', '^']))
  .map(([body, symbol]) => body.slice(0, 4) + symbol + body.slice(4));
const plain = fc
  .tuple(randomValue([alphabets.alnum], 10, 18), oneOf(['!', '%', '#', '*', '~', '^']))
  .map(([body, symbol]) => body.slice(0, 4) + symbol + body.slice(4));
const user = oneOf(['sa', 'scott', 'app_user', 'admin']);

const forms: Record<string, (password: string, name: string) => string> = {
  'ODBC PWD={…}': (password, name) =>
    `DRIVER={ODBC Driver 18 for SQL Server};SERVER=db;UID=${name};PWD={${password.replace(/\}/g, '}}')}}`,
  'ADO.NET Password={…}': (password, name) =>
    `Data Source=db;User ID=${name};Password={${password}};Encrypt=true`,
  'Oracle JDBC user/password@': (password, name) =>
    `jdbc:oracle:thin:${name}/${password.replace(/;/g, '')}@//db.example.com:1521/ORCL`,
  'IDENTIFIED BY quoted': (password, name) =>
    `CREATE USER '${name}'@'%' IDENTIFIED BY '${password}';`,
  'IDENTIFIED WITH plugin BY': (password, name) =>
    `ALTER USER '${name}'@'localhost' IDENTIFIED WITH mysql_native_password BY '${password}';`,
};

describe('a password in a driver or SQL form', () => {
  for (const [name, form] of Object.entries(forms)) {
    it(`is redacted: ${name} (property)`, () => {
      fc.assert(
        fc.property(name.startsWith('Oracle') ? plain : symbolled, user, (password, account) => {
          const value = name.startsWith('Oracle') ? password.replace(/;/g, '') : password;
          const output = redactSecrets(form(value, account)).text;
          expect(output).not.toContain(value);
          // The user name and the host stay.
          expect(output).toContain(account);
        }),
        { numRuns: 300 },
      );
    });
  }

  it('is redacted when it holds a dot, under a password key (property)', () => {
    // Parts that read as no name: a lower-case letter after a digit inside each.
    const drawn = fc
      .tuple(randomValue([alphabets.letters], 3, 6), randomValue([alphabets.letters], 3, 6))
      .map(([a, b]) => `${a}7${b.toLowerCase()}Q`);
    const dotted = fc.tuple(drawn, drawn).map(([a, b]) => `${a}.${b}`);
    const place = oneOf([
      (v: string) => `Server=db;Uid=sa;Pwd=${v};`,
      (v: string) => `jdbc:sqlserver://db:1433;user=sa;password=${v};encrypt=true`,
      (v: string) => `host=db user=app password=${v} sslmode=require`,
      (v: string) => `database:\n  password: ${v}\n`,
      (v: string) => `spring.datasource.password=${v}`,
    ]);
    fc.assert(
      fc.property(dotted, place, (value, wrap) => {
        expect(redactSecrets(wrap(value)).text).not.toContain(value);
      }),
      { numRuns: 500 },
    );
  });

  it('leaves format slots, bind variables, hashes, templates and member access alone', () => {
    for (const text of [
      'conn = f"DRIVER={{ODBC}};SERVER=db;PWD={password};"',
      'conn = f"Server=x;PWD={self.password};"',
      'Password={{ .Values.db.password }}',
      'Pwd={0};',
      'jdbc:oracle:thin:@//db.example.com:1521/ORCLPDB1',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template in the text under test
      'url=jdbc:oracle:thin:app/${DB_PASS}@db:1521/x',
      'CREATE USER x IDENTIFIED BY ?;',
      'IDENTIFIED BY :pw',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template in the text under test
      "IDENTIFIED BY '${DB_PASSWORD}'",
      'cursor.execute("CREATE USER %s IDENTIFIED BY %s", (user, pw))',
      'CREATE USER ops IDENTIFIED EXTERNALLY;',
      'password = config.dbPassword2',
      'password=settings.DB_PASS',
      'Pwd=cfg.sqlPassword;',
      'password = cfg.oauth2Client.secretV2',
      'secret = base64Url.encode',
    ]) {
      expect(redactSecrets(text).text).toBe(text);
    }
  });

  it('leaves English `identified by` and code that builds a braced password as written', () => {
    // Prose and string building around the SQL and ODBC forms (both were redacted by the first
    // version of these rules: `identified by [REDACTED] key`, `PWD={[REDACTED]}"`).
    const subject = oneOf(['Rows are', 'Each user is', 'The users table is', 'A session is']);
    const what = oneOf(['primary key', 'email', 'user_id', 'their name', 'a UUID', 'session_id.']);
    const variable = oneOf(['password', 'pwd', 'dbPassword', 'settings.DbPass']);
    fc.assert(
      fc.property(subject, what, variable, (who, by, name) => {
        for (const text of [
          `${who} identified by ${by}`,
          `${who} uniquely identified by ${by}, not by username.`,
          `conn = "Driver={ODBC};UID=sa;PWD={" + ${name} + "}";`,
          `builder.Append("PWD={").Append(${name}).Append("}");`,
        ]) {
          expect(redactSecrets(text).text).toBe(text);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('redacts a bare SQL password in lower-case SQL once a user is named before it', () => {
    fc.assert(
      fc.property(plain, user, (password, name) => {
        const text = `create user ${name} identified by ${password};`;
        expect(redactSecrets(text).text).not.toContain(password);
      }),
      { numRuns: 100 },
    );
  });
});
