import { pointsElsewhere } from './points-elsewhere.js';
import { isPlaceholder, isTemplate } from './secret-heuristics.js';
import { acceptKeyedValue, type KeyedMatch, keyIsSecret } from './secret-rules.js';

// `text.charCodeAt(i)` without a lookup on `text` per character, and a local constant rather than
// an import (see redact-secrets.ts).
const charCodeAt = String.prototype.charCodeAt;

/**
 * How a command takes a password on its command line, from each tool's documentation:
 * `space` flags take the next argument (or `-X=value`), `glued` flags take what follows them in
 * the same argument (`mysql -pSECRET`: with a space, mysql prompts and the word is a database),
 * `both` either; a one-letter `space` flag takes a glued value too (getopt and popt read `-wSECRET`
 * as `-w SECRET`). `after` reads the value past a prefix inside the argument (`pass:` for openssl,
 * `user%` for Samba, `user,` for lftp); `positional` counts the password among the plain arguments.
 */
interface CommandSpec {
  space?: readonly string[];
  /**
   * Flags whose value is optional (`mysql --password[=value]`): `--password=value` is the password;
   * so is `--password value` when the word is not a plain lower-case name (a database's).
   */
  optional?: readonly string[];
  /** Whether a quoted libpq connection string's `password=…` is read (`psql "host=… password=…"`). */
  conninfo?: boolean;
  glued?: readonly string[];
  both?: readonly string[];
  /** Flags whose value holds the password after this separator (`-U user%password`). */
  after?: Readonly<Record<string, RegExp>>;
  /** Where the password stands among the plain arguments (`net user bob PW`). */
  positional?: readonly Positional[];
}

/**
 * The password is the `index`-th plain argument after the first of `leading` (`rabbitmqctl -n
 * node add_user bob PW`: a flag's value may come before it), or, with `after`, the first plain
 * argument after one matching it (`net use \\host\share PW`).
 */
interface Positional {
  leading: readonly string[];
  index?: number;
  after?: RegExp;
}

const mysql: CommandSpec = { glued: ['-p'], optional: ['--password'] };
const postgres: CommandSpec = { conninfo: true };
const mongo: CommandSpec = { space: ['-p', '--password'] };
const ldap: CommandSpec = { space: ['-w'] };
const zip: CommandSpec = { space: ['-P'] };
const sevenZip: CommandSpec = { glued: ['-p'] };
const sqlServer: CommandSpec = { both: ['-P'] };
const ncftp: CommandSpec = { space: ['-p'] };
const lftp: CommandSpec = { after: { '-u': /^[^,\s]+,/ } };
const windowsNet: CommandSpec = {
  positional: [
    { leading: ['user'], index: 1 },
    // The share's path, as typed (`\\host\share`) or inside a JSON string.
    { leading: ['use'], after: /^\\\\/ },
  ],
};
const samba: CommandSpec = { after: { '-U': /^[^%\s]+%/, '--user': /^[^%\s]+%/ } };
const snmp: CommandSpec = { space: ['-A', '-X'] };
const mosquitto: CommandSpec = { space: ['-P', '--pw'] };
const keytoolFlags = [
  '-storepass',
  '-keypass',
  '-srcstorepass',
  '-deststorepass',
  '-srckeypass',
  '-destkeypass',
  '-new',
];

