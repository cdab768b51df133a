import { createHash } from 'node:crypto';
import { lowerShareBound, upperShareBound } from '@baton/test-corpus/share-bounds';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { characterOf, oneOf, pronounceableWord } from './test-utils/generated-values.js';

/**
 * Issue 11 attack: credentials written as command arguments, in credential files and as call
 * arguments beside a key string, with values generated at test time in many surrounding contexts.
 * Each form's leak rate is measured over the generated (value, context) pairs; `BATON_LEAK_TABLE=1`
 * prints the table.
 */

const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const hexLetters = '0123456789abcdef';
// Symbols people put in passwords that survive an unquoted shell word and a JSON string.
const symbols = '!@#%*-_+=.?~^';

const capitalised = (word: string) => word[0]!.toUpperCase() + word.slice(1);
const charsOf = (letters: string, min: number, max: number) =>
  fc
    .noBias(fc.array(characterOf(letters), { minLength: min, maxLength: max }))
    .map((characters) => characters.join(''));

/** `Lomitar2024!`, `pinas#rud77`, `Bolet.Miras-31`: words, digits and a symbol. */
const typedPassword = fc
  .tuple(
    pronounceableWord,
    pronounceableWord,
    charsOf('0123456789', 2, 4),
    characterOf(symbols),
    fc.noBias(fc.integer({ min: 0, max: 3 })),
  )
  .map(([first, second, digits, symbol, order]) => {
    if (order === 0) return `${capitalised(first)}${digits}${symbol}`;
    if (order === 1) return `${first}${symbol}${second}${digits}`;
    if (order === 2)
      return `${capitalised(first)}${symbol}${capitalised(second)}${symbol}${digits}`;
    return `${capitalised(first)}${capitalised(second)}${symbol}${digits}`;
  });
/** Random letters and digits, 8–40 characters, at least one of each class a generator emits. */
const randomAlnum = charsOf(alnum, 8, 40).filter(
  (value) => /[a-z]/.test(value) && /[A-Z0-9]/.test(value) && !/x{4}/i.test(value),
);
const base64Value = fc
  .noBias(fc.integer({ min: 12, max: 33 }))
  .chain((bytes) =>
    fc
      .noBias(fc.uint8Array({ minLength: bytes, maxLength: bytes }))
      .map((data) => Buffer.from(data).toString('base64')),
  )
  .filter((value) => /[a-z]/.test(value) && /[A-Z0-9]/.test(value));
const hexValue = charsOf(hexLetters, 16, 64).filter(
  (value) => /[a-f]/.test(value) && /\d/.test(value),
);
/** A 10–12 character value as a person types it: a word, digits, maybe a symbol. */
const shortTyped = fc
  .tuple(pronounceableWord, charsOf('0123456789', 2, 4), fc.option(characterOf(symbols)))
  .map(([word, digits, symbol]) => `${capitalised(word)}${symbol ?? ''}${digits}`.slice(0, 12))
  .filter((value) => value.length >= 10);
const shortRandom = charsOf(alnum, 10, 12).filter(
  (value) => /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value),
);
/** `Maro.Tilsen`, `lomit.pinas.88`: a dotted password whose parts read as names. */
const dottedNames = fc
  .tuple(pronounceableWord, pronounceableWord, fc.option(charsOf('0123456789', 2, 4)))
  .map(([first, last, digits]) =>
    digits ? `${first}.${last}.${digits}` : `${capitalised(first)}.${capitalised(last)}`,
  );

const values = fc.oneof(typedPassword, randomAlnum, base64Value, hexValue);

type Form = (value: string) => string;

