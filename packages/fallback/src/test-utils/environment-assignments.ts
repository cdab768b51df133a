import fc from 'fast-check';
import { englishWords } from './code-identifiers.ts';

/**
 * Variables set through shells, container files and deploy tools: each syntax writes `name` and
 * `value` as that tool reads them. Shared by the tests (`redact-environment-assignments.test.ts`)
 * and the measurement (`bench/environment-assignments.ts`, run by Node from source: this module
 * imports nothing of the package's).
 */

/** One of `items`, each drawn as often. */
const oneOf = <T>(items: readonly T[]) =>
  fc.noBias(fc.integer({ min: 0, max: items.length - 1 })).map((at) => items[at]!);

export type Syntax = (name: string, value: string, pick: number) => string;

const quoted = (value: string, pick: number) =>
  pick % 3 === 0 ? value : pick % 3 === 1 ? `"${value}"` : `'${value}'`;
const lowerCamel = (name: string) =>
  name.toLowerCase().replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

export const syntaxes: Record<string, Syntax> = {
  'fish set -gx': (n, v, p) => `set -gx ${n} ${quoted(v, p)}`,
  'fish set -Ux': (n, v, p) => `set -Ux ${n} ${quoted(v, p)}`,
  'fish set -x': (n, v, p) => `set -x ${n} ${quoted(v, p)}`,
  'fish set --export': (n, v, p) => `set --export ${n} ${quoted(v, p)}`,
  'csh setenv': (n, v, p) => `setenv ${n} ${quoted(v, p)}`,
  'Dockerfile ENV k v': (n, v, p) => `ENV ${n} ${quoted(v, p)}`,
  'Dockerfile ENV k=v': (n, v, p) => `ENV ${n}=${quoted(v, p)}`,
  'Dockerfile ENV pairs': (n, v, p) =>
    p % 2 === 0
      ? `ENV NODE_ENV=production ${n}=${quoted(v, p)} PORT=8080`
      : `ENV APP_HOME=/srv/app \\\n    ${n}=${quoted(v, p)} \\\n    LOG_LEVEL=info`,
  'Dockerfile ARG': (n, v, p) => `ARG ${n}=${quoted(v, p)}`,
  'PowerShell $env:': (n, v, p) => (p % 2 ? `$env:${n} = "${v}"` : `$env:${n}='${v}'`),
  'PowerShell SetEnvironmentVariable': (n, v, p) =>
    `[Environment]::SetEnvironmentVariable("${n}", "${v}", "${p % 2 ? 'User' : 'Machine'}")`,
  'cmd set': (n, v, p) => (p % 2 ? `set ${n}=${v}` : `set "${n}=${v}"`),
  'cmd setx': (n, v, p) => `setx ${n} ${quoted(v, p)}${p % 2 ? ' /M' : ''}`,
  'docker run -e': (n, v) => `docker run --rm -e ${n}=${v} -p 8080:80 acme/api:latest`,
  'docker run --env': (n, v, p) => `docker run --env ${n}=${quoted(v, p)} acme/api`,
  'docker build --build-arg': (n, v) => `docker build --build-arg ${n}=${v} -t acme/api .`,
  'kubectl --from-literal': (n, v) =>
    `kubectl create secret generic app-secrets --from-literal=${n}=${v} -n prod`,
  'helm --set': (n, v) =>
    `helm upgrade --install api ./chart --set postgresql.primary.${lowerCamel(n)}=${v}`,
  'heroku config:set': (n, v) => `heroku config:set ${n}=${v} -a acme-api`,
  'fly secrets set': (n, v) => `fly secrets set ${n}=${v}`,
  'gh secret set --body': (n, v, p) => `gh secret set ${n} --body ${quoted(v, p)}`,
  'echo >> $GITHUB_ENV': (n, v) => `echo "${n}=${v}" >> $GITHUB_ENV`,
  'systemd Environment=': (n, v, p) =>
    p % 2 ? `Environment="${n}=${v}"` : `Environment=${n}=${v} PORT=8080`,
  '.env NAME: v': (n, v) => `${n}: ${v}`,
};

const collections = ['tokens', 'token', 'keys', 'secrets', 'api-keys', 'access_tokens'];
/** A credential after the path segment naming its collection, and after its name in prose. */
export const pathSyntaxes: Record<string, (value: string, pick: number) => string> = {
  'URL path /tokens/<v>': (v, p) =>
    p % 2
      ? `DELETE https://api.example.com/v1/${collections[p % collections.length]}/${v}`
      : `curl -s https://vault.internal:8200/v1/auth/${collections[p % collections.length]}/${v}/revoke`,
  'API path /v1/tokens/<v>': (v, p) => `GET /v1/${collections[p % collections.length]}/${v} 200`,
  'prose use secret_key <v>': (v, p) =>
    [
      `use secret_key ${v} to log in`,
      `the apiToken ${v} expired`,
      `Set DB_PASSWORD ${v} in the dashboard.`,
      `- client_secret ${v}`,
      `with password ${v}, then retry`,
      `access_token ${v} (valid for an hour)`,
    ][p % 6]!,
};

/** What follows a collection of credentials or a secret's name when no credential does. */
export const pathOrdinary: Record<string, (name: string, pick: number) => string> = {
  'URL path, ordinary member': (member, p) =>
    `DELETE https://api.example.com/v1/${collections[p % collections.length]}/${member}`,
  'file path under secrets/': (member, p) =>
    `cat /run/${collections[p % collections.length]}/${member}`,
  'prose, ordinary word after the name': (word, p) =>
    [
      `use secret_key ${word} to log in`,
      `the apiToken ${word} expired`,
      `Set DB_PASSWORD ${word} in the dashboard.`,
      `kubectl create secret generic app-secrets --from-literal=${word}`,
    ][p % 4]!,
};