const commands = new Map<string, CommandSpec>([
  ...['mysql', 'mysqldump', 'mysqladmin', 'mysqlimport', 'mysqlshow', 'mysqlcheck', 'mysqlpump']
    .concat(['mariadb', 'mariadb-dump', 'mariadb-admin'])
    .map((name) => [name, mysql] as const),
  ['sshpass', { both: ['-p'] }],
  ['redis-cli', { space: ['-a', '--pass'] }],
  ['valkey-cli', { space: ['-a', '--pass'] }],
  ...['sqlcmd', 'bcp', 'osql', 'isql'].map((name) => [name, sqlServer] as const),
  ...['mongo', 'mongosh', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport']
    .concat(['mongostat', 'mongotop', 'mongofiles'])
    .map((name) => [name, mongo] as const),
  ...['ldapsearch', 'ldapadd', 'ldapmodify', 'ldapdelete', 'ldapmodrdn', 'ldapwhoami']
    .concat(['ldapcompare', 'ldapexop'])
    .map((name) => [name, ldap] as const),
  ['ldappasswd', { space: ['-w', '-s', '-a'] }],
  [
    'openssl',
    {
      after: { '-passin': /^pass:/, '-passout': /^pass:/, '-pass': /^pass:/, '-k': /^/ },
    },
  ],
  ...['zip', 'zipcloak', 'unzip'].map((name) => [name, zip] as const),
  ...['7z', '7za', '7zr', '7zz'].map((name) => [name, sevenZip] as const),
  ['keytool', { space: keytoolFlags }],
  ['ssh-keygen', { space: ['-N', '-P'] }],
  ...['useradd', 'usermod'].map((name) => [name, { space: ['-p', '--password'] }] as const),
  ...['ncftp', 'ncftpput', 'ncftpget', 'ncftpls'].map((name) => [name, ncftp] as const),
  ['lftp', lftp],
  ...['smbclient', 'rpcclient', 'smbcacls', 'smbget', 'smbtree'].map(
    (name) => [name, samba] as const,
  ),
  ...['pscp', 'plink', 'psftp'].map((name) => [name, { space: ['-pw'] }] as const),
  ['xfreerdp', { after: { '/p': /^/ } }],
  ['rdesktop', { space: ['-p'] }],
  ['ipmitool', { space: ['-P'] }],
  ...['snmpwalk', 'snmpget', 'snmpset', 'snmpbulkwalk', 'snmpbulkget', 'snmptrap'].map(
    (name) => [name, snmp] as const,
  ),
  ...['mosquitto_pub', 'mosquitto_sub', 'mosquitto_rr'].map((name) => [name, mosquitto] as const),
  ['influx', { space: ['-password'] }],
  ['x11vnc', { space: ['-passwd'] }],
  ...['net', 'net1'].map((name) => [name, windowsNet] as const),
  [
    'rabbitmqctl',
    { positional: [{ leading: ['add_user', 'change_password', 'authenticate_user'], index: 1 }] },
  ],
  ['wpa_passphrase', { positional: [{ leading: [], index: 1 }] }],
  ['nmcli', { space: ['password', 'wifi-sec.psk', '802-1x.password'] }],
  // Cassandra's shell and tools (`-p` is the password: the port is a plain argument), RabbitMQ's
  // management CLI, ClickHouse's and Vertica's clients.
  ['cqlsh', { space: ['-p', '--password'] }],
  ...['psql', 'pg_dump', 'pg_dumpall', 'pg_restore', 'pg_basebackup', 'pgbench', 'pg_isready']
    .concat(['createdb', 'dropdb', 'vacuumdb', 'reindexdb', 'clusterdb', 'pg_receivewal'])
    .map((name) => [name, postgres] as const),
  ['nodetool', { space: ['-pw', '--password'] }],
  ['rabbitmqadmin', { space: ['-p', '--password'] }],
  ['clickhouse-client', { space: ['--password'] }],
  ['vsql', { space: ['-w', '--password'] }],
]);

// `redis-cli … AUTH [user] PASSWORD`: Redis's AUTH command takes the password last, after an
// optional user name (ACL); the same command typed at redis-cli's prompt (`127.0.0.1:6379> AUTH …`).
const redisClients = new Set(['redis-cli', 'valkey-cli']);
// redis-cli's options that take a value (`-h HOST`, `--user NAME`); the rest are switches.
const redisValueOptions = new Set(
  '-h -p -s -a -u -n -r -i -d -D -t -e --user --pass --cacert --cacertdir --cert --key --sni --tls-ciphers --tls-ciphersuites --eval --pattern --quoted-pattern --count --memkeys-samples --rdb --functions-rdb --replica --hotkeys --bigkeys --cluster --lru-test'.split(
    ' ',
  ),
);
/**
 * Whether the token at `index` is the first argument that is no option nor an option's value after
 * the redis client at `client`: `AUTH` there is the command; later (`XADD auth mystream`) a key.
 */
function firstRedisArgument(tokens: Token[], client: number, index: number): boolean {
  for (let at = client + 1; at < index; at++) {
    const value = tokens[at]!.value;
    if (!value.startsWith('-')) return false;
    if (redisValueOptions.has(value)) at++;
  }
  return true;
}
// `<tool> config set KEY VALUE`, `aws configure set [profile.]KEY VALUE`, `dotnet user-secrets set
// KEY VALUE`: a settings command storing a value under a named key; the key says whether it is a
// secret (`aws_secret_access_key`, `npmAuthToken`), as it would in a file.
const settingsVerbs = new Set(['config', 'configure', 'user-secrets']);

// `<tool> login -u me -p SECRET` (docker, podman, helm registry, az, cf, oc): after a `login`
// subcommand `-p` is a password, not a port or a path.
const login: CommandSpec = { both: ['-p'], space: ['--password'] };
// Before `login`, any tool's name (`docker`, `cosign`, `ibmcloud`, `kubectl argo rollouts`) makes
// its `-p` a password, except login(1) run by a wrapper (`sudo login -p`: keep the environment),
// `gh auth login -p https` (a git protocol) and prose (`the login -p option`).
const notLoginTools = new Set(
  [
    'sudo doas su exec env nohup command time gh',
    'the a an to and or of for with via your this that then use run',
  ]
    .join(' ')
    .split(' '),
);
// Tool names that are English words too: read as a command only where a command starts.
const proseWords = new Set(['net', 'net1']);
// Words that run the command after them (`sudo net user …`, `cmd /c net use …`).
const wrappers = new Set('sudo doas runas exec env call start /c /k cmd'.split(' '));
// `lftp -e "open -u bob,SECRET host; mirror"`: lftp's own commands inside its script argument.
const lftpScript = new Set(['-e', '-c']);
// `htpasswd -b[c…] file user PASSWORD`, `htpasswd -nb user PASSWORD`: the flag cluster says how
// many plain arguments come before the password.
const htpasswd = 'htpasswd';
// `sqlplus scott/tiger@orcl`: the connect string's password.
const sqlplusNames = new Set(['sqlplus', 'sqlcl', 'sql']);

// The words that make a line worth reading: a tool's name, `login`, a password pipe's reader.
const triggerNames = [
  ...commands.keys(),
  htpasswd,
  'login',
  'sqlplus',
  'sqlcl',
  'password-stdin',
  'chpasswd',
  'passwd',
  ...settingsVerbs,
];
// Names by their first two letters (lower-cased codes): a word start is checked against the few
// names sharing its opening, so a text without any costs one table lookup per word. A regex
// alternation of the same names cost 45-60 ms over the 5.4 M characters of the dev transcripts;
// this scan about a fifth of that.
const namesByOpening = new Map<number, string[]>();
// The same openings as a table read without a call: most word starts open no name.
const openings = new Uint8Array(128 * 128);
for (const name of triggerNames) {
  const key = name.charCodeAt(0) * 128 + name.charCodeAt(1);
  namesByOpening.set(key, [...(namesByOpening.get(key) ?? []), name]);
  openings[key] = 1;
  openings[(name.charCodeAt(0) & ~32) * 128 + name.charCodeAt(1)] = 1;
  openings[(name.charCodeAt(0) & ~32) * 128 + (name.charCodeAt(1) & ~32)] = 1;
}

// Characters that may stand right before a command's name: a space, a quote, a path, `;|&(=`.
const beforeName = new Uint8Array(128);
for (const character of ' \t\n\r/\\"\'(;|&=`') beforeName[character.charCodeAt(0)] = 1;

/** Whether `code` may end a command's name: a space, a quote, `;|&)`, a backslash or the end. */
function afterName(code: number): boolean {
  return (
    Number.isNaN(code) ||
    code === 32 ||
    code === 9 ||
    code === 10 ||
    code === 13 ||
    code === 34 ||
    code === 39 ||
    code === 59 ||
    code === 124 ||
    code === 38 ||
    code === 41 ||
    code === 92
  );
}

const lowerCode = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);
// `mysql.exe`, `rabbitmqctl.bat`, `net1.cmd`: how Windows names a program.
const windowsExtension = /^\.(?:exe|bat|cmd)$/i;

