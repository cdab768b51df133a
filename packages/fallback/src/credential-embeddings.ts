/**
 * Test and benchmark data, not part of the public API.
 * Every documented fixed-prefix credential the package knows, and every place an agent transcript
 * can hold one, each wrapped in random surrounding text: the held-out attack on position
 * independence. The families are derived from the package's own tables (the generated families
 * with a fixed prefix, and every prefix of `documentedPrefixes` no generated family starts with),
 * so a family or prefix added later is attacked in every position without editing this file.
 */

import {
  alphabets,
  credentialFamilies,
  familyPrefix,
  pick,
  type Random,
} from './credential-families.js';
import { documentedPrefixes, hexBodies } from './find-documented-prefix-tokens.js';

export interface FixedPrefixFamily {
  family: string;
  prefix: string;
  make: (random: Random) => string;
}

const hexPrefixes = new Set(hexBodies.map(([prefix]) => prefix));

/**
 * The fixed-prefix families: each generated family whose values share a prefix of 2+ characters,
 * then each documented prefix no such family starts with, drawn as the prefix and a 40-character
 * body in the issuer's alphabet (hex where the package documents a hex body, else base62).
 */
export function fixedPrefixFamilies(): FixedPrefixFamily[] {
  const families: FixedPrefixFamily[] = [];
  for (const credential of credentialFamilies) {
    if (!credential.fixedPrefix) continue;
    const prefix = familyPrefix(credential);
    if (prefix.length < 2) continue;
    families.push({ family: credential.family, prefix, make: credential.make });
  }
  for (const [prefix, kind] of documentedPrefixes) {
    if (families.some((entry) => entry.prefix.startsWith(prefix))) continue;
    const alphabet = hexPrefixes.has(prefix) ? alphabets.hex : alphabets.alnum;
    families.push({
      family: `${kind} (${prefix})`,
      prefix,
      make: (random) => `${prefix}${pick(random, alphabet, 40)}`,
    });
  }
  return families;
}

const words = [
  'the',
  'deploy',
  'build',
  'token',
  'rotated',
  'service',
  'staging',
  'config',
  'value',
  'new',
  'check',
  'run',
  'ok',
  'release',
  'note',
];
const word = (random: Random) => words[Math.floor(random.next() * words.length)]!;
const phrase = (random: Random, count: number) =>
  Array.from({ length: 1 + Math.floor(random.next() * count) }, () => word(random)).join(' ');
const name = (random: Random) =>
  pick(random, 'abcdefghijklmnopqrstuvwxyz', 3 + Math.floor(random.next() * 6));
const upperName = (random: Random) => name(random).toUpperCase();
const header = (random: Random) =>
  [
    'Token',
    'Api-Token',
    `X-Auth-${name(random)}`,
    `X-${name(random)}-Key`,
    'Authorization: Bearer',
    'Private-Token',
  ][Math.floor(random.next() * 6)]!;

// Characters and escapes that part a value from its neighbours in text, markup, URLs and strings.
const separators = [
  ' ',
  '\t',
  '\n',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '`',
  '=',
  ':',
  ',',
  ';',
  '|',
  '/',
  '<',
  '>',
  '*',
  '#',
  '!',
  '?',
  '&',
  '@',
  ' = ',
  ': ',
  '\\n',
  '\\t',
  '\\"',
  '%2F',
  '%3D',
  '%22',
  '%20',
  '&#x3D;',
  '&quot;',
  '&amp;',
  '\\u003d',
  '\\x3d',
  '\\u0022',
  '...',
];
const separator = (random: Random) => separators[Math.floor(random.next() * separators.length)]!;

/** A position: the text around `token`, drawn fresh from `random` every time. */
export type Embedding = (token: string, random: Random) => string;

/**
 * Where a credential may stand. Names are stable (a test reports misses by them); each wraps the
 * value in random words, names and neighbouring lines so no fixed spelling of the context is learnt.
 */
