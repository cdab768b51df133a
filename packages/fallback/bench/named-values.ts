// Values named in a sibling field (`- name: DB_PASSWORD` / `value: …` and nine other record
// syntaxes): how many of 200 random names and 16–40 character values per syntax stay in the clear,
// for this build and, with BATON_FALLBACK_BASELINE=<other dist/index.js>, another build. Fixed
// seed, so two runs give the same figure.
// Run after `pnpm build`: node bench/named-values.ts
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const seedRand = (s: number) => () => {
  s ^= s << 13;
  s >>>= 0;
  s ^= s >> 17;
  s ^= s << 5;
  s >>>= 0;
  return s / 4294967296;
};
const r = seedRand(20261129);
const pick = <T>(a: readonly T[] | string): T => a[Math.floor(r() * a.length)] as T;
const alpha = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const value = () => {
  let v: string;
  do {
    v = Array.from({ length: 16 + Math.floor(r() * 25) }, () => pick(alpha)).join('');
  } while (!(/[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v)));
  return v;
};
const name = () =>
  `${pick(['', 'DB_', 'API_', 'STRIPE_', 'APP_', 'REDIS_'])}${pick(['PASSWORD', 'TOKEN', 'SECRET', 'SECRET_KEY', 'API_KEY', 'ACCESS_TOKEN', 'CLIENT_SECRET'])}`;
const syntaxes: Record<string, (n: string, v: string) => string> = {
  'k8s env YAML': (n, v) =>
    `env:\n  - name: ${n}\n    value: ${v}\n  - name: LOG_LEVEL\n    value: debug\n`,
  'k8s env YAML quoted': (n, v) => `- name: "${n}"\n  value: "${v}"`,
  'ECS JSON': (n, v) => `"environment": [{"name": "${n}", "value": "${v}"}]`,
  'Azure appsettings JSON': (n, v) => `[{"name": "${n}", "slotSetting": false, "value": "${v}"}]`,
  Postman: (n, v) => `{"key": "${n.toLowerCase()}", "value": "${v}", "type": "default"}`,
  'CloudFormation CLI': (n, v) => `ParameterKey=${n},ParameterValue=${v}`,
  'CloudFormation JSON': (n, v) => `{"ParameterKey": "${n}", "ParameterValue": "${v}"}`,
  'SSM flags': (n, v) => `aws ssm put-parameter --name /prod/${n.toLowerCase()} --value ${v}`,
  XML: (n, v) => `<env name="${n}" value="${v}"/>`,
  'value first': (n, v) => `{"Value": "${v}", "Name": "${n}"}`,
};
const samples = new Map<string, Array<[string, string]>>(
  Object.keys(syntaxes).map((k) => [
    k,
    Array.from({ length: 200 }, (): [string, string] => [name(), value()]),
  ]),
);
const builds: Array<[string, string]> = [
  ['this build', new URL('../dist/index.js', import.meta.url).href],
];
const baseline = process.env.BATON_FALLBACK_BASELINE;
if (baseline) builds.unshift(['baseline', pathToFileURL(resolve(baseline)).href]);
for (const [label, entry] of builds) {
  const { redactSecrets } = (await import(entry)) as typeof import('../dist/index.js');
  let total = 0,
    leaked = 0;
  const per: string[] = [];
  for (const [k, f] of Object.entries(syntaxes)) {
    let l = 0;
    for (const [n, v] of samples.get(k) ?? []) {
      if (redactSecrets(f(n, v)).text.includes(v)) l++;
    }
    per.push(`${k} ${l}`);
    total += 200;
    leaked += l;
  }
  console.log(
    label,
    `${leaked}/${total} leaked (${((100 * leaked) / total).toFixed(1)} %)`,
    per.join(', '),
  );
}