/** Whether a trigger name (any case, optionally `.exe`) stands at `at` and ends there. */
function nameAt(text: string, at: number): boolean {
  // Nothing is read past the end (a read there gives NaN, which no name holds; one NaN made the
  // optimised scan around this deoptimise and run on with slower reads).
  const length = text.length;
  if (at + 1 >= length) return false;
  const first = lowerCode(charCodeAt.call(text, at));
  const second = lowerCode(charCodeAt.call(text, at + 1));
  if (first >= 128 || second >= 128) return false;
  const names = namesByOpening.get(first * 128 + second);
  if (names === undefined) return false;
  for (const name of names) {
    if (at + name.length > length) continue;
    let index = 2;
    while (
      index < name.length &&
      lowerCode(charCodeAt.call(text, at + index)) === name.charCodeAt(index)
    ) {
      index++;
    }
    if (index < name.length) continue;
    let end = at + name.length;
    if (
      end < length &&
      charCodeAt.call(text, end) === 46 &&
      windowsExtension.test(text.slice(end, end + 4))
    ) {
      end += 4;
    }
    // The name ends the text, or a character that may end it follows.
    if (end >= length || afterName(charCodeAt.call(text, end))) return true;
  }
  return false;
}

// `PGPASSWORD=`, `export DB_PASSWORD=`: a shell assignment to a password variable, after a
// boundary so that a long run of name characters is tried once, not from each position, and with
// the name's parts bounded: unbounded, a run of `PASSWORD` repeated was quadratic (26 s at 400k).
const assignmentPattern =
  /(?<=^|[\s;|&("'`])[A-Z0-9_]{0,40}?(?:PASSWORD|PASSWD|PASSPHRASE)[A-Z0-9_]{0,40}=/gm;

/**
 * Where the lines worth reading start: each trigger word's position, ascending, in `found`
 * (emptied first).
 */
function triggers(text: string, found: number[]): number[] {
  found.length = 0;
  if (text.includes('PASSW') || text.includes('PASSPHRASE')) {
    assignmentPattern.lastIndex = 0;
    for (let match = assignmentPattern.exec(text); match; match = assignmentPattern.exec(text)) {
      found.push(match.index);
    }
  }
  const assignments = found.length;
  if (nameAt(text, 0)) found.push(0);
  const length = text.length;
  // Each character is read once: the two after the current one are carried along (`first`,
  // `second`; 128 past the end, which opens no name, as NaN did), not read again at every
  // character that may stand before a name (a third of the characters of code and logs).
  let first = length > 0 ? charCodeAt.call(text, 0) : 128;
  let second = length > 1 ? charCodeAt.call(text, 1) : 128;
  for (let index = 0; index < length; index++) {
    const code = first;
    first = second;
    second = index + 2 < length ? charCodeAt.call(text, index + 2) : 128;
    if (code >= 128 || beforeName[code] === 0 || first >= 128 || second >= 128) continue;
    if (openings[first * 128 + second] === 0 || !nameAt(text, index + 1)) continue;
    found.push(index + 1);
    // The rest of the line is read with it: the next trigger worth a look is on a later line.
    const lineEnd = text.indexOf('\n', index + 1);
    if (lineEnd === -1) break;
    index = lineEnd - 1;
    first = charCodeAt.call(text, lineEnd);
    second = lineEnd + 1 < length ? charCodeAt.call(text, lineEnd + 1) : 128;
  }
  return assignments > 0 ? found.sort((a, b) => a - b) : found;
}

/** Whether `text` names one of the tools read here (or a password variable's assignment). */
export function namesCommandTool(text: string): boolean {
  return triggers(text, triggerStarts).length > 0;
}

/** Whether a quoted argument holds a command worth reading. */
function namesCommand(value: string): boolean {
  if (nameAt(value, 0)) return true;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 128 && beforeName[code] === 1 && nameAt(value, index + 1)) return true;
  }
  return /(?:PASSWORD|PASSWD|PASSPHRASE)[A-Z0-9_]*=/.test(value);
}

interface Token {
  /** The argument as the shell reads it (quotes removed). */
  value: string;
  /** Where the argument starts and ends in the text (its closing quote excluded). */
  start: number;
  end: number;
  /** Whether the whole argument stood in quotes: it may hold a command of its own. */
  quoted?: boolean;
  /** An unquoted word in an argument list of code (`['-a', pw]`): a variable, never the value. */
  reference?: boolean;
}

/**
 * Whether a bare argument is only the punctuation of a list in code (`[`, `,`, `],`). Braces are
 * not: a JSON object holding a command string opens with one.
 */
function isListPunctuation(value: string): boolean {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code !== 44 && code !== 91 && code !== 93) return false;
  }
  return true;
}

// The scan is synchronous and never nested: one list of trigger positions serves every text (a
// list, and an iterator over it, per text redacted added up over a long history).
const triggerStarts: number[] = [];

/**
 * Passwords given on command lines to tools whose flags are documented to take one (`mysql
 * -pSECRET`, `redis-cli -a SECRET`, `sqlcmd -P SECRET`, `openssl … -passin pass:SECRET`,
 * `htpasswd -b file user SECRET`, `smbclient -U user%SECRET`, `echo SECRET | docker login
 * --password-stdin`), wherever the command stands in a line (after `sudo`, `docker exec`, a
 * path). Only lines naming such a command are read, each split into arguments once with quotes
 * respected: linear in the text.
 */
export function findCommandLinePasswords(
  text: string,
  /** Where the matches are appended (a fresh list by default). */
  found: KeyedMatch[] = [],
): KeyedMatch[] {
  let scannedTo = 0;
  const starts = triggers(text, triggerStarts);
  for (let position = 0; position < starts.length; position++) {
    const at = starts[position]!;
    if (at < scannedTo) continue;
    const lineStart = text.lastIndexOf('\n', at) + 1;
    let lineEnd = text.indexOf('\n', at);
    if (lineEnd === -1) lineEnd = text.length;
    // A line continued with `\` goes on: `docker login \` / `  -p SECRET`; so does an argument
    // list of code laid out one element per line (`spawn('redis-cli', [` / `  '-a',`).
    while (lineEnd < text.length && (continues(text, lineEnd) || opensList(text, lineEnd))) {
      const next = text.indexOf('\n', lineEnd + 1);
      lineEnd = next === -1 ? text.length : next;
    }
    // The part of a line before the command was not scanned yet either: a line is read once.
    scanLine(text, Math.max(lineStart, scannedTo), lineEnd, found);
    scannedTo = lineEnd;
  }
  return found;
}

/** Whether the line ending at `lineEnd` (a `\n`) ends with `,`, `[` or `(`: a list going on. */
function opensList(text: string, lineEnd: number): boolean {
  let before = lineEnd - 1;
  while (before >= 0 && (text.charCodeAt(before) === 32 || text.charCodeAt(before) === 13)) {
    before--;
  }
  const code = text.charCodeAt(before);
  return code === 44 || code === 91 || code === 40;
}

