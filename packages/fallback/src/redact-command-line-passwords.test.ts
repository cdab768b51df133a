import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { redactionCpuMs } from './test-utils/generated-values.js';

// Passwords people type: letters, digits and the symbols a shell passes unquoted or quoted. Drawn
// without bias (biased draws repeat one character, which reads as a placeholder by design).
const passwordCharacters =
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#%^*_+=.,~-';
const password = fc
  .noBias(
    fc.array(fc.integer({ min: 0, max: passwordCharacters.length - 1 }), {
      minLength: 6,
      maxLength: 24,
    }),
  )
  .map((indexes) => indexes.map((index) => passwordCharacters[index]).join(''))
  .filter(
    (value) =>
      /^[A-Za-z0-9]/.test(value) &&
      /[0-9!@#%^*_+=.,~-]/.test(value) &&
      /[A-Za-z]/.test(value) &&
      variedEnough(value) &&
      // Masking runs (`***`, `...`, `xxxx`) mark a value someone left out, by design.
      !/\*{3,}|\.{3,}|#{4,}|_{4,}|x{4,}/i.test(value),
  );

/** Few distinct letters and digits read as a placeholder (`xxxx`, `aaa1`) by design. */
function variedEnough(value: string): boolean {
  const core = value.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
  const counts = new Map<string, number>();
  for (const character of core) counts.set(character, (counts.get(character) ?? 0) + 1);
  return counts.size >= 4 && Math.max(...counts.values()) * 2 <= core.length;
}
const word = fc
  .noBias(
    fc.array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), { minLength: 3, maxLength: 9 }),
  )
  .map((letters) => letters.join(''));