export const credentialEmbeddings: ReadonlyArray<readonly [position: string, wrap: Embedding]> = [
  ['alone', (t) => t],
  ['prose', (t, r) => `${phrase(r, 4)}, the admin password is ${t} ${phrase(r, 3)}.`],
  ['prose after colon', (t, r) => `${phrase(r, 3)}: ${t}`],
  ['path segment', (t, r) => `curl -X POST https://${name(r)}.example.com/keys/${t}/rotate`],
  ['relative path segment', (t, r) => `ls ${name(r)}/${t}/${name(r)}`],
  ['file name', (t, r) => `cat ~/${name(r)}/${t}.json`],
  ['right after https://', (t, r) => `git clone https://${t}/${name(r)}/${name(r)}.git`],
  ['url userinfo', (t, r) => `git remote add origin https://${name(r)}:${t}@github.com/o/r.git`],
  [
    'query string',
    (t, r) => `GET https://api.example.com/v1/${name(r)}?limit=5&${name(r)}=${t}&x=1`,
  ],
  ['JSON string', (t, r) => `{"${name(r)}":"ci","${name(r)}":"${t}","enabled":true}`],
  [
    'JSON escaped once',
    (t, r) => JSON.stringify(JSON.stringify({ [name(r)]: t, note: phrase(r, 3) })),
  ],
  [
    'JSON escaped twice',
    (t, r) => JSON.stringify(JSON.stringify(JSON.stringify({ [name(r)]: t, n: phrase(r, 2) }))),
  ],
  [
    'YAML block scalar',
    (t, r) => `${name(r)}:\n  ${name(r)}: |\n    ${t}\n  ${name(r)}: ${phrase(r, 2)}\n`,
  ],
  ['YAML plain', (t, r) => `${name(r)}:\n  ${name(r)}: ${t}\n`],
  ['XML attribute', (t, r) => `<${name(r)} name="${name(r)}" value="${t}" />`],
  ['XML element', (t, r) => `<${name(r)}>${t}</${name(r)}>`],
  ['curl -H', (t, r) => `curl -sS -H "${header(r)}: ${t}" https://${name(r)}.example.com/x`],
  ['curl --header', (t, r) => `curl --header '${header(r)}: ${t}' https://api.example.com`],
  ['curl -u user:token', (t, r) => `curl -u ${name(r)}:${t} https://registry.example.com`],
  ['curl -u token:', (t) => `curl -u ${t}: https://registry.example.com`],
  ['env file', (t, r) => `${upperName(r)}=1\n${upperName(r)}_${upperName(r)}=${t}\nDEBUG=0\n`],
  ['env export', (t, r) => `export ${upperName(r)}="${t}"`],
  ['markdown code', (t, r) => `${phrase(r, 3)} \`${t}\` ${phrase(r, 3)}.`],
  ['markdown code block', (t, r) => `\`\`\`\n${phrase(r, 2)}\n${t}\n\`\`\``],
  ['markdown table cell', (t, r) => `| ${name(r)} | ${t} | ${phrase(r, 2)} |`],
  ['shell heredoc', (t, r) => `cat <<EOF > ${name(r)}.conf\n${name(r)} = ${t}\nEOF`],
  ['python string', (t, r) => `${name(r)} = client(${name(r)}='${t}')`],
  ['js string', (t, r) => `const ${name(r)} = new Client({ ${name(r)}: "${t}" });`],
  ['js template literal', (t, r) => `fetch(\`https://x.example.com/${name(r)}?k=${t}\`)`],
  ['go string', (t, r) => `${name(r)} := os.Getenv("X"); ${name(r)} = "${t}"`],
  ['log key=value', (t, r) => `2024-05-01T10:00:00Z INFO ${name(r)}=${t} region=eu`],
  ['in parentheses', (t, r) => `${phrase(r, 3)} (${t}) ${phrase(r, 2)}`],
  ['as a long flag', (t) => `baton compact a.json --${t}=1`],
  ['after a short dash', (t) => `tool -${t} --verbose`],
  // Escapes glue a letter to the value's first character (`\nghp_…`, `%2Fghp_…`, `\u0026k=`):
  // the value still starts there, and a prefix that needs a non-letter before it must see past them.
  ['JSON line break before', (t, r) => JSON.stringify(`${phrase(r, 3)}\n${t}\n${phrase(r, 2)}`)],
  ['JSON tab before', (t, r) => JSON.stringify({ log: `${name(r)}:\t${t}` })],
  [
    'JSON line break, escaped twice',
    (t, r) => JSON.stringify(JSON.stringify(`${phrase(r, 3)}\n${t}`)),
  ],
  [
    'Go JSON \\u0026 query',
    (t, r) => `{"url":"https://x.example.com/?${name(r)}=1\\u0026${name(r)}=${t}"}`,
  ],
  [
    'percent-encoded path',
    (t, r) => `redirect=https%3A%2F%2F${name(r)}.example.com%2Fkeys%2F${t}%2Frotate`,
  ],
  ['percent-encoded pair', (t, r) => `state=${name(r)}%3D${t}%26next%3D1`],
  ['HTML-escaped query', (t, r) => `<a href="/cb?${name(r)}=1&amp;${name(r)}=${t}">x</a>`],
  ['Windows path', (t, r) => `type C:\\Users\\${name(r)}\\${t}.txt`],
  ['terminal colour', (t) => `\u001b[32m${t}\u001b[0m`],
  ['terminal colour, escaped', (t) => JSON.stringify(`\u001b[1m${t}\u001b[0m`)],
  ['markdown bold', (t, r) => `${phrase(r, 2)} **${t}** ${phrase(r, 2)}`],
  ['markdown link', (t, r) => `[${phrase(r, 2)}](https://x.example.com/${name(r)}/${t})`],
  ['CSV row', (t, r) => `${name(r)},${phrase(r, 1)},${t},${Math.floor(r.next() * 99)}`],
  ['TOML', (t, r) => `[${name(r)}]\n${name(r)} = "${t}"\n`],
  ['docker -e', (t, r) => `docker run -e ${upperName(r)}=${t} ${name(r)}:latest`],
  ['long option =', (t, r) => `${name(r)} login --${name(r)}=${t} --yes`],
  ['PowerShell env', (t, r) => `$env:${upperName(r)} = '${t}'`],
  ['SQL literal', (t, r) => `INSERT INTO ${name(r)} VALUES (1, '${t}');`],
  ['Authorization token', (t) => `curl -H "Authorization: token ${t}" https://api.github.com/user`],
  ['URL fragment', (t, r) => `https://${name(r)}.example.com/cb#access_token=${t}&state=1`],
  ['C# verbatim string', (t, r) => `var ${name(r)} = @"${t}";`],
  ['Python f-string', (t, r) => `print(f"{${name(r)}}:${t}")`],
  // Any separator, markup character or escape on either side, drawn per value.
  [
    'random separators',
    (t, r) => `${phrase(r, 3)}${separator(r)}${t}${separator(r)}${phrase(r, 3)}`,
  ],
  ['ellipsis, then a word', (t, r) => `${phrase(r, 2)} ${t}...${word(r)} ${phrase(r, 2)}`],
  ['sentence end', (t, r) => `${phrase(r, 3)} ${t}.`],
];