/** Whether the line ending at `lineEnd` (a `\n`) ends with a `\` continuation. */
function continues(text: string, lineEnd: number): boolean {
  const before = text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 2 : lineEnd - 1;
  return text.charCodeAt(before) === 92;
}

// A database's name after `mysql --password` (mysql then prompts): lower-case letters and `_`.
const plainName = /^[a-z_][a-z_]*$/;
const conninfoPassword = /(?:^|\s)password\s*=\s*('[^']{1,256}'|[^\s']{1,256})/;

const settingValue = /^(?:yes|no|y|n|true|false|on|off|none|null|empty|random|\d{1,3})$/i;

/** Whether a `<` at `at` opens a slot to fill in (`<password>`), not a redirection. */
function isSlot(text: string, at: number, to: number): boolean {
  for (let index = at + 1; index < to && index < at + 64; index++) {
    const code = text.charCodeAt(index);
    if (code === 62) return index > at + 1;
    if (code === 32 || code === 9 || code === 10 || code === 60) return false;
  }
  return false;
}

/** Splits `text[from, to)` into commands of arguments, a separator closing each. */
function* commandsOf(
  text: string,
  from: number,
  to: number,
): Generator<{ tokens: Token[]; pipedOn: boolean }> {
  let tokens: Token[] = [];
  // Right after a comma or bracket between words: an argument list in code (`spawn('mysql', [...])`).
  let listed = false;
  // The command is a list of strings (`"redis-cli", "-a",`), not a JSON object (`"tool":"bash",`)
  // or prose: a line break inside it is layout, not its end.
  let inList = false;
  let onlyStrings = true;
  const unclosed = { '"': -1, "'": -1, '\\"': -1 };
  let at = from;
  while (at < to) {
    const code = text.charCodeAt(at);
    if (code === 32 || code === 9 || code === 13 || code === 10) {
      at++;
      continue;
    }
    if (code === 92) {
      const escaped = text[at + 1];
      // A JSON string's escaped tab parts arguments; its escaped line break ends the command;
      // a shell line continuation (`\` at the line's end) is a space.
      if (escaped === 't' || escaped === '\n' || escaped === '\r') {
        at += 2;
        continue;
      }
      if (escaped === 'n' || escaped === 'r') {
        const last = tokens.at(-1);
        // `\\` then `\n` in a JSON string: a shell line continuation, not the command's end.
        if (last !== undefined && !last.quoted && last.end === at && isBackslashes(last.value)) {
          tokens.pop();
        } else if (!inList) {
          yield { tokens, pipedOn: false };
          tokens = [];
          listed = false;
          onlyStrings = true;
        }
        at += 2;
        continue;
      }
    }
    if ((code === 60 && !isSlot(text, at, to)) || code === 62) {
      // A redirection (`>>log`, `2>&1`, `<dump.sql`) and its target are not arguments.
      at = pastRedirection(text, at, to, unclosed);
      continue;
    }
    if (code === 41 && builderCall.test(text.slice(at, at + 7))) {
      // Rust's `Command::new("mysql").arg("-u").args([…])`: the builder goes on.
      at = text.indexOf('(', at) + 1;
      listed = true;
      inList = true;
      continue;
    }
    if (code === 59 || code === 124 || code === 38 || code === 40 || code === 41 || code === 96) {
      // `;`, `|`, `&`, `(`, `)`, a backtick: the command ends; a single `|` pipes into the next.
      const piped =
        code === 124 && text.charCodeAt(at + 1) !== 124 && text.charCodeAt(at - 1) !== 124;
      yield { tokens, pipedOn: piped };
      tokens = [];
      listed = false;
      inList = false;
      onlyStrings = true;
      at++;
      continue;
    }
    const { token, next } = readToken(text, at, to, unclosed);
    at = next;
    const afterList = listed;
    listed = false;
    if (!token.quoted) {
      const value = token.value;
      if (isListPunctuation(value)) {
        listed = true;
        inList ||= onlyStrings;
        continue;
      }
      // A file descriptor before a redirection (`2>&1`), a string's prefix (`f"…"`, `r'…'`).
      const after = text.charCodeAt(next);
      if (/^\d$/.test(value) && (after === 60 || after === 62)) continue;
      if (stringPrefix.test(value) && (after === 34 || after === 39 || after === 92)) continue;
      // `['-a', pw, 'ping']`, `("-a", pw)`, `,pw]`: an unquoted word in a list of code is a
      // variable; one ending in a comma goes on to the next (`user, pw,`).
      if (afterList || value.charCodeAt(0) === 44 || value.charCodeAt(0) === 91) {
        token.reference = true;
        if (value.endsWith(',')) listed = true;
      } else {
        onlyStrings = false;
      }
    }
    tokens.push(token);
  }
  yield { tokens, pipedOn: false };
}