// Where a shell command stands: typed, history, a tool call's JSON, a CI step, code running it.
const shellContexts: Array<(line: string) => string> = [
  (line) => line,
  (line) => `$ ${line}`,
  (line) => `  512  ${line}\n  513  ls -la`,
  (line) => JSON.stringify({ command: line, description: 'connect' }),
  (line) => JSON.stringify({ stdout: `+ ${line}\nconnected\n`, exit_code: 0 }),
  (line) => `2026-11-29T08:12:40.123Z INFO runner: exec ${line}`,
  (line) => `steps:\n  - name: connect\n    run: ${line}\n`,
  (line) => `subprocess.run(${JSON.stringify(line)}, shell=True, check=True)`,
  (line) => `execSync(\`${line}\`, { stdio: 'inherit' });`,
  (line) => `RUN ${line} && rm -rf /var/lib/apt/lists/*`,
  (line) => `\`\`\`bash\n${line}\n\`\`\``,
  (line) => `${line} && echo done`,
];
// Where a credential file's text stands: the file, `cat` of it, a tool result, a heredoc.
const fileContexts: Array<(content: string) => string> = [
  (content) => content,
  (content) => `$ cat ~/.config/file\n${content}\n$ `,
  (content) => JSON.stringify({ stdout: content, stderr: '', exit_code: 0 }),
  (content) => `cat > ~/.config/file <<'EOF'\n${content}\nEOF`,
  (content) => `Here is the file:\n\n\`\`\`\n${content}\n\`\`\`\n`,
];
// Where a line of code stands: alone, in a function, in a diff, in a tool result.
const codeContexts: Array<(code: string) => string> = [
  (code) => code,
  (code) => `function init() {\n    ${code}\n    return client;\n}`,
  (code) => `@@ -10,6 +10,7 @@\n     client = Client()\n+    ${code}\n     client.connect()`,
  (code) => JSON.stringify({ content: `def setup():\n    ${code}\n` }),
  (code) => `src/app/config.go:42:\t${code}`,
];

const host = oneOf(['db.internal', '10.0.3.17', 'cassandra-0.prod', 'localhost']);
const user = oneOf(['admin', 'root', 'app_user', 'deploy', 'cassandra']);

const shellForms: Record<string, Form[]> = {
  'cqlsh -u user -p': [
    (v) => `cqlsh -u admin -p ${v} db.internal 9042`,
    (v) => `cqlsh db.internal -u cassandra -p '${v}'`,
    (v) => `cqlsh --username admin --password ${v} db.internal`,
    (v) => `cqlsh --password=${v} -u admin`,
  ],
  'mysql -p / --password': [
    (v) => `mysql -u root -p${v} -h db.internal orders`,
    (v) => `mysql -h db.internal -u root --password ${v} orders`,
    (v) => `mysqldump -uroot -p'${v}' orders > dump.sql`,
    (v) => `mysql --user=root --password="${v}" -e "select 1"`,
  ],
  'redis-cli -a / AUTH': [
    (v) => `redis-cli -h db.internal -p 6379 -a ${v} ping`,
    (v) => `redis-cli -a '${v}' --no-auth-warning info`,
    (v) => `127.0.0.1:6379> AUTH ${v}\nOK`,
    (v) => `127.0.0.1:6379> AUTH default ${v}\nOK`,
    (v) => `redis-cli AUTH ${v}`,
    (v) => `redis-cli --user app --pass ${v} ping`,
  ],
  'aws configure set secret': [
    (v) => `aws configure set aws_secret_access_key ${v}`,
    (v) => `aws configure set aws_secret_access_key ${v} --profile prod`,
    (v) => `aws configure set default.aws_secret_access_key ${v}`,
    (v) => `aws configure set aws_session_token ${v} --profile ci`,
  ],
  'docker login -p': [
    (v) => `docker login -u deploy -p ${v} registry.example.com`,
    (v) => `docker login registry.example.com --username deploy --password ${v}`,
    (v) => `podman login -u deploy -p '${v}' quay.io`,
    (v) => `helm registry login ghcr.io -u deploy -p ${v}`,
  ],
  'sshpass -p': [
    (v) => `sshpass -p ${v} ssh deploy@db.internal`,
    (v) => `sshpass -p '${v}' scp dump.sql root@10.0.3.17:/tmp`,
    (v) => `sshpass -p${v} rsync -av ./ deploy@db.internal:/srv`,
  ],
  'htpasswd -b': [
    (v) => `htpasswd -b /etc/nginx/.htpasswd admin ${v}`,
    (v) => `htpasswd -bc .htpasswd admin '${v}'`,
    (v) => `htpasswd -nb admin ${v} > auth`,
    (v) => `htpasswd -B -b -C 10 /etc/apache2/.htpasswd admin ${v}`,
  ],
  'psql "password=..."': [
    (v) => `psql "host=db.internal port=5432 user=app password=${v} dbname=orders"`,
    (v) => `psql "password=${v} host=db.internal"`,
    (v) => `psql 'sslmode=require user=app password=${v}' -c 'select 1'`,
    (v) => `pg_dump "dbname=orders password=${v}" > dump.sql`,
  ],
};