const english = oneOf(englishWords);
const camelWords = fc
  .noBias(fc.array(english, { minLength: 2, maxLength: 4 }))
  .map((parts) =>
    parts.map((part, at) => (at ? part[0]!.toUpperCase() + part.slice(1) : part)).join(''),
  );
/** Members and words that are no credential: ids, routes, names, files, placeholders, flags. */
export const ordinaryMember = fc.oneof(
  fc.noBias(fc.integer({ min: 1, max: 10 ** 12 })).map(String),
  oneOf(['new', 'list', 'rotate', '{id}', '<token>', 'YOUR_TOKEN_HERE', '$TOKEN']),
  fc.noBias(fc.array(english, { minLength: 2, maxLength: 4 })).map((parts) => parts.join('-')),
  fc.noBias(fc.array(english, { minLength: 2, maxLength: 4 })).map((parts) => parts.join('_')),
  camelWords,
  english.map((name) => `${name}.pem`),
);

/** A UUID: the id of a credential in a REST path, not the credential. */
export const credentialId = fc.uuid();

const vendors = ['', 'DB', 'API', 'STRIPE', 'AWS', 'GITHUB', 'APP', 'REDIS', 'SLACK', 'OPENAI'];
const secretWords = [
  'PASSWORD',
  'TOKEN',
  'SECRET',
  'SECRET_KEY',
  'API_KEY',
  'ACCESS_TOKEN',
  'AUTH_TOKEN',
  'PRIVATE_KEY',
  'CLIENT_SECRET',
  'PASSWD',
  'APIKEY',
];
const qualifiers = ['', '', '_PROD', '_LIVE'];

/**
 * Names built from parts (`API_TOKEN`, `STRIPE_SECRET_KEY_PROD`), kept where `isSecret` (the
 * package's key judgement, passed in) reads them as secret.
 */
export const secretName = (isSecret: (name: string) => boolean) =>
  fc
    .tuple(oneOf(vendors), oneOf(secretWords), oneOf(qualifiers))
    .map(([vendor, word, qualifier]) => `${vendor ? `${vendor}_` : ''}${word}${qualifier}`)
    .filter(isSecret);

const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const lower = 'abcdefghijklmnopqrstuvwxyz';
const digits = '0123456789';
const alphabets = [
  upper + lower + digits,
  '0123456789abcdef',
  '0123456789ABCDEF',
  `${upper + lower + digits}-_`,
  lower + digits,
  upper + digits,
  `${upper}234567`,
  `${upper + lower + digits}-_.@%+`,
];
/**
 * Random secret values of many alphabets, 12–64 characters, each class of the alphabet (upper,
 * lower, digit) present as in any generated token of that length.
 */
export const secretValue = fc
  .tuple(
    oneOf(alphabets),
    fc.noBias(fc.array(fc.integer({ min: 0, max: 2 ** 16 - 1 }), { minLength: 12, maxLength: 64 })),
  )
  .map(([alphabet, draws]) => ({
    alphabet,
    value: draws.map((draw) => alphabet[draw % alphabet.length]).join(''),
  }))
  .filter(({ alphabet, value }) =>
    [upper, lower, digits].every(
      (set) =>
        ![...set].some((c) => alphabet.includes(c)) || [...set].some((c) => value.includes(c)),
    ),
  )
  .map(({ value }) => value);

const word = oneOf(englishWords);
const upperWord = fc
  .noBias(fc.array(oneOf(englishWords), { minLength: 1, maxLength: 3 }))
  .map((parts) => parts.join('_').toUpperCase());
/** Values that point at a secret without holding it: references, substitutions, paths, URLs, flags. */
export const referenceValue = fc.oneof(
  upperWord.map((name) => `$${name}`),
  upperWord.map((name) => `\${${name}}`),
  upperWord.map((name) => `%${name}%`),
  fc.tuple(word, word).map(([command, argument]) => `$(${command} ${argument})`),
  upperWord.map((name) => `$(cat /run/secrets/${name.toLowerCase()})`),
  fc.array(word, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`),
  fc.tuple(word, word).map(([dir, file]) => `./${dir}/${file}.json`),
  fc.tuple(word, word, word).map(([host, tld, path]) => `https://${host}.${tld}.com/${path}`),
  oneOf(['true', 'false', 'yes', 'no', 'on', 'off', 'null', 'none']),
);

/** What an ordinary setting holds: the references above, words, numbers, host:port, PATH lists. */
export const ordinaryValue = fc.oneof(
  referenceValue,
  word,
  fc.noBias(fc.integer({ min: 0, max: 10 ** 9 })).map(String),
  fc.tuple(word, fc.integer({ min: 1, max: 65535 })).map(([host, port]) => `${host}:${port}`),
  oneOf(['production', 'development', '$PATH:/usr/local/bin', '$HOME/.local/bin:$PATH']),
);

/**
 * Names of ordinary settings, some holding a secret word as metadata (`TOKEN_TTL`), kept where
 * `isSecret` (the package's key judgement) does not read them as secret.
 */
export const ordinaryName = (isSecret: (name: string) => boolean) =>
  fc
    .oneof(
      oneOf(['PATH', 'NODE_ENV', 'PORT', 'HOME', 'LOG_LEVEL', 'LANG', 'EDITOR', 'APP_HOME']),
      oneOf(['TOKEN_TTL', 'TOKEN_URL', 'SECRET_NAME', 'API_URL', 'PASSWORD_FILE', 'API_KEY_PATH']),
      upperWord,
    )
    .filter((name) => !isSecret(name));

/** A pick for the syntax's variant (quoting, flags). */
export const variant = fc.noBias(fc.integer({ min: 0, max: 5 }));