// A flag whose value may follow in quotes glued to it: `--user=`, `/p:`, openssl's `pass:`.
const quotedValueFlag = /^(?:--?[A-Za-z][\w-]*=|\/[A-Za-z]{1,8}:|pass:)$/;
// `).arg(` and `).args(` of a Rust `Command` builder.
const builderCall = /^\)\.args?\(/;
// Python's `f"…"`, `r'…'`, `b"…"`, `rb"…"`: letters glued before a string's quote.
const stringPrefix = /^(?:[fFrRbBuU]|[fFrRbB]{2})$/;

// What stands before a prompt's `>` on its line: `PS C:\Users\bob`, `C:\repo`, `mysql`.
const promptBefore = /^(?:PS [^<>|&;"]{0,60}|[A-Za-z]:\\[^<>|&;"]{0,60}|[\w.-]{1,20})$/;

/**
 * Whether the `>` at `at` ends a shell or database prompt, or quotes a markdown line (`> docker
 * login …`), rather than redirecting; or a label points at a command (`Step 3 > docker login`).
 */
function isPrompt(text: string, at: number): boolean {
  if (text.charCodeAt(at + 1) !== 32) return false;
  if (startsToolWord(text, at + 2)) return true;
  let start = at;
  while (start > 0 && at - start < 64) {
    const code = text.charCodeAt(start - 1);
    if (code === 10 || code === 13 || code === 34) break;
    // A JSON string's escaped line break starts the line too.
    if (text.charCodeAt(start - 2) === 92 && (code === 110 || code === 114)) break;
    start--;
  }
  const before = text.slice(start, at);
  return promptBefore.test(before) || /^[\s>]*$/.test(before);
}

/** Whether a tool's name, a login tool's or a wrapper stands at `at` (`> sudo net user …`). */
function startsToolWord(text: string, at: number): boolean {
  let end = at;
  while (end < text.length && end - at < 32 && /[\w.-]/.test(text[end]!)) end++;
  const word = commandName(text.slice(at, end));
  return (
    commands.has(word) || wrappers.has(word) || (word.length > 1 && text.startsWith(' login', end))
  );
}

/**
 * Where the text goes on after a redirection at `at`: its operator (`>`, `>>`, `<`, `<<`, `2>&1`,
 * `&>`) and its target word (a file, a heredoc's delimiter), which is not an argument.
 */
function pastRedirection(
  text: string,
  at: number,
  to: number,
  unclosed: Record<string, number>,
): number {
  // `>`, `>>` (a nested markdown quote), `>>>` (Python's prompt) before a command.
  let quoteEnd = at;
  while (quoteEnd < to && quoteEnd - at < 3 && text.charCodeAt(quoteEnd) === 62) quoteEnd++;
  if (quoteEnd > at && isPrompt(text, quoteEnd - 1)) return quoteEnd;
  let next = at;
  while (next < to && (text.charCodeAt(next) === 60 || text.charCodeAt(next) === 62)) next++;
  if (text.charCodeAt(next) === 38) {
    // `>&2`, `>&-`: a descriptor, no word follows.
    const target = text.charCodeAt(next + 1);
    if ((target >= 48 && target <= 57) || target === 45) return next + 2;
    next++;
  }
  while (next < to && (text.charCodeAt(next) === 32 || text.charCodeAt(next) === 9)) next++;
  // A tool's name after the operator (`>mysql -pX`, `< sqlcmd …`) starts a command, not a target.
  if (next >= to || nameAt(text, next)) return next;
  const code = text.charCodeAt(next);
  if (code === 59 || code === 124 || code === 38 || code === 40 || code === 41 || code === 10) {
    return next;
  }
  return readToken(text, next, to, unclosed).next;
}

/**
 * Where `quote` next occurs in `text[from, to)`, or -1. `unclosed` remembers, per quote, a start
 * from which it was not found: no later search in the line can find it, so none scans again.
 */
function findQuote(
  text: string,
  quote: '"' | "'" | '\\"',
  from: number,
  to: number,
  unclosed: Record<string, number>,
): number {
  if (unclosed[quote]! !== -1 && from >= unclosed[quote]!) return -1;
  let at = text.indexOf(quote, from);
  // A `"` escaped inside (`\"` in a JSON string) is a quote of a command nested in this one.
  while (at !== -1 && at < to && quote !== '\\"' && escapedAt(text, at, from)) {
    at = text.indexOf(quote, at + 1);
  }
  if (at === -1 || at + quote.length > to) {
    unclosed[quote] = from;
    return -1;
  }
  return at;
}

/** Whether an odd number of backslashes stands right before `at` (not before `floor`). */
function escapedAt(text: string, at: number, floor: number): boolean {
  let backslashes = 0;
  while (at - backslashes - 1 >= floor && text.charCodeAt(at - backslashes - 1) === 92) {
    backslashes++;
  }
  return backslashes % 2 === 1;
}

/**
 * Whether the backslash at `at` starts an escape of a JSON string: before `"`, or before `n`, `r`,
 * `t` unless four backslashes (or eight) stand there: `\n` is a line break in JSON and `\\n` in
 * JSON inside JSON, but `\\\\nas` is the path `\\nas` in either.
 */
function isEscape(text: string, at: number, letter: string | undefined): boolean {
  if (letter === '"') return true;
  if (letter !== 'n' && letter !== 'r' && letter !== 't') return false;
  let backslashes = 1;
  while (at - backslashes >= 0 && text.charCodeAt(at - backslashes) === 92) backslashes++;
  return backslashes % 4 !== 0;
}

/** Whether `value` is two or more backslashes: the escaped `\` of a continuation before `\n`. */
function isBackslashes(value: string): boolean {
  if (value.length < 2) return false;
  for (let index = 0; index < value.length; index++) {
    if (value.charCodeAt(index) !== 92) return false;
  }
  return true;
}

/** Whether `login` at `index` is a registry or cloud tool's (`docker login`, `crane auth login`). */
function logsIn(tokens: Token[], index: number): boolean {
  const previous = tokens[index - 1]!.value;
  const before = commandName(previous);
  if (!/^[a-z][a-z0-9_.-]*$/.test(before) || notLoginTools.has(before)) return false;
  // `crane auth login` yes, `gh auth login` no.
  return before !== 'auth' || index < 2 || commandName(tokens[index - 2]!.value) !== 'gh';
}

/**
 * Whether the argument at `index` starts a command: the first of it, a path to the program, after
 * a wrapper (`sudo`, `cmd /c`, `--`) or its flags (`sudo -E`), or after a prompt or label (`C:\> `,
 * `$ `, `Running: `). "The net user count" is prose.
 */
function opensCommand(text: string, tokens: Token[], index: number): boolean {
  const token = tokens[index]!;
  if (index === 0 || /[/\\]/.test(token.value)) return true;
  const previous = tokens[index - 1]!.value;
  if (wrappers.has(previous.toLowerCase()) || previous.startsWith('-')) return true;
  // A Dockerfile's `RUN`, a numbered or bulleted step (`1. net user …`, `2) …`, `* …`).
  if (previous === 'RUN' || /^(?:\d{1,3}[.)]|[*•])$/.test(previous)) return true;
  let before = token.start - 1;
  while (before > 0 && (text.charCodeAt(before) === 32 || text.charCodeAt(before) === 9)) before--;
  const code = text.charCodeAt(before);
  return code === 62 || code === 36 || code === 35 || code === 58;
}