const fileForms: Record<string, Form[]> = {
  '.pgpass line': [
    (v) => `db.internal:5432:orders:app:${v}`,
    (v) => `*:*:*:postgres:${v}`,
    (v) => `localhost:5432:*:replicator:${v}\n10.0.3.17:6432:orders:app:${v}`,
    (v) => `echo "db.internal:5432:*:app:${v}" > ~/.pgpass && chmod 600 ~/.pgpass`,
  ],
  '.netrc machine': [
    (v) => `machine api.example.com login deploy password ${v}`,
    (v) => `machine git.example.com\n  login deploy\n  password ${v}\n`,
    (v) => `default login anonymous password ${v}`,
    (v) =>
      `machine a.example.com login bob password ${v} machine b.example.com login amy password x`,
  ],
  '.properties continuation': [
    (v) =>
      `db.url=jdbc:postgresql://db.internal/orders\ndb.password=${v.slice(0, 4)}\\\n    ${v.slice(4)}\ndb.pool=10`,
    (v) => `spring.datasource.password = \\\n    ${v}\nspring.datasource.pool=10`,
    (v) => `spring.datasource.\\\n  password=${v}\nserver.port=8080`,
    (v) => `app.token=${v}\nserver.port=8080`,
  ],
  'XML CDATA password': [
    (v) =>
      `<datasource>\n  <user>app</user>\n  <password><![CDATA[${v}]]></password>\n</datasource>`,
    (v) => `<property name="password"><value><![CDATA[${v}]]></value></property>`,
    (v) => `<secret><![CDATA[${v}]]></secret>`,
    (v) => `<entry key="api.token"><![CDATA[${v}]]></entry>`,
  ],
};

const callForms: Record<string, Form[]> = {
  'f("token:", "v")': [
    (v) => `print("token:", "${v}")`,
    (v) => `console.log('password:', '${v}');`,
    (v) => `log.Printf("api key: %s", "${v}")`,
    (v) => `logger.info("secret=", "${v}")`,
  ],
  'headers.set("Authorization", ...)': [
    (v) => `headers.set("Authorization", "Bearer ${v}");`,
    (v) => `req.setHeader('Authorization', 'Basic ${v}');`,
    (v) => `request.headers.put("X-Api-Key", "${v}")`,
    (v) => `conn.setRequestProperty("Authorization", "Token ${v}");`,
    (v) => `req.Header.Set("X-Auth-Token", "${v}")`,
  ],
  'config.put("password", "v")': [
    (v) => `config.put("password", "${v}");`,
    (v) => `props.setProperty("db.password", "${v}");`,
    (v) => `settings.insert("api_token".to_string(), "${v}".to_string());`,
    (v) => `conf.set("spark.hadoop.fs.s3a.secret.key", "${v}")`,
    (v) => `viper.Set("auth.client_secret", "${v}")`,
  ],
  'setenv("API_KEY", "v")': [
    (v) => `setenv("API_KEY", "${v}", 1);`,
    (v) => `os.Setenv("DB_PASSWORD", "${v}")`,
    (v) => `System.setProperty("javax.net.ssl.keyStorePassword", "${v}");`,
    (v) => `monkeypatch.setenv("GITHUB_TOKEN", "${v}")`,
    (v) => `putenv("SECRET_KEY=${v}");`,
  ],
  'os.environ["SECRET"] = "v"': [
    (v) => `os.environ["SECRET"] = "${v}"`,
    (v) => `process.env.API_TOKEN = '${v}';`,
    (v) => `$env:API_KEY = "${v}"`,
    (v) => `os.environ.setdefault("DJANGO_SECRET_KEY", "${v}")`,
    (v) => `ENV["AUTH_TOKEN"] ||= "${v}"`,
  ],
};

const keyedShortForms: Form[] = [
  (v) => `token: ${v}`,
  (v) => `password = "${v}"`,
  (v) => `"api_token": "${v}"`,
  (v) => `DB_PASSWORD=${v}`,
  (v) => `auth:\n  password: ${v}\n  user: app`,
  (v) => `[database]\npassword = ${v}\nport = 5432`,
  (v) => `const token = '${v}';`,
  (v) => `2026-11-29 08:12:40 DEBUG login user=app password=${v} ok`,
];

interface Measured {
  form: string;
  cases: number;
  leaked: number;
  examples: string[];
}

/** Whether `out` still holds the value or any 8 characters of it in a row. */
function leaksPiece(out: string, value: string): boolean {
  const width = Math.min(8, value.length);
  for (let at = 0; at + width <= value.length; at++)
    if (out.includes(value.slice(at, at + width))) return true;
  return false;
}

const runs = Number(process.env.BATON_LEAK_RUNS ?? 100);