/** How each tool takes a password on its command line (from its documentation). */
const forms: Array<(secret: string, user: string, host: string) => string> = [
  (p, u) => `mysql -u ${u} -p${p} ${u}_db`,
  (p, u) => `mysqldump -h db -u ${u} -p'${p}' --all-databases`,
  (p, u, h) => `mariadb -h ${h} -u ${u} -p"${p}"`,
  (p, _u, h) => `sshpass -p '${p}' ssh root@${h}`,
  (p, u, h) => `docker login -u ${u} -p ${p} ${h}.io`,
  (p, u, h) => `helm registry login ${h}.io --username ${u} --password ${p}`,
  (p, u) => `az login -u ${u}@example.com -p ${p}`,
  (p, u) => `oc login https://api.example.com:6443 -u ${u} -p '${p}'`,
  (p, _u, h) => `redis-cli -h ${h} -a ${p} ping`,
  (p, _u, h) => `redis-cli -h ${h} -p 6379 --pass "${p}" info`,
  (p, u, h) => `sqlcmd -S ${h} -U ${u} -P ${p} -Q "SELECT 1"`,
  (p, u) => `mongosh --username ${u} --password '${p}' --authenticationDatabase admin`,
  (p, u, h) => `mongodump -u ${u} -p ${p} --host ${h}`,
  (p, u) => `ldapsearch -x -D "cn=${u},dc=example,dc=com" -w ${p} -b dc=example,dc=com`,
  (p) => `openssl pkcs12 -export -in cert.pem -inkey key.pem -passout pass:${p} -out out.p12`,
  (p) => `openssl rsa -in key.pem -passin 'pass:${p}' -out plain.pem`,
  (p) => `openssl enc -aes-256-cbc -salt -in file -out file.enc -k ${p}`,
  (p) => `zip -P ${p} -r backup.zip data/`,
  (p) => `unzip -P '${p}' backup.zip`,
  (p) => `7z x -p${p} archive.7z`,
  (p, u) => `keytool -genkeypair -alias ${u} -keystore ks.jks -storepass ${p} -keypass ${p}`,
  (p) => `ssh-keygen -t ed25519 -N '${p}' -f ~/.ssh/id_deploy`,
  (p, u) => `useradd -m -p ${p} ${u}`,
  (p, u, h) => `lftp -u ${u},${p} ${h}`,
  (p, u, h) => `smbclient //${h}/share -U ${u}%${p}`,
  (p, u, h) => `plink -ssh ${u}@${h} -pw ${p}`,
  (p, u, h) => `xfreerdp /v:${h} /u:${u} /p:${p}`,
  (p, u, h) => `ipmitool -I lanplus -H ${h} -U ${u} -P ${p} chassis status`,
  (p, u, h) => `mosquitto_pub -h ${h} -u ${u} -P ${p} -t sensors -m on`,
  (p, u) => `net user ${u} ${p} /add`,
  (p, u) => `rabbitmqctl add_user ${u} ${p}`,
  (p, u) => `htpasswd -b .htpasswd ${u} ${p}`,
  (p, u) => `htpasswd -bc /etc/nginx/.htpasswd ${u} ${p}`,
  (p, u) => `htpasswd -nbB ${u} ${p}`,
  (p, u, h) => `sqlplus ${u}/${p}@${h}:1521/ORCL`,
  (p, u, h) => `echo "${p}" | docker login ${h}.io -u ${u} --password-stdin`,
  (p, u) => `printf '%s' '${p}' | podman login -u ${u} --password-stdin quay.io`,
  (p, u) => `echo '${u}:${p}' | chpasswd`,
  (p, u) => `echo ${p} | passwd --stdin ${u}`,
  (p, u) => `PGPASSWORD=${p} psql -h db -U ${u}`,
  (p) => `wpa_passphrase HomeNetwork ${p}`,
  // Short flags read by getopt or popt take their value glued as well as spaced.
  (p, u) => `mongosh -u ${u} -p${p} --authenticationDatabase admin`,
  (p, u) => `ldapsearch -x -D "cn=${u},dc=example,dc=com" -w${p} -b dc=example,dc=com`,
  (p) => `unzip -P${p} backup.zip`,
  (p, u, h) => `smbclient //${h}/share -U${u}%${p}`,
  (p, u, h) => `smbclient //${h}/share --user=${u}%${p}`,
  (p, u, h) => `ipmitool -I lanplus -H ${h} -U ${u} -P${p} power status`,
  // (A host opening with n, r or t reads as `\\n` of JSON inside JSON in plain text: README.)
  (p, u, h) => `net use \\\\fs-${h}\\share ${p} /user:${u}`,
  (p, u, h) => `net use Z: \\\\fs-${h}\\share /user:${u}@corp.example ${p} /persistent:no`,
  (p, u, h) => `lftp -e "open -u ${u},${p} sftp://${h}; mirror -R site; bye"`,
  (p, u, h) => `rabbitmqctl -n rabbit@${h} add_user ${u} ${p}`,
  // The same commands as argument lists in code.
  (p, _u, h) => `subprocess.run(["redis-cli", "-h", "${h}", "-a", "${p}", "ping"])`,
  (p, u) => `spawn('mysql', ['-u', '${u}', '-p${p}', '-e', 'select 1'])`,
  (p, u, h) => `exec.Command("sshpass", "-p", "${p}", "ssh", "${u}@${h}")`,
  // Argument lists laid out one element per line, as formatters write them.
  (p, _u, h) => `spawn('redis-cli', [\n  '-h',\n  '${h}',\n  '-a',\n  '${p}',\n])`,
  (p) => `cmd := exec.Command(\n\t"redis-cli",\n\t"-a",\n\t"${p}",\n)`,
  (p, u, h) =>
    `subprocess.check_call([\n    "sshpass",\n    "-p",\n    "${p}",\n    "ssh",\n    "${u}@${h}",\n])`,
  (p, u) => `subprocess.run(["net", "user", ${u}, "${p}", "/add"])`,
  (p) => `Command::new("redis-cli").args(["-a", "${p}", "ping"])`,
  (p) => `Command::new("redis-cli").arg("-a").arg("${p}")`,
  (p) => `subprocess.run(["redis-cli", "-a", f"${p}"])`,
  (p, u, h) => `ldapsearch -xw ${p} -D cn=${u} -h ${h}`,
  (p, u, h) => `smbclient //${h}/share --user="${u}%${p}"`,
  (p) => `openssl rsa -in key.pem -passin pass:"${p}" -out plain.pem`,
  (p, u, h) => `xfreerdp /v:${h} /u:${u} /p:'${p}'`,
  (p, _u, h) => `redis-cli -h ${h} \\\n  -a ${p} ping`,
  (p, u) => `rabbitmqctl.bat authenticate_user ${u} ${p}`,
  // Found by a review of the whole change: any tool's `login -p`, quoted and numbered steps.
  (p, u, h) => `cosign login ${h}.io -u ${u} -p ${p}`,
  (p, u) => `ibmcloud login -u ${u}@example.com -p ${p}`,
  (p, u, h) => `> docker login -u ${u} -p ${p} ${h}.io`,
  (p, u) => `RUN net user ${u} ${p} /add`,
  (p, u) => `1. net user ${u} ${p} /add`,
  (p, u, h) => `>> docker login -u ${u} -p ${p} ${h}.io`,
  (p, u, h) => `>>> podman login -u ${u} -p ${p} ${h}.io`,
];