/** One argument from `at`: quoted (`'…'`, `"…"`, `\"…\"` inside JSON), glued (`-p'…'`) or bare. */
function readToken(
  text: string,
  at: number,
  to: number,
  unclosed: Record<string, number>,
): { token: Token; next: number } {
  const code = text.charCodeAt(at);
  const escapedQuote = code === 92 && text[at + 1] === '"';
  if (code === 34 || code === 39 || escapedQuote) {
    const quote = escapedQuote ? '\\"' : (text[at] as '"' | "'");
    const open = at + quote.length;
    const close = findQuote(text, quote, open, to, unclosed);
    if (close !== -1) {
      return {
        token: { value: text.slice(open, close), start: open, end: close, quoted: true },
        next: close + quote.length,
      };
    }
  }
  let end = at;
  while (end < to) {
    const next = text.charCodeAt(end);
    if (next === 32 || next === 9 || next === 10 || next === 13) break;
    // `;|&)` and a backtick end the command; `<`, `>` a redirection; `(` a substitution's start.
    if (next === 59 || next === 124 || next === 38 || next === 41 || next === 96) break;
    if ((next === 60 || next === 62 || next === 40) && !(end === at && isSlot(text, at, to))) break;
    // An escape of a JSON string (`\\"`, a line break: see `isEscape`) ends a bare argument.
    const escaped = next === 92 && isEscape(text, end, text[end + 1]);
    if (escaped || ((next === 34 || next === 39) && end > at)) {
      // A quoted value glued to a short flag: `-p'SECRET'`, `-p"SECRET"`, and `-p\"SECRET\"`
      // inside a JSON string; or to a flag's `=`/`:` (`--user="bob%SECRET"`, `pass:'SECRET'`).
      const quote = escaped ? (text[end + 1] === '"' ? '\\"' : undefined) : text[end];
      const flag =
        (end === at + 2 && text.charCodeAt(at) === 45) ||
        quotedValueFlag.test(text.slice(at, Math.min(end, at + 40)));
      if (quote !== undefined && flag) {
        const glued = gluedQuoted(text, at, end, quote as '"' | "'" | '\\"', to, unclosed);
        if (glued) return glued;
      }
      break;
    }
    end++;
  }
  if (end === at) end = at + 1;
  return { token: { value: text.slice(at, end), start: at, end }, next: end };
}

/** `-p` and the quoted value right after it, as one argument without the quotes. */
function gluedQuoted(
  text: string,
  at: number,
  quoteAt: number,
  quote: '"' | "'" | '\\"',
  to: number,
  unclosed: Record<string, number>,
): { token: Token; next: number } | undefined {
  const open = quoteAt + quote.length;
  // `-p" + pw])`: a quote with a space after it closes a string (read out of step, in a JSON
  // text whose escapes were decoded); a password does not open with a space.
  const first = text.charCodeAt(open);
  if (first === 32 || first === 9) return undefined;
  const close = findQuote(text, quote, open, to, unclosed);
  if (close === -1) return undefined;
  return {
    token: { value: `${text.slice(at, quoteAt)}${text.slice(open, close)}`, start: at, end: close },
    next: close + quote.length,
  };
}

/** The command's name as typed: a path's last part, without `.exe`/`.bat`/`.cmd`, lower-cased. */
function commandName(value: string): string {
  const base = value.slice(Math.max(value.lastIndexOf('/'), value.lastIndexOf('\\')) + 1);
  return base.replace(/\.(?:exe|bat|cmd)$/i, '').toLowerCase();
}