/** How often the value (or 8 characters of it in a row) stays readable after redaction. */
function measure(
  form: string,
  lines: Form[],
  contexts: Array<(text: string) => string>,
  drawn: fc.Arbitrary<string>,
): Measured {
  const measured: Measured = { form, cases: 0, leaked: 0, examples: [] };
  fc.assert(
    fc.property(
      drawn,
      fc.noBias(fc.integer({ min: 0, max: lines.length - 1 })),
      fc.noBias(fc.integer({ min: 0, max: contexts.length - 1 })),
      (value, lineAt, contextAt) => {
        const text = contexts[contextAt]!(lines[lineAt]!(value));
        // The premise: the value stands in the text as written (no escaping changed it).
        if (!text.includes(value) && !lines[lineAt]!(value).includes('\\\n')) return;
        measured.cases++;
        const out = redactSecrets(text).text;
        if (leaksPiece(out, value)) {
          measured.leaked++;
          if (measured.examples.length < 8) measured.examples.push(text);
        }
      },
    ),
    { numRuns: runs },
  );
  return measured;
}

const rate = (m: Measured) => `${((100 * m.leaked) / Math.max(1, m.cases)).toFixed(1)} %`;
const report = (all: Measured[]) => {
  if (process.env.BATON_LEAK_TABLE)
    console.log(
      all
        .map(
          (m) =>
            `| ${m.form} | ${m.cases} | ${m.leaked} | ${rate(m)} |${process.env.BATON_LEAK_TABLE === 'examples' ? `\n${m.examples.map((e) => `    ${JSON.stringify(e)}`).join('\n')}` : ''}`,
        )
        .join('\n'),
    );
};
/**
 * Forms still leaking some values, and the rate each leaks at (every other form: none). What
 * they leak is a short or word-like value under a weak key (`token`, `api_key`: 8–11 characters,
 * `Name.Name`, `Word_Word_123`) or a camel-case 10–11 character draw, which these keys also hold
 * as ids, product codes and names (see redact-short-keyed-values.test.ts); and a base64 value
 * opening with `/`, read as a path; a typed value of 7 characters under a token header. Before issue 11's fixes: 13–81 % on every form listed here.
 */
// Each rate is the higher of two measurements (`BATON_LEAK_RUNS=1000`, session 19, and
// `BATON_LEAK_RUNS=2000` on one fresh seed): aws 2.7 / 1.2 %, .properties 2.8 / 2.35 %, CDATA
// 2.7 / 2.0 %, headers 0.2 / 0.15 %, `f("token:")` 3.45 %, config.put 2.7 / 1.1 %, setenv 3.6 /
// 3.3 %, os.environ 3.9 / 2.65 %, short typed 4.35 %, short random 7.7 / 6.55 %, dotted 7.5 /
// 8.4 %. A form fails past the binomial's tail at its rate over the cases drawn (about 100): fixed
// bounds of the rate plus four normal sigmas broke 1 run in 1,800, mostly on short typed values.
const residual: Record<string, number> = {
  // `aws_session_token <8–9 characters>`: judged as under the same key in a file (real session
  // tokens run to hundreds of characters), so `sso_session my-sso` stays.
  'aws configure set secret': 0.027,
  '.properties continuation': 0.028,
  // `X-Auth-Token: <7 characters>`: the api-key header rule asks for 8 or more.
  'headers.set("Authorization", ...)': 0.002,
  'XML CDATA password': 0.027,
  'f("token:", "v")': 0.0345,
  'config.put("password", "v")': 0.027,
  'setenv("API_KEY", "v")': 0.036,
  'os.environ["SECRET"] = "v"': 0.039,
  '10-12 typed under key': 0.0435,
  '10-12 random under key': 0.077,
  'dotted name-like password': 0.084,
};
const leaks = (all: Measured[]) =>
  all
    .filter((m) => {
      const rate = residual[m.form];
      if (rate === undefined) return m.leaked > 0;
      return m.leaked / Math.max(1, m.cases) > upperShareBound(rate, Math.max(1, m.cases));
    })
    .map((m) => `${m.form}: ${m.leaked}/${m.cases} e.g. ${m.examples[0]}`);

describe('attack: credentials as command arguments (issue 11)', () => {
  it('redacts a space-separated or glued password argument in every context', () => {
    const all = Object.entries(shellForms).map(([form, lines]) =>
      measure(form, lines, shellContexts, values),
    );
    report(all);
    expect(leaks(all)).toEqual([]);
  });
});