/**
 * A value joined to a word by `_`, `-` or `+` (`backup_ghp_….json`, `old-xoxp-….txt`). A
 * short or word-like prefix glued to a name is part of the name (`cache-key-<md5>`, `name-AKIA…`),
 * so issuer rules decline it by design (as after a `+`, which base64 bodies hold); a prefix unique to its issuer (`documentedPrefixes`) is
 * found there too. Kept apart so the sweep can hold each group to its own bar.
 */
export const identifierJoinedEmbeddings: ReadonlyArray<
  readonly [position: string, wrap: Embedding]
> = [
  ['file name after underscore', (t, r) => `mv ${name(r)}_${t}.json /tmp/`],
  ['file name after dash', (t, r) => `rm ~/${name(r)}/old-${t}.txt`],
  // A form-encoded space is a `+`, which inside base64 joins two runs of one value.
  ['form-encoded words', (t, r) => `POST /s q=${name(r)}+${name(r)}+${t}&page=1`],
];

/**
 * Markdown emphasis (` _ghp_…_ `): its `_` on either side reads as part of an identifier to issuer
 * rules, and a bounded body stopped before a closing `_` is what a longer run cut looks like, so
 * this is measured (`bench/every-position.ts`), not yet held to zero misses.
 */
export const emphasisEmbeddings: ReadonlyArray<readonly [position: string, wrap: Embedding]> = [
  ['markdown italic', (t, r) => `${phrase(r, 2)} _${t}_ ${phrase(r, 2)}`],
];