/** A literal the line gives as the password, not a variable, a placeholder or a prompt. */
function isLiteralPassword(value: string): boolean {
  if (value.length < 3 || value === '-' || value === '*' || value === '""' || value === "''") {
    return false;
  }
  if (/^[$%<{[(]/.test(value) || /^-/.test(value)) return false;
  // `!PASS!`: a variable of cmd's delayed expansion.
  if (/^![A-Za-z_]\w*!$/.test(value)) return false;
  return !isTemplate(value) && !isPlaceholder(value);
}

// `-x` of `-xw`: one or two lower-case switches run together before a one-letter password flag
// (not `-OX`, snmpwalk's `-O` taking `X` as its value, nor a long option such as `-help`).
const clusteredBefore = /^-[a-z]{1,2}$/;

// `net use Z: \\host\share PW /user:bob`: the plain arguments a positional password is sought in.
const maxPlain = 6;

// `bash -c "…"`, `ssh host '…'`, a JSON string holding a command, JSON in JSON: how deep
// quoted commands are read.
const maxNesting = 3;

function scanLine(
  text: string,
  from: number,
  to: number,
  found: KeyedMatch[],
  depth = 0,
  script?: CommandSpec,
): void {
  let echoed: Token | undefined;
  for (const { tokens, pipedOn } of commandsOf(text, from, to)) {
    if (depth < maxNesting) {
      for (const token of tokens) {
        // A quoted command: with spaces, or JSON text without them (`[\"mysql\",\"-pX\"]`).
        const spaced = token.value.includes(' ') || token.value.includes('\\"');
        if (token.quoted && spaced && namesCommand(token.value)) {
          scanLine(text, token.start, token.end, found, depth + 1);
        }
      }
    }
    const fromEcho = echoed;
    echoed = undefined;
    let spec: CommandSpec | undefined = script;
    let name = '';
    let commandAt = -1;
    let plain: Token[] = [];
    let htpasswdBefore = -1;
    let sawPasswd = false;
    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index]!;
      const value = token.value;
      // A tool's name right after a flag is that flag's value (`mysql -u net`), not a command;
      // so is a plain argument before a positional password (`net user zip SECRET`).
      // Before any known command (`kubectl exec db -- mysql`, `sudo -E mysql`) a flag's word is
      // not checked: the name there starts the command.
      const afterFlag = spec !== undefined && index > 0 && tokens[index - 1]!.value.startsWith('-');
      const awaitingPositional =
        (spec?.positional !== undefined || name === htpasswd) && plain.length < 4;
      const lower = afterFlag || awaitingPositional ? '' : commandName(value);
      if (commands.has(lower) && (!proseWords.has(lower) || opensCommand(text, tokens, index))) {
        spec = commands.get(lower);
        name = lower;
        commandAt = index;
        plain = [];
        continue;
      }
      if (lower === htpasswd) {
        spec = undefined;
        name = htpasswd;
        plain = [];
        htpasswdBefore = -1;
        continue;
      }
      if (lower === 'login' && index > 0 && logsIn(tokens, index)) {
        spec = login;
        name = 'login';
        plain = [];
        continue;
      }
      if (sqlplusNames.has(lower) && (lower !== 'sql' || index === 0)) {
        name = 'sqlplus';
        spec = undefined;
        continue;
      }
      if (name === 'sqlplus') {
        if (value.startsWith('-')) continue;
        // `scott/tiger@orcl`, `scott/tiger`; `/nolog` and `/ as sysdba` hold none.
        const connect = /^[\w$#.]+\/([^@\s/]+)(?:@|$)/.exec(value);
        if (connect) {
          const slash = value.indexOf('/') + 1;
          emitRange(found, token, slash, slash + connect[1]!.length);
        }
        name = '';
        continue;
      }
      // `PGPASSWORD=p,ss psql`, `export DB_PASSWORD=a.b`: a shell assignment holds a literal,
      // whatever it would read as in code (member access, a list).
      const assignment = /^([A-Z][A-Z0-9_]*)=/.exec(value);
      if (assignment && !token.quoted && keyIsSecret(assignment[1]!) === 'strong') {
        const after = tokens[index + 1];
        const literal = value.slice(assignment[0].length);
        // `MYSQL_ALLOW_EMPTY_PASSWORD=yes`, `PASSWORD_AUTH=false`: a setting, not a password;
        // `DB_PASSWORD=/run/secrets/db`: where the password is kept.
        if (settingValue.test(literal) || pointsElsewhere(literal)) continue;
        if (literal !== '') {
          emitRange(found, token, assignment[0].length, value.length);
        } else if (
          after?.quoted &&
          after.start === token.end + 1 &&
          !settingValue.test(after.value) &&
          !pointsElsewhere(after.value)
        ) {
          emitWhole(found, after);
        }
        continue;
      }
      if (lower === 'passwd') sawPasswd = true;
      // `config set KEY VALUE`: the value of a key naming a secret.
      if (
        lower === 'set' &&
        index > 0 &&
        settingsVerbs.has(commandName(tokens[index - 1]!.value)) &&
        settingPassword(tokens, index + 1, found)
      ) {
        index += 2;
        continue;
      }
      if (
        redisClients.has(name) &&
        value.toLowerCase() === 'auth' &&
        !token.quoted &&
        firstRedisArgument(tokens, commandAt, index)
      ) {
        index += redisAuth(tokens, index + 1, found);
        continue;
      }
      // `echo SECRET | docker login --password-stdin`, `echo SECRET | passwd --stdin bob`.
      if (fromEcho && (value === '--password-stdin' || (value === '--stdin' && sawPasswd))) {
        emitWhole(found, fromEcho);
        continue;
      }
      if (name === htpasswd) {
        if (/^-[a-zA-Z]+$/.test(value)) {
          if (value.includes('b')) htpasswdBefore = value.includes('n') ? 1 : 2;
          // `-C cost`, `-r rounds` take a number.
          if (/[Cr]$/.test(value)) index++;
          continue;
        }
        plain.push(token);
        if (htpasswdBefore >= 0 && plain.length === htpasswdBefore + 1) emitWhole(found, token);
        continue;
      }
      if (spec === undefined) continue;
      if (spec.positional) {
        // Past the few arguments a password may stand among, none is read: a line of prose
        // that opens with `net` would otherwise be re-read for each word (quadratic).
        if (value.startsWith('-') || value.startsWith('/') || plain.length >= maxPlain) continue;
        plain.push(token);
        if (isPositionalPassword(text, spec.positional, plain)) emitWhole(found, token);
        continue;
      }
      const next = tokens[index + 1];
      if (spec === lftp && lftpScript.has(value) && next?.quoted && depth < maxNesting) {
        scanLine(text, next.start, next.end, found, depth + 1, lftp);
        index++;
        continue;
      }
      for (const flag of [...(spec.space ?? []), ...(spec.both ?? [])]) {
        if (value === flag && next) {
          emitWhole(found, next);
          index++;
        } else if (value.startsWith(`${flag}=`)) {
          emitRange(found, token, flag.length + 1, value.length);
        } else if (flag.length === 2 && value.length > 2 && value.startsWith(flag)) {
          // `-wSECRET`: getopt reads a one-letter flag's value glued too.
          if (value[2] !== '-') emitRange(found, token, 2, value.length);
        } else if (next && value.endsWith(flag[1]!) && clusteredBefore.test(value.slice(0, -1))) {
          // `-xw SECRET`: getopt reads flags run together, the last taking the next argument.
          emitWhole(found, next);
          index++;
        }
      }
      for (const flag of spec.optional ?? []) {
        if (value.startsWith(`${flag}=`)) {
          emitRange(found, token, flag.length + 1, value.length);
        } else if (value === flag && next && !plainName.test(next.value)) {
          emitWhole(found, next);
          index++;
        }
      }
      if (spec.conninfo && token.quoted) {
        // `"host=db port=5432 password=… dbname=x"`: libpq's key=value words, a value quoted or not.
        const password = conninfoPassword.exec(value);
        if (password) {
          const at = password.index + password[0].length - password[1]!.length;
          const unquoted = password[1]!.replace(/^'(.*)'$/, '$1');
          const from = at + (unquoted.length < password[1]!.length ? 1 : 0);
          emitRange(found, token, from, from + unquoted.length);
        }
      }
      for (const flag of spec.glued ?? []) {
        if (value.length > flag.length && value.startsWith(flag) && !value.startsWith(`${flag}-`)) {
          if (flag.length === 2 || !/^[a-z]/.test(value.slice(flag.length))) {
            emitRange(found, token, flag.length, value.length);
          }
        }
      }
      for (const [flag, prefix] of Object.entries(spec.after ?? {})) {
        const glued = gluedAfter(value, flag, prefix);
        const target = glued !== undefined ? token : value === flag ? next : undefined;
        if (!target) continue;
        const argument = glued ?? target.value;
        const head = prefix.exec(argument);
        if (!head) continue;
        const skip = (glued !== undefined ? value.length - glued.length : 0) + head[0].length;
        emitRange(found, target, skip, target.value.length);
        if (target === next) index++;
      }
    }
    // `echo SECRET | docker login --password-stdin`, `echo user:SECRET | chpasswd`.
    // The echo may follow a prompt or `sudo` (`$ echo …`): the first echo or printf of the command.
    let echoAt = -1;
    if (pipedOn) {
      for (let index = 0; index < tokens.length - 1 && echoAt === -1; index++) {
        const word = commandName(tokens[index]!.value);
        if (word === 'echo' || word === 'printf') echoAt = index;
      }
    }
    if (echoAt !== -1) {
      const last = tokens.at(-1)!;
      // A printf format (`%s\n`) is not the value it prints.
      const format =
        commandName(tokens[echoAt]!.value) === 'printf' &&
        tokens[echoAt + 1] === last &&
        /%[-+ #0-9.]*[a-zA-Z]/.test(last.value);
      if (!last.value.startsWith('-') && !format) echoed = last;
    }
    if (fromEcho && tokens.some((token) => commandName(token.value) === 'chpasswd')) {
      const colon = fromEcho.value.indexOf(':');
      if (colon > 0) emitRange(found, fromEcho, colon + 1, fromEcho.value.length);
    }
  }
}

/**
 * `config set KEY VALUE` from `at` (the key): the value is emitted when the key's last dotted or
 * colon part (`default.aws_secret_access_key`, `//registry/:_authToken`) names a secret and the
 * value passes that key's judge.
 */
function settingPassword(tokens: Token[], at: number, found: KeyedMatch[]): boolean {
  const key = tokens[at];
  const value = tokens[at + 1];
  if (key === undefined || value === undefined || key.value.startsWith('-')) return false;
  const leaf = key.value.slice(
    Math.max(key.value.lastIndexOf('.'), key.value.lastIndexOf(':')) + 1,
  );
  // The value is judged as under the same key in a file: `sso_session my-sso` and
  // `credential.helper store` name a session's and a helper's name, not a secret.
  const strength = keyIsSecret(leaf);
  if (strength === undefined || value.value.startsWith('-')) return false;
  if (settingValue.test(value.value) || pointsElsewhere(value.value)) return false;
  if (!acceptKeyedValue(value.value, strength, true)) return false;
  emitWhole(found, value);
  return true;
}

/**
 * The arguments of Redis's `AUTH` from `at`: `AUTH PASSWORD` or `AUTH USER PASSWORD`, the last of
 * one or two plain arguments. Returns how many arguments were read.
 */
function redisAuth(tokens: Token[], at: number, found: KeyedMatch[]): number {
  let count = 0;
  while (
    count < 2 &&
    tokens[at + count] !== undefined &&
    !tokens[at + count]!.value.startsWith('-')
  )
    count++;
  if (count > 0) emitWhole(found, tokens[at + count - 1]!);
  return count;
}

// `127.0.0.1:6379> AUTH …`, `redis:6379[2]> auth …`: redis-cli's prompt (host, port, a database
// number) before the command. Found from the `AUTH` word; the prompt is checked in the few
// characters before it, so each match costs a bounded amount and the scan stays linear.
const promptedAuth = /> {1,4}(?:AUTH|auth) {1,4}([^\s"'\\]{1,256})(?: {1,4}([^\s"'\\]{1,256}))?/g;
const redisPrompt = /[\w\]-]:\d{2,5}(?:\[\d{1,2}\])?$/;

/** Passwords of `AUTH` typed at a redis-cli prompt (see above), as `cli-password`. */
export function findPromptedRedisAuth(text: string, found: KeyedMatch[] = []): KeyedMatch[] {
  if (!text.includes('> AUTH ') && !text.includes('> auth ')) return found;
  promptedAuth.lastIndex = 0;
  for (let match = promptedAuth.exec(text); match; match = promptedAuth.exec(text)) {
    if (!redisPrompt.test(text.slice(Math.max(0, match.index - 12), match.index))) continue;
    const secret = match[2] ?? match[1]!;
    if (!isLiteralPassword(secret)) continue;
    const end = match.index + match[0].length;
    found.push({ kind: 'cli-password', start: end - secret.length, end });
  }
  return found;
}

/**
 * The value glued to an `after` flag: `/p:SECRET`, `--user=bob%SECRET`, or `-Ubob%SECRET` when the
 * flag is one letter and its prefix reads something (openssl's `-kfile` is another flag).
 */
function gluedAfter(value: string, flag: string, prefix: RegExp): string | undefined {
  if (!value.startsWith(flag) || value.length === flag.length) return undefined;
  const separator = value[flag.length];
  if (separator === ':' || separator === '=') return value.slice(flag.length + 1);
  if (flag.length !== 2 || flag[0] !== '-') return undefined;
  const head = prefix.exec(value.slice(2));
  return head !== null && head[0].length > 0 ? value.slice(2) : undefined;
}

/** Whether the last of `plain` stands where one of the command's positional rules puts it. */
function isPositionalPassword(text: string, rules: readonly Positional[], plain: Token[]): boolean {
  const last = plain.length - 1;
  for (const rule of rules) {
    let lead = rule.leading.length === 0 ? -1 : -2;
    for (let index = 0; index < last && lead === -2; index++) {
      if (rule.leading.includes(plain[index]!.value.toLowerCase())) lead = index;
    }
    if (lead === -2) continue;
    if (rule.index !== undefined && last === lead + rule.index + 1) return true;
    if (rule.after !== undefined) {
      // The first plain argument after the one matching (`net use Z: \\host\share PW`).
      let anchor = -1;
      for (let index = lead + 1; index < last && anchor === -1; index++) {
        if (rule.after.test(plain[index]!.value)) anchor = index;
      }
      // `\\fs01\test` is read as `\\fs01` and `est` (`\t` as a JSON tab): what is glued to
      // the share's path, with no space between, is still the path.
      while (
        anchor !== -1 &&
        anchor + 1 < last &&
        glued(text, plain[anchor]!, plain[anchor + 1]!)
      ) {
        anchor++;
      }
      if (anchor !== -1 && last === anchor + 1 && !glued(text, plain[anchor]!, plain[last]!)) {
        return true;
      }
    }
  }
  return false;
}

/** Whether no space or tab stands between two arguments (only an escape, `\t`, parts them). */
function glued(text: string, before: Token, after: Token): boolean {
  if (after.start - before.end > 4) return false;
  for (let index = before.end; index < after.start; index++) {
    const code = text.charCodeAt(index);
    if (code === 32 || code === 9 || code === 10 || code === 13) return false;
  }
  return true;
}

/** The whole argument is the password, with a printf's trailing `\n` left out. */
function emitWhole(found: KeyedMatch[], token: Token): void {
  emitRange(found, token, 0, token.value.length);
}

/**
 * Part `[from, to)` of the argument's value is the password. A value whose quotes were removed
 * from inside it (`-p'SECRET'`) maps back by its end, where the closing quote was.
 */
function emitRange(found: KeyedMatch[], token: Token, from: number, to: number): void {
  if (token.reference) return;
  let end = to;
  let value = token.value.slice(from, end);
  if (value.endsWith('\\n')) {
    value = value.slice(0, -2);
    end -= 2;
  }
  if (!isLiteralPassword(value)) return;
  const shift = token.end - token.start - token.value.length;
  // Quotes removed inside the value sit before it: its end maps straight, its start by its length.
  const textEnd = token.start + end + shift;
  found.push({ kind: 'cli-password', start: textEnd - value.length, end: textEnd });
}