describe('attack: credential files (issue 11)', () => {
  it('redacts .pgpass, .netrc, continued .properties and CDATA passwords', () => {
    const all = Object.entries(fileForms).map(([form, lines]) =>
      measure(form, lines, fileContexts, values),
    );
    report(all);
    expect(leaks(all)).toEqual([]);
  });
});

describe('attack: secrets as call arguments beside a key string (issue 11)', () => {
  it('redacts the literal argument after a key, header or variable name', () => {
    const all = Object.entries(callForms).map(([form, lines]) =>
      measure(form, lines, codeContexts, values),
    );
    report(all);
    expect(leaks(all)).toEqual([]);
  });
});

describe('attack: short typed and dotted values under secret keys (issue 11)', () => {
  it('redacts 10–12 character values and dotted name-like passwords', () => {
    const contexts = [...fileContexts.slice(0, 3), ...codeContexts.slice(1, 3)];
    const all = [
      measure('10-12 typed under key', keyedShortForms, contexts, shortTyped),
      measure('10-12 random under key', keyedShortForms, contexts, shortRandom),
      measure('dotted name-like password', keyedShortForms, contexts, dottedNames),
    ];
    report(all);
    expect(leaks(all)).toEqual([]);
  });
});

describe('controls: code and prose that must stay intact', () => {
  const controls = [
    'mysql -u root -p\nEnter password:',
    'mysql -u root -p\nSELECT * FROM orders;',
    'mysql -h db.internal -u root -p orders < dump.sql',
    'docker run -p 8080:80 nginx',
    'ssh -p 2222 deploy@db.internal',
    'redis-cli -h db.internal -p 6379 ping',
    'psql -h db.internal -p 5432 -U app orders',
    'python -m http.server -p 8000',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell or code template in the text under test
    'password=${PW}',
    'password="$DB_PASSWORD"',
    'token: getToken()',
    'headers.set("Authorization", token);',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell or code template in the text under test
    'headers.set("Authorization", `Bearer ${token}`);',
    'config.put("password", password);',
    'setenv("API_KEY", value, 1);',
    'os.environ["SECRET"] = secret_value',
    'print("token:", token)',
    'the password is stored in the vault',
    'The AUTH command takes a password argument.',
    'machine api.example.com login deploy',
    'aws configure set region eu-west-1',
    'aws configure set aws_access_key_id_file ~/.aws/id',
    'htpasswd -D /etc/nginx/.htpasswd admin',
    'cqlsh -u admin db.internal 9042',
    'sshpass -f ~/.pw ssh deploy@db.internal',
    'docker login -u deploy --password-stdin registry.example.com',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell or code template in the text under test
    '<password><![CDATA[${DB_PASSWORD}]]></password>',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell or code template in the text under test
    'db.password=${DB_PASSWORD}\nserver.port=8080',
    'localhost:5432:orders:app:*',
    // Shapes next to the new rules: ids and diagnostics with five colon fields, code members
    // under password keys, a Dockerfile's continued ENV, assignments by `||=`, names under `token`.
    'x-github-request-id: 410A:33638:678E9EE:7D11B11:BBD36ED2',
    'src/app.ts:12:5:error:Unexpected',
    'mac 00:1a:2b:3c:4d',
    'password = Config.Default',
    'password: settings.password',
    'password = Secrets.DbPassword',
    'ENV APP_HOME=/srv/app \\\n    LOG_LEVEL=info \\\n    PORT=8080',
    'cache ||= build_cache()',
    'TOKEN=ReactDom18x',
    'redis-cli -h db.internal info keyspace',
    'npm config set registry https://registry.npmjs.org/',
    'git config set user.name deploy',
    'git config set credential.helper store',
    'aws configure set sso_session my-sso',
  ];
  it.each(controls)('keeps %j', (text) => {
    for (const context of [...shellContexts.slice(0, 2), fileContexts[2]!, codeContexts[1]!]) {
      const wrapped = context(text);
      expect(redactSecrets(wrapped).text).toBe(wrapped);
    }
  });

  it('keeps a word after a header name and a comma (a record, not a call pair)', () => {
    const headerName = oneOf(['APIKEY', 'X-API-Key', 'api-key', 'Private-Token', 'x-auth-token']);
    fc.assert(
      fc.property(headerName, pronounceableWord, pronounceableWord, (name, word, other) => {
        for (const text of [
          `{"name": "${name}", "${word}": "x", "value": ""}`,
          `{"name": "${name}", "${word}_${other}": "x"}`,
          `{"Name": "${name}", "${word[0]!.toUpperCase()}${word.slice(1)}": "x"}`,
          `{ "ParameterKey": "${name}", "Parameter${word[0]!.toUpperCase()}${word.slice(1)}": "x" }`,
          `["${name}", "${word}"]`,
          `headers.set("${name}", "${word}")`,
        ]) {
          expect(redactSecrets(text).text).toBe(text);
        }
      }),
      { numRuns: runs },
    );
  });

  it('keeps the arguments around a redacted password (no destructive redaction)', () => {
    fc.assert(
      fc.property(values, host, user, (value, hostName, userName) => {
        const line = `cqlsh -u ${userName} -p ${value} ${hostName} 9042 && echo done`;
        const out = redactSecrets(line).text;
        expect(out).toContain(`cqlsh -u ${userName} -p `);
        expect(out).toContain(` ${hostName} 9042 && echo done`);
      }),
      { numRuns: runs },
    );
  });
});