/** Where a command line turns up in an agent's history. */
const positions: Array<(command: string) => string> = [
  (command) => command,
  (command) => `$ ${command}`,
  (command) => `sudo ${command}`,
  (command) => `docker exec -it app ${command.replace(/^([a-z][\w-]*)(?=\s)/, '/usr/bin/$1')}`,
  (command) => `cd /srv && ${command} && echo done`,
  (command) => `\`\`\`bash\n${command}\n\`\`\``,
  (command) => JSON.stringify({ command }),
  (command) => JSON.stringify({ tool: 'bash', input: JSON.stringify({ command }) }),
  (command) => `Running: ${command}\nexit code 0`,
  (command) => `kubectl exec -it db -- ${command}`,
  (command) => `sudo -E ${command}`,
  (command) => `out=$(${command})`,
  (command) => `PS C:\\Users\\ops> ${command}`,
];

describe('passwords on command lines', () => {
  it('are redacted for every documented form, in every position (property)', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: forms.length - 1 }),
        fc.nat({ max: positions.length - 1 }),
        password,
        word,
        word,
        (form, position, secret, user, host) => {
          fc.pre(!secret.includes(user) && !secret.includes(host));
          const command = forms[form]!(secret, user, host);
          // Oracle's connect string cannot hold an `@` unquoted: it would end the password.
          fc.pre(!command.startsWith('sqlplus') || !secret.includes('@'));
          const text = positions[position]!(command);
          expect(redactSecrets(text).text).not.toContain(secret);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('leave commands that hold no password alone (ports, prompts, references, files)', () => {
    const ordinary: Array<(name: string, port: number) => string> = [
      (n, port) => `psql -h ${n} -p ${port} -U ${n}`,
      (n) => `mysql -u ${n} -p ${n}_db`,
      (n, port) => `ssh -p ${port} ${n}@host`,
      (n) => `openssl pkcs12 -export -passout env:${n.toUpperCase()}_PASS -out out.p12`,
      (n) => `openssl rsa -passin file:/run/secrets/${n} -in key.pem`,
      (n) => `openssl rsa -passin stdin -in ${n}.pem`,
      (n) => `redis-cli -a "$${n.toUpperCase()}_PASSWORD" ping`,
      (n) => `redis-cli -a \${${n.toUpperCase()}} ping`,
      (n) => `docker login -u ${n} --password-stdin < ~/.${n}`,
      (n) => `cat ~/.${n} | docker login -u ${n} --password-stdin`,
      (n) => `ssh-keygen -t ed25519 -N "" -f ~/.ssh/${n}`,
      (n) => `zip -r ${n}.zip ${n}/`,
      (n) => `unzip -o ${n}.zip -d ${n}`,
      (n) => `7z a -p ${n}.7z ${n}/`,
      (n) => `htpasswd -c .htpasswd ${n}`,
      (n) => `net user ${n}`,
      (n) => `net user ${n} * /add`,
      (n) => `echo ${n} | grep ${n}`,
      (n, port) => `mongosh --port ${port} ${n}`,
      (n) => `ldapsearch -x -b dc=${n},dc=com`,
      (n) => `sqlcmd -S ${n} -E -Q "SELECT 1"`,
      (n) => `sqlplus /nolog @${n}.sql`,
      () => `sqlplus / as sysdba`,
      (n) => `keytool -list -keystore ${n}.jks`,
      (n) => `smbclient -L //${n} -N`,
      (n) => `useradd -m ${n}`,
      (n) => `mysql -u ${n} -p\${DB_PASSWORD}`,
      (n) => `sshpass -p "$PASS" ssh ${n}@host`,
      (n) => `sshpass -f ~/.${n} ssh ${n}@host`,
      (n) => `docker login -u ${n} -p <password> registry.io`,
      (n) => `MYSQL_ALLOW_EMPTY_PASSWORD=yes docker run --name ${n} mysql`,
      (n) => `ENABLE_PASSWORD_AUTH=false ${n}`,
      // In code an unquoted argument is a variable, not the password itself.
      (n) => `spawn('redis-cli', ['-a', ${n}, 'ping'])`,
      (n) => `subprocess.run(["mysql", "-u", ${n}, "-p" + ${n}])`,
      (n) => `net use Z: \\\\${n}\\share /persistent:yes`,
      (n) => `net use \\\\${n}\\share * /user:${n}`,
      // login(1)'s `-p` keeps the environment; its argument is the user.
      (n) => `sudo login -p ${n}`,
      (n) => `exec /bin/login -p -f ${n}`,
      (n) => `unzip -P"$${n.toUpperCase()}" ${n}.zip`,
      (n) => `lftp -e "open sftp://${n}; ls; bye"`,
      (n) => `rabbitmqctl -n rabbit@${n} list_users`,
      // Found by an outside review: lists of variables, redirections, output on the next line.
      (n) => `subprocess.run(["net", "user", ${n}, password, "/add"])`,
      (n) => `cmd := []string{"net", "user", ${n}, pw, "/add"}`,
      (n) => `spawn('redis-cli',['-a',${n}])`,
      (n) => `net use Z: \\\\${n}\\share >nul 2>&1`,
      (n) => `rabbitmqctl -n rabbit@${n} add_user ${n} >> ${n}.log`,
      (n) => `mysql -u ${n} -p\nEnter password: ${n}`,
      (n) => `net user ${n} /add\nThe command completed successfully.`,
      (n) => `rabbitmqctl add_user ${n}\nAdding user "${n}" ...`,
      (n) => `The net user growth was strong, ${n} said.`,
      (n) => `Then run net use \\\\${n}\\share again and it should map.`,
      (n) => `df["net"] = df["user"] - df["${n}"]`,
      (n) => `gh auth login -p https -h ${n}.example.com`,
      (n) => `net user ${n} !PASS! /add`,
      (n) => `mongosh -help ${n}`,
      (n) => `the login -p option keeps ${n}`,
      (n) => `echo ${n} > mysql.log`,
      // A share path whose part opens with `t` or `n` reads as a JSON escape; it is still the path.
      (n) => `net use Z: \\\\fs01\\t${n}`,
      (n) => `net use \\\\fs01\\n${n} /persistent:yes`,
      (n) => `echo ${n} >> docker.log`,
    ];
    fc.assert(
      fc.property(
        fc.nat({ max: ordinary.length - 1 }),
        fc.nat({ max: positions.length - 1 }),
        word,
        fc.integer({ min: 1024, max: 65535 }),
        (form, position, name, port) => {
          const text = positions[position]!(ordinary[form]!(name, port));
          const findings = redactSecrets(text).findings.filter(
            (finding) => finding.kind === 'cli-password',
          );
          expect(findings, text).toEqual([]);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('stay linear on hostile command lines (50k vs 200k characters, CPU)', () => {
    const units = [
      'docker login -p ',
      'docker login ',
      'net user a ',
      'htpasswd -b ',
      'echo x | ',
      "mysql -p'",
      'sqlplus a/b@',
      'redis-cli -a "',
      'openssl -passin pass:',
      'smbclient -U a%',
      'net x ',
      'net use x ',
      'rabbitmqctl add_user x ',
      "spawn('redis-cli', [\n",
      'Command::new("mysql").arg("-p")',
      '\\"mysql -p\\"',
      'PASSWORD',
      ' PASSWORD_',
    ];
    for (const unit of units) {
      const cpu = (length: number) => redactionCpuMs(unit.repeat(Math.ceil(length / unit.length)));
      cpu(20_000);
      const small = Math.max(cpu(50_000), 3);
      const large = cpu(200_000);
      // Four times the text; a quadratic scan would take about sixteen times as long.
      expect(large / small, JSON.stringify(unit)).toBeLessThan(9);
    }
  });
});

describe('what stands next to a command-line password', () => {
  it('keeps redirections and the rest of the line', () => {
    fc.assert(
      fc.property(password, word, (secret, name) => {
        const result = redactSecrets(`mysql -u ${name} -p${secret}>>${name}.log <dump.sql`).text;
        expect(result).not.toContain(secret);
        expect(result).toContain(`>>${name}.log <dump.sql`);
      }),
      { numRuns: 200 },
    );
  });
});

describe('recovery phrases', () => {
  const phraseWord = fc
    .noBias(
      fc.array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), { minLength: 3, maxLength: 8 }),
    )
    .map((letters) => letters.join(''));
  it('of 12 to 24 words under a seed or mnemonic name are redacted (property)', () => {
    const named = [
      (phrase: string) => `mnemonic: ${phrase}`,
      (phrase: string) => `"mnemonic": "${phrase}"`,
      (phrase: string) => `WALLET_SEED="${phrase}"`,
      (phrase: string) => `seed phrase: ${phrase}`,
      (phrase: string) => `Your recovery phrase is: ${phrase}`,
      (phrase: string) => `backup_phrase = '${phrase}'`,
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(12, 15, 18, 21, 24),
        fc.nat({ max: named.length - 1 }),
        fc.array(phraseWord, { minLength: 24, maxLength: 24 }),
        (count, form, words) => {
          const phrase = words.slice(0, count).join(' ');
          const result = redactSecrets(named[form]!(phrase)).text;
          for (const single of words.slice(0, count)) {
            expect(result.includes(` ${single} `), result).toBe(false);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('leave seeds that are numbers and prose with short words alone', () => {
    fc.assert(
      fc.property(fc.integer(), phraseWord, phraseWord, (seed, first, second) => {
        for (const text of [
          `seed: ${seed}`,
          `random_seed = ${seed}`,
          `The seed is: ${first} and ${second} so we set it to a value in the test`,
        ]) {
          expect(redactSecrets(text).findings.filter((f) => f.kind === 'mnemonic')).toEqual([]);
        }
      }),
      { numRuns: 200 },
    );
  });
});