describe('review fixes: names under weak keys, first-line continuations, colon keys', () => {
  const abbreviation = fc.oneof(
    fc
      .tuple(
        characterOf('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'),
        charsOf('0123456789', 1, 2),
      )
      .map(([l, d]) => `${l}${d}`),
    // `link42`: a lower-case word numbered.
    fc
      .tuple(pronounceableWord, charsOf('0123456789', 1, 2))
      .map(([word, digits]) => `${word.slice(0, 5)}${digits}`),
    charsOf('0123456789', 1, 3),
  );
  const wordPart = pronounceableWord.map((word) => word.slice(0, 7));
  /** `v2-api-docs`, `nav-link-42`, `Ctrl+Alt+T1`: words and abbreviations joined, a short number. */
  const joinedName = fc
    .tuple(
      fc.array(fc.oneof(wordPart, wordPart.map(capitalised)), { minLength: 1, maxLength: 3 }),
      abbreviation,
      characterOf('-+_'),
      fc.noBias(fc.integer({ min: 0, max: 1 })),
    )
    .map(([words, short, joiner, order]) =>
      (order === 0 ? [short, ...words] : [...words, short]).join(joiner),
    )
    .filter((value) => value.length >= 10 && value.length <= 11);
  /** `post-2024-1`, `row-1024-x`: a year or count among three parts. */
  const numberedName = fc
    .tuple(wordPart, charsOf('0123456789', 4, 4), abbreviation, characterOf('-_'))
    .map(([word, year, short, joiner]) => [word, year, short].join(joiner))
    .filter((value) => value.length >= 10 && value.length <= 11);
  it('keeps joined names of 10-11 characters under key/token/auth (premise: 10-11 characters)', () => {
    fc.assert(
      fc.property(
        fc.oneof(joinedName, numberedName),
        fc.constantFrom('key', 'token', 'auth'),
        (name, key) => {
          // Left: the prose rule (`token: X`, on main before this session) reads `+` as a password's symbol.
          if (key === 'token' && name.includes('+')) return;
          for (const text of [
            `<li ${key}="${name}">`,
            `{ ${key}: "${name}" }`,
            `${key} = ${name}`,
            `"${key}": "${name}"`,
            `${key}: ${name}`,
          ]) {
            expect(redactSecrets(text).text).toBe(text);
          }
        },
      ),
      { numRuns: runs },
    );
  });
  it("redacts a .properties continuation on the text's first line, after a long line, in a JSON string", () => {
    fc.assert(
      fc.property(
        shortRandom,
        charsOf(alnum, 6, 12),
        fc.constantFrom('', `${'x'.repeat(420)}\n`, '{"config": "'),
        (value, key, lead) => {
          const text = `${lead}password = \\\n    ${value}\n${key}=1`;
          const out = redactSecrets(text).text;
          expect(out).not.toContain(value);
          expect(out).toContain(`\n${key}=1`);
        },
      ),
      { numRuns: runs },
    );
  });
  const ident = charsOf('abcdefghijklmnopqrstuvwxyz', 3, 9);
  it('keeps colon keys and log lines shaped like .pgpass lines; a password still goes', () => {
    fc.assert(
      fc.property(
        ident,
        fc.integer({ min: 1, max: 65535 }),
        ident,
        ident,
        ident,
        (a, port, b, c, d) => {
          for (const text of [
            `${a}:${port}:${b}:${c}:${d}`,
            `KEYS ${a}:${port}:${b}:${c}:${d}`,
            `2024-01-01 ${a}:${port}:${b}:${c}:${d}`,
          ]) {
            expect(redactSecrets(text).text).toBe(text);
          }
        },
      ),
      { numRuns: runs },
    );
    fc.assert(
      fc.property(
        ident,
        fc.integer({ min: 1, max: 65535 }),
        ident,
        ident,
        fc.oneof(shortRandom, typedPassword),
        (a, port, b, c, secret) => {
          expect(redactSecrets(`${a}:${port}:${b}:${c}:${secret}`).text).not.toContain(secret);
        },
      ),
      { numRuns: runs },
    );
  });
});

describe('namespaced keys led by a secret word (found by a CI seed: `KEYS dek:1:aaa:bac:egdhf`)', () => {
  const secretWords = [
    'dek',
    'kek',
    'session',
    'token',
    'pin',
    'salt',
    'otp',
    'pepper',
    'api_key',
    'jwt',
  ];
  const secretWord = fc.constantFrom(...secretWords);
  // After these a colon joins a user and a password (`auth:admin:letmein`; found by review).
  // (`auth:` with two plain words is judged by the weak-key rules, older: not asserted here.)
  const loginWord = fc.constantFrom('password', 'secret', 'credentials', 'redis_password');
  // A word of 4–8 letters from a hash of a drawn number: shrinking never walks it to `aaa`.
  const hashedWord = (seed: number, from: number) => {
    const bytes = createHash('sha256').update(String(seed)).digest();
    let word = '';
    for (let index = from; index < from + 2 + (bytes[from]! % 3); index++) {
      word += 'bdfgklmnprstvz'[bytes[index]! % 14]! + 'aeiou'[bytes[index + 16]! % 5]!;
    }
    return word;
  };
  const segment = fc.oneof(
    charsOf('abcdefghijklmnopqrstuvwxyz', 2, 9),
    fc.noBias(fc.integer({ min: 0, max: 99999 })).map(String),
  );
  const lead = fc.constantFrom('KEYS ', 'GET ', 'DEL ', '2024-01-01 ', 'cache miss ', '');
  // Bytes from a hash of a drawn number: shrinking the number never walks them towards zero
  // (`/AAAAAYFAAID…`, which no generator emits). URL-safe: standard base64 with a `/` after a glued
  // colon can read as a path (about 1 in 400 kept, older; measured in the session notes).
  const drawnBase64 = fc
    .tuple(fc.noBias(fc.integer()), fc.noBias(fc.integer({ min: 18, max: 32 })))
    .map(([seed, bytes]) =>
      createHash('sha256').update(String(seed)).digest().subarray(0, bytes).toString('base64url'),
    );
  it('keeps a colon key of plain words and numbers after a secret word, anywhere on a line', () => {
    fc.assert(
      fc.property(
        lead,
        secretWord,
        fc.array(segment, { minLength: 2, maxLength: 5 }),
        (before, word, segments) => {
          fc.pre(segments.some((part) => /[a-z]/.test(part)));
          fc.pre(segments.some((part) => /^\d+$/.test(part)));
          const text = `${before}${word}:${segments.join(':')}`;
          expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: runs },
    );
  });
  it('control: a generated value, or a typed one after a password word, glued by colons still goes', () => {
    fc.assert(
      fc.property(
        lead,
        fc.oneof(
          fc.tuple(secretWord, drawnBase64),
          fc.tuple(
            fc.constantFrom('password', 'secret', 'passwd'),
            // `banban.banban00` after a glued colon reads as a file name (kept, older).
            typedPassword.filter((value) => !value.includes('.')),
          ),
          // A user and a plain password after a login word, however plain the password.
          fc
            .tuple(loginWord, fc.noBias(fc.integer()))
            .map(
              ([word, seed]) =>
                [word, `${hashedWord(seed, 0)}:${hashedWord(seed, 8)}`] as [string, string],
            ),
        ),
        fc.option(segment),
        (before, [word, secret], tail) => {
          const text = `${before}${word}:${secret}${tail === null ? '' : `:${tail}`}`;
          expect(redactSecrets(text).text).not.toContain(secret);
        },
      ),
      { numRuns: runs },
    );
  });
  // Found by CI seeds 1693245952, 580433258 and -1314579871: the number stood before the secret
  // word, so the words after it alone read as a secret or a user and a password (`aab:dabefcgh`).
  it('keeps a colon key whose secret word stands between its numbers and its words', () => {
    for (const text of [
      'aaa:1:pat:aab:dabefcgh',
      'KEYS dek:0:dsn:aa:defab:cgh',
      'aaa:1:pwd:aaa:abc',
    ]) {
      expect(redactSecrets(text).text).toBe(text);
    }
  });
  it('keeps a colon key with its number before the secret word (premise: 12+ characters after it)', () => {
    const word = charsOf('abcdefghijklmnopqrstuvwxyz', 2, 9);
    // The hard case: no number after the secret word (a colon key already when one is there), and
    // 12 characters or more after it, where a weak key's value is judged for randomness. Two or
    // three words reach 12 about half the time (36/64, 492/512), one never: rate about 0.5.
    let long = 0;
    fc.assert(
      fc.property(
        lead,
        word,
        fc.noBias(fc.array(segment, { minLength: 0, maxLength: 3 })),
        fc.noBias(fc.integer({ min: 0, max: 99999 })),
        fc.constantFrom(...secretWords, 'pat', 'dsn', 'sid', 'cookie', 'pwd', 'auth', 'password'),
        fc.noBias(fc.array(word, { minLength: 1, maxLength: 3 })),
        (before, first, middle, number, key, words) => {
          const after = words.join(':');
          if (after.length >= 12) long++;
          const text = `${before}${first}:${[...middle, String(number)].join(':')}:${key}:${after}`;
          expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: runs },
    );
    expect(long / runs).toBeGreaterThanOrEqual(lowerShareBound(0.5, runs));
  });
  it('control: a drawn or typed value after the secret word in such a key still goes', () => {
    fc.assert(
      fc.property(
        lead,
        charsOf('abcdefghijklmnopqrstuvwxyz', 2, 9),
        fc.noBias(fc.integer({ min: 0, max: 99999 })),
        fc.oneof(
          fc.tuple(fc.constantFrom(...secretWords), drawnBase64),
          fc.tuple(
            fc.constantFrom('password', 'secret', 'passwd'),
            typedPassword.filter((value) => !value.includes('.')),
          ),
        ),
        fc.boolean(),
        (before, first, number, [key, secret], numbered) => {
          const text = `${before}${first}:${numbered ? `${number}:` : ''}${key}:${secret}`;
          expect(redactSecrets(text).text).not.toContain(secret);
        },
      ),
      { numRuns: runs },
    );
  });
});

describe('review fixes: XML names about a password, redis AUTH as the command only', () => {
  const aboutWord = fc.constantFrom(
    'Encoder',
    'Hasher',
    'Policy',
    'Length',
    'Validator',
    'Strength',
  );
  const secretWord = fc.constantFrom('password', 'Password', 'secret', 'apiToken', 'db.password');
  it('keeps the value of an XML element named for something about the password', () => {
    fc.assert(
      fc.property(
        secretWord,
        aboutWord,
        pronounceableWord,
        fc.boolean(),
        (word, about, value, child) => {
          const text = child
            ? `<property name="${word}${about}"><value>${value}</value></property>`
            : `<setting name="${word}${about}">${capitalised(value)}</setting>`;
          expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: runs },
    );
    fc.assert(
      fc.property(shortRandom, (value) => {
        expect(
          redactSecrets(`<property name="password"><value>${value}</value></property>`).text,
        ).not.toContain(value);
      }),
      { numRuns: runs },
    );
  });
  const redisOptions = fc.constantFrom(
    '',
    '-h db.internal ',
    '-h db.internal -p 6379 ',
    '--tls -n 2 ',
    '--user app ',
  );
  it('reads AUTH only as the first argument after redis-cli options', () => {
    fc.assert(
      fc.property(
        redisOptions,
        pronounceableWord,
        charsOf('abcdefghijklmnopqrstuvwxyz', 4, 10),
        fc.constantFrom('XADD', 'SET', 'GET', 'HSET', 'SADD', 'LPUSH'),
        (options, key, member, verb) => {
          const text = `redis-cli ${options}${verb} auth ${key} ${member}`;
          expect(redactSecrets(text).text).toBe(text);
        },
      ),
      { numRuns: runs },
    );
    fc.assert(
      fc.property(
        redisOptions,
        fc.oneof(shortRandom, typedPassword),
        fc.constantFrom('AUTH', 'auth'),
        (options, secret, auth) => {
          expect(redactSecrets(`redis-cli ${options}${auth} ${secret}`).text).not.toContain(secret);
        },
      ),
      { numRuns: runs },
    );
  });
});
