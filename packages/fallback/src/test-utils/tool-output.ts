import { createHash } from 'node:crypto';
import type { Random } from '../credential-families.js';

/**
 * Test and benchmark data: ordinary, non-secret output of the tools an agent runs (cloud CLIs,
 * kubectl, docker, git, package managers, APIs, build tools), drawn at run time from a seeded
 * random. Every identifier, digest and ciphertext in it is public or opaque: the agent needs it
 * verbatim, so a redactor should leave the whole text as it is.
 */

const alphabets = {
  alnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  base64url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
  digits: '0123456789',
  hex: '0123456789abcdef',
  lowerAlnum: 'abcdefghijklmnopqrstuvwxyz0123456789',
  upperAlnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  upperHex: '0123456789ABCDEF',
};
/** `length` characters of `alphabet`, each drawn uniformly. */
const pick = (random: Random, alphabet: string, length: number) =>
  Array.from({ length }, () => alphabet[Math.floor(random.next() * alphabet.length)]).join('');
const bytes = (random: Random, length: number) =>
  Buffer.from(Array.from({ length }, () => Math.floor(random.next() * 256)));
const hex = (random: Random, length: number) => pick(random, alphabets.hex, length);
const digest = (random: Random, algorithm: string) =>
  createHash(algorithm).update(bytes(random, 32));
const base64Of = (random: Random, length: number) => bytes(random, length).toString('base64');
const base64UrlOf = (random: Random, length: number) => bytes(random, length).toString('base64url');
const of = <T>(random: Random, items: readonly T[]) =>
  items[Math.floor(random.next() * items.length)]!;
const int = (random: Random, min: number, max: number) =>
  min + Math.floor(random.next() * (max - min + 1));
const words = [
  'api',
  'web',
  'billing',
  'orders',
  'worker',
  'gateway',
  'search',
  'auth',
  'ledger',
  'notify',
  'reports',
  'ingest',
  'cart',
  'media',
];
const name = (random: Random) => `${of(random, words)}-${of(random, words)}`;
const account = (random: Random) => pick(random, alphabets.digits, 12);
const region = (random: Random) =>
  of(random, ['us-east-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-2']);
const uuid4 = (random: Random) => {
  const h = hex(random, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${of(random, ['8', '9', 'a', 'b'])}${h.slice(17, 20)}-${h.slice(20)}`;
};
const uuid7 = (random: Random) => {
  const time = (1_700_000_000_000 + int(random, 0, 90_000_000_000)).toString(16).padStart(12, '0');
  const h = hex(random, 20);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${h.slice(0, 3)}-${of(random, ['8', '9', 'a', 'b'])}${h.slice(3, 6)}-${h.slice(8, 20)}`;
};
const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ulid = (random: Random) => {
  let time = 1_700_000_000_000 + int(random, 0, 90_000_000_000);
  let head = '';
  for (let index = 0; index < 10; index++) {
    head = crockford[time % 32] + head;
    time = Math.floor(time / 32);
  }
  return head + pick(random, crockford, 16);
};
const ksuid = (random: Random) => `2${pick(random, alphabets.alnum, 26)}`;
const nanoid = (random: Random) => pick(random, alphabets.base64url, 21);
const iso = (random: Random) =>
  new Date(1_700_000_000_000 + int(random, 0, 90_000_000) * 1000).toISOString();
const awsRequestId = uuid4;
const sha1 = (random: Random) => digest(random, 'sha1').digest('hex');
const sha256Hex = (random: Random) => digest(random, 'sha256').digest('hex');
const sha512b64 = (random: Random) => digest(random, 'sha512').digest('base64');
const base58Alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const base58 = (data: Buffer) => {
  let value = BigInt(`0x${data.toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = base58Alphabet[Number(value % 58n)] + out;
    value /= 58n;
  }
  return out;
};
const wrap = (text: string, width: number) => text.match(new RegExp(`.{1,${width}}`, 'g'))!;
const armor = (label: string, body: string, headers = '') =>
  `-----BEGIN ${label}-----\n${headers}\n${wrap(body, 64).join('\n')}\n-----END ${label}-----`;
const pkg = (random: Random) =>
  of(random, [
    'lodash',
    'react',
    'express',
    'zod',
    'typescript',
    'vite',
    'chalk',
    'debug',
    'ms',
    'semver',
    'undici',
    'ws',
  ]);
const version = (random: Random) =>
  `${int(random, 0, 9)}.${int(random, 0, 30)}.${int(random, 0, 20)}`;

export interface ToolOutputClass {
  name: string;
  make: (random: Random) => string;
}

export const toolOutputClasses: ToolOutputClass[] = [
  {
    name: 'aws sts get-caller-identity',
    make: (r) => {
      const id = account(r);
      return JSON.stringify(
        {
          UserId: `${of(r, ['AIDA', 'AROA'])}${pick(r, alphabets.upperAlnum, 17)}${of(r, ['', `:${name(r)}`])}`,
          Account: id,
          Arn: `arn:aws:iam::${id}:user/${name(r)}`,
        },
        null,
        4,
      );
    },
  },
  {
    name: 'aws s3api head-object / put-object',
    make: (r) =>
      JSON.stringify(
        {
          AcceptRanges: 'bytes',
          LastModified: iso(r),
          ContentLength: int(r, 10, 9_000_000),
          ETag: `"${hex(r, 32)}"`,
          VersionId: pick(r, `${alphabets.alnum}._`, 32),
          ContentType: 'application/octet-stream',
          ServerSideEncryption: 'aws:kms',
          SSEKMSKeyId: `arn:aws:kms:${region(r)}:${account(r)}:key/${uuid4(r)}`,
          Metadata: {},
        },
        null,
        4,
      ),
  },
  {
    name: 'aws s3 --debug response headers',
    make: (r) =>
      [
        `x-amz-id-2: ${base64Of(r, 57)}`,
        `x-amz-request-id: ${pick(r, alphabets.upperAlnum, 16)}`,
        `Date: ${new Date(1_700_000_000_000 + int(r, 0, 9e10)).toUTCString()}`,
        `ETag: "${hex(r, 32)}"`,
        `x-amz-version-id: ${pick(r, `${alphabets.alnum}._`, 32)}`,
        `x-amz-server-side-encryption: AES256`,
      ].join('\n'),
  },
  {
    name: 'aws kms describe-key',
    make: (r) => {
      const id = uuid4(r);
      const acct = account(r);
      return JSON.stringify(
        {
          KeyMetadata: {
            AWSAccountId: acct,
            KeyId: of(r, [id, `mrk-${hex(r, 32)}`]),
            Arn: `arn:aws:kms:${region(r)}:${acct}:key/${id}`,
            CreationDate: iso(r),
            Enabled: true,
            KeyUsage: 'ENCRYPT_DECRYPT',
            KeyState: 'Enabled',
          },
        },
        null,
        4,
      );
    },
  },
  {
    name: 'aws ec2 describe-instances',
    make: (r) =>
      JSON.stringify(
        {
          Reservations: [
            {
              ReservationId: `r-0${hex(r, 16)}`,
              OwnerId: account(r),
              Instances: [
                {
                  InstanceId: `i-0${hex(r, 16)}`,
                  ImageId: `ami-0${hex(r, 16)}`,
                  SubnetId: `subnet-0${hex(r, 16)}`,
                  VpcId: `vpc-0${hex(r, 16)}`,
                  SecurityGroups: [{ GroupId: `sg-0${hex(r, 16)}`, GroupName: name(r) }],
                  NetworkInterfaces: [{ NetworkInterfaceId: `eni-0${hex(r, 16)}` }],
                  ClientToken: of(r, [uuid4(r), `terraform-${pick(r, alphabets.digits, 26)}`]),
                  IamInstanceProfile: {
                    Arn: `arn:aws:iam::${account(r)}:instance-profile/${name(r)}`,
                    Id: `AIPA${pick(r, alphabets.upperAlnum, 17)}`,
                  },
                },
              ],
            },
          ],
        },
        null,
        4,
      ),
  },
  {
    name: 'aws lambda get-function',
    make: (r) =>
      JSON.stringify(
        {
          Configuration: {
            FunctionName: name(r),
            FunctionArn: `arn:aws:lambda:${region(r)}:${account(r)}:function:${name(r)}`,
            Runtime: 'nodejs20.x',
            CodeSha256: digest(r, 'sha256').digest('base64'),
            RevisionId: uuid4(r),
            Version: '$LATEST',
          },
          ResponseMetadata: { RequestId: awsRequestId(r), HTTPStatusCode: 200 },
        },
        null,
        4,
      ),
  },
  {
    name: 'aws cloudformation describe-stacks',
    make: (r) =>
      JSON.stringify(
        {
          Stacks: [
            {
              StackId: `arn:aws:cloudformation:${region(r)}:${account(r)}:stack/${name(r)}/${uuid4(r)}`,
              StackName: name(r),
              ChangeSetId: `arn:aws:cloudformation:${region(r)}:${account(r)}:changeSet/cs-${name(r)}/${uuid4(r)}`,
              StackStatus: 'UPDATE_COMPLETE',
              DriftInformation: { StackDriftStatus: 'NOT_CHECKED' },
            },
          ],
        },
        null,
        4,
      ),
  },
  {
    name: 'kubectl get pod -o yaml',
    make: (r) => {
      const hash = pick(r, 'bcdfghjklmnpqrstvwxz2456789', 10);
      return [
        'apiVersion: v1',
        'kind: Pod',
        'metadata:',
        `  creationTimestamp: "${iso(r)}"`,
        `  name: ${name(r)}-${hash}-${pick(r, 'bcdfghjklmnpqrstvwxz2456789', 5)}`,
        '  labels:',
        `    pod-template-hash: ${hash}`,
        `  resourceVersion: "${int(r, 1000, 99_999_999)}"`,
        `  uid: ${uuid4(r)}`,
        '  annotations:',
        `    kubectl.kubernetes.io/restartedAt: "${iso(r)}"`,
        `    checksum/config: ${sha256Hex(r)}`,
        'status:',
        '  containerStatuses:',
        `  - containerID: containerd://${sha256Hex(r)}`,
        `    image: ghcr.io/acme/${name(r)}:v${version(r)}`,
        `    imageID: ghcr.io/acme/${name(r)}@sha256:${sha256Hex(r)}`,
        `  podIP: 10.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
      ].join('\n');
    },
  },
  {
    name: 'kubectl describe pod',
    make: (r) =>
      [
        `Name:         ${name(r)}-${pick(r, 'bcdfghjklmnpqrstvwxz2456789', 10)}-${pick(r, 'bcdfghjklmnpqrstvwxz2456789', 5)}`,
        'Namespace:    default',
        `Start Time:   ${new Date(1_700_000_000_000 + int(r, 0, 9e10)).toUTCString()}`,
        'Containers:',
        `  app:`,
        `    Container ID:   containerd://${sha256Hex(r)}`,
        `    Image:          registry.example.com/${name(r)}:${hex(r, 7)}`,
        `    Image ID:       registry.example.com/${name(r)}@sha256:${sha256Hex(r)}`,
        '    Environment:',
        `      CONFIG_HASH:  ${hex(r, 40)}`,
        `      POD_UID:       (v1:metadata.uid)`,
        'Volumes:',
        `  kube-api-access-${pick(r, 'bcdfghjklmnpqrstvwxz2456789', 5)}:`,
        '    Type:                    Projected',
      ].join('\n'),
  },
  {
    name: 'docker ps / images',
    make: (r) =>
      [
        'CONTAINER ID   IMAGE                       COMMAND                  STATUS         NAMES',
        `${hex(r, 12)}   ${name(r)}:latest           "docker-entrypoint.s…"   Up 2 hours     ${name(r)}_1`,
        `${hex(r, 12)}   postgres:16                 "docker-entrypoint.s…"   Up 2 hours     db_1`,
        '',
        'REPOSITORY          TAG       IMAGE ID       CREATED        SIZE',
        `${name(r)}   latest    ${hex(r, 12)}   3 days ago     ${int(r, 50, 900)}MB`,
        `<none>              <none>    ${hex(r, 12)}   5 weeks ago    ${int(r, 50, 900)}MB`,
      ].join('\n'),
  },
  {
    name: 'docker inspect',
    make: (r) =>
      JSON.stringify(
        [
          {
            Id: sha256Hex(r),
            Created: iso(r),
            Image: `sha256:${sha256Hex(r)}`,
            ResolvConfPath: `/var/lib/docker/containers/${sha256Hex(r)}/resolv.conf`,
            GraphDriver: {
              Data: {
                LowerDir: `/var/lib/docker/overlay2/${hex(r, 64)}-init/diff:/var/lib/docker/overlay2/${hex(r, 64)}/diff`,
                MergedDir: `/var/lib/docker/overlay2/${hex(r, 64)}/merged`,
              },
              Name: 'overlay2',
            },
            NetworkSettings: {
              SandboxID: sha256Hex(r),
              EndpointID: sha256Hex(r),
              MacAddress: '02:42:ac:11:00:02',
            },
          },
        ],
        null,
        4,
      ),
  },
  {
    name: 'docker pull / build',
    make: (r) =>
      [
        `latest: Pulling from library/${pkg(r)}`,
        `${hex(r, 12)}: Pull complete`,
        `${hex(r, 12)}: Pull complete`,
        `Digest: sha256:${sha256Hex(r)}`,
        `Status: Downloaded newer image for ${pkg(r)}:latest`,
        ` => [internal] load metadata for docker.io/library/node:20`,
        ` => CACHED [2/6] WORKDIR /app  0.0s`,
        ` => exporting layers  0.4s`,
        ` => writing image sha256:${sha256Hex(r)}  0.0s`,
      ].join('\n'),
  },
  {
    name: 'git log --format=fuller / show',
    make: (r) =>
      [
        `commit ${sha1(r)}`,
        `Merge: ${hex(r, 7)} ${hex(r, 7)}`,
        'Author:     Dana Lee <dana@example.com>',
        `AuthorDate: ${new Date(1_700_000_000_000 + int(r, 0, 9e10)).toUTCString()}`,
        '',
        `    Fix retry loop in ${name(r)}`,
        '',
        `    Change-Id: I${sha1(r)}`,
        `    Reviewed-on: https://gerrit.example.com/c/${name(r)}/+/${int(r, 1000, 99999)}`,
        '',
        `diff --git a/src/${name(r)}.ts b/src/${name(r)}.ts`,
        `index ${hex(r, 7)}..${hex(r, 7)} 100644`,
      ].join('\n'),
  },
  {
    name: 'git reflog / rev-parse / ls-remote',
    make: (r) =>
      [
        `${hex(r, 7)} HEAD@{0}: commit: update ${name(r)}`,
        `${hex(r, 7)} HEAD@{1}: rebase (finish): returning to refs/heads/main`,
        sha1(r),
        `${sha1(r)}\trefs/heads/main`,
        `${sha1(r)}\trefs/tags/v${version(r)}^{}`,
      ].join('\n'),
  },
  {
    name: 'git cat-file commit with gpgsig',
    make: (r) =>
      [
        `tree ${sha1(r)}`,
        `parent ${sha1(r)}`,
        `author Dana Lee <dana@example.com> ${int(r, 1.6e9, 1.8e9)} +0000`,
        `gpgsig ${armor('PGP SIGNATURE', base64Of(r, 400), '').replace(/\n/g, '\n ')}`,
        '',
        `Release ${version(r)}`,
      ].join('\n'),
  },
  {
    name: 'package-lock.json',
    make: (r) => {
      const p = pkg(r);
      const v = version(r);
      return `    "node_modules/${p}": {\n      "version": "${v}",\n      "resolved": "https://registry.npmjs.org/${p}/-/${p}-${v}.tgz",\n      "integrity": "sha512-${sha512b64(r)}",\n      "license": "MIT"\n    },`;
    },
  },
  {
    name: 'pnpm-lock.yaml / yarn.lock',
    make: (r) => {
      const p = pkg(r);
      const v = version(r);
      return of(r, [
        `  ${p}@${v}:\n    resolution: {integrity: sha512-${sha512b64(r)}}\n    engines: {node: '>=18'}`,
        `${p}@^${v}:\n  version "${v}"\n  resolved "https://registry.yarnpkg.com/${p}/-/${p}-${v}.tgz#${sha1(r)}"\n  integrity sha512-${sha512b64(r)}`,
        `"${p}@npm:^${v}":\n  version: ${v}\n  resolution: "${p}@npm:${v}"\n  checksum: 10c0/${digest(r, 'sha512').digest('hex')}\n  languageName: node`,
      ]);
    },
  },
  {
    name: 'pip requirements --hash / poetry.lock',
    make: (r) =>
      of(r, [
        `${pkg(r)}==${version(r)} \\\n    --hash=sha256:${sha256Hex(r)} \\\n    --hash=sha256:${sha256Hex(r)}`,
        `[[package]]\nname = "${pkg(r)}"\nversion = "${version(r)}"\nfiles = [\n    {file = "${pkg(r)}-${version(r)}-py3-none-any.whl", hash = "sha256:${sha256Hex(r)}"},\n]`,
        `[metadata]\nlock-version = "2.0"\npython-versions = "^3.11"\ncontent-hash = "${sha256Hex(r)}"`,
      ]),
  },
  {
    name: 'go.sum / Cargo.lock',
    make: (r) =>
      of(r, [
        `github.com/${pkg(r)}/${pkg(r)} v${version(r)} h1:${digest(r, 'sha256').digest('base64')}\ngithub.com/${pkg(r)}/${pkg(r)} v${version(r)}/go.mod h1:${digest(r, 'sha256').digest('base64')}`,
        `[[package]]\nname = "${pkg(r)}"\nversion = "${version(r)}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "${sha256Hex(r)}"`,
      ]),
  },
  {
    name: 'terraform plan / state',
    make: (r) =>
      of(r, [
        `  # aws_s3_bucket.${name(r).replace('-', '_')} will be updated in-place\n  ~ resource "aws_s3_bucket" "logs" {\n        id                          = "${name(r)}-${hex(r, 8)}"\n        arn                         = "arn:aws:s3:::${name(r)}"\n      ~ etag                        = "${hex(r, 32)}" -> (known after apply)\n        hosted_zone_id              = "Z${pick(r, alphabets.upperAlnum, 13)}"\n    }`,
        JSON.stringify(
          {
            version: 4,
            terraform_version: '1.7.5',
            serial: int(r, 1, 900),
            lineage: uuid4(r),
            resources: [
              {
                type: 'aws_iam_role',
                instances: [
                  {
                    attributes: {
                      arn: `arn:aws:iam::${account(r)}:role/${name(r)}`,
                      id: name(r),
                      unique_id: `AROA${pick(r, alphabets.upperAlnum, 17)}`,
                    },
                  },
                ],
              },
            ],
          },
          null,
          2,
        ),
      ]),
  },
  {
    name: 'GitHub API JSON',
    make: (r) =>
      JSON.stringify(
        {
          id: int(r, 1e6, 9e8),
          node_id: of(r, [
            `PR_kwDO${pick(r, alphabets.base64url, 18)}`,
            `MDQ6VXNlcj${base64Of(r, 5).replace(/=+$/, '')}`,
            `R_kgDO${pick(r, alphabets.base64url, 8)}`,
            `I_kwDO${pick(r, alphabets.base64url, 16)}`,
          ]),
          sha: sha1(r),
          merge_commit_sha: sha1(r),
          head: { sha: sha1(r), ref: `feature/${name(r)}` },
          gravatar_id: '',
          url: `https://api.github.com/repos/acme/${name(r)}/pulls/${int(r, 1, 5000)}`,
        },
        null,
        2,
      ) +
      `\netag: W/"${sha256Hex(r)}"\nx-github-request-id: ${pick(r, alphabets.upperHex, 4)}:${pick(r, alphabets.upperHex, 5)}:${pick(r, alphabets.upperHex, 7)}:${pick(r, alphabets.upperHex, 7)}:${pick(r, alphabets.upperHex, 8)}`,
  },
  {
    name: 'GitLab API JSON',
    make: (r) => {
      const sha = sha1(r);
      return JSON.stringify(
        {
          id: sha,
          short_id: sha.slice(0, 8),
          parent_ids: [sha1(r)],
          web_url: `https://gitlab.com/acme/${name(r)}/-/commit/${sha}`,
          pipeline: { id: int(r, 1e6, 9e8), sha: sha1(r), ref: 'main' },
          x_request_id: pick(r, alphabets.upperAlnum, 26),
        },
        null,
        2,
      );
    },
  },
  {
    name: 'Stripe object ids',
    make: (r) =>
      JSON.stringify(
        {
          id: `evt_${pick(r, alphabets.alnum, 24)}`,
          object: 'event',
          request: { id: `req_${pick(r, alphabets.alnum, 14)}`, idempotency_key: uuid4(r) },
          data: {
            object: {
              id: `pi_${pick(r, alphabets.alnum, 24)}`,
              customer: `cus_${pick(r, alphabets.alnum, 14)}`,
              latest_charge: `ch_${pick(r, alphabets.alnum, 24)}`,
              payment_method: `pm_${pick(r, alphabets.alnum, 24)}`,
              invoice: `in_${pick(r, alphabets.alnum, 24)}`,
              subscription: `sub_${pick(r, alphabets.alnum, 24)}`,
              price: `price_${pick(r, alphabets.alnum, 24)}`,
              balance_transaction: `txn_${pick(r, alphabets.alnum, 24)}`,
            },
          },
        },
        null,
        2,
      ),
  },
  {
    name: 'Sentry / Datadog event ids',
    make: (r) =>
      of(r, [
        `Sentry event sent: ${hex(r, 32)}\nhttps://acme.sentry.io/issues/${int(r, 1e9, 5e9)}/events/${hex(r, 32)}/`,
        JSON.stringify({
          event_id: hex(r, 32),
          release: sha1(r),
          contexts: { trace: { trace_id: hex(r, 32), span_id: hex(r, 16) } },
        }),
        `dd.trace_id=${pick(r, alphabets.digits, 19)} dd.span_id=${pick(r, alphabets.digits, 19)} dd.service=${name(r)} level=info msg="request done"`,
      ]),
  },
  {
    name: 'OpenTelemetry trace/span ids',
    make: (r) =>
      of(r, [
        `traceparent: 00-${hex(r, 32)}-${hex(r, 16)}-01`,
        JSON.stringify({
          traceId: hex(r, 32),
          spanId: hex(r, 16),
          parentSpanId: hex(r, 16),
          name: `GET /api/${of(r, words)}`,
        }),
        `{"level":"info","trace_id":"${hex(r, 32)}","span_id":"${hex(r, 16)}","msg":"handled"}`,
      ]),
  },
  {
    name: 'UUIDv4 / v7 in logs',
    make: (r) =>
      `${iso(r)} INFO [${of(r, words)}] job ${uuid4(r)} finished; correlation_id=${uuid7(r)} request_id=${uuid4(r)}`,
  },
  {
    name: 'ULID / KSUID ids',
    make: (r) =>
      of(r, [
        `created order ${ulid(r)} (batch ${ulid(r)})`,
        JSON.stringify({ id: ulid(r), parent_id: ulid(r), kind: 'order' }),
        `segment message_id=${ksuid(r)} anonymous_id=${ksuid(r)}`,
        JSON.stringify({ id: ksuid(r), created: iso(r) }),
      ]),
  },
  {
    name: 'nanoid ids in URLs',
    make: (r) =>
      of(r, [
        `Preview: https://app.example.com/share/${nanoid(r)}`,
        `GET /api/v1/documents/${nanoid(r)}/revisions/${nanoid(r)} 200 12ms`,
        `https://excalidraw.com/#room=${pick(r, alphabets.hex, 20)},${pick(r, alphabets.base64url, 22)}`,
      ]),
  },
  {
    name: 'base64 test fixtures / data URIs',
    make: (r) => {
      const png = Buffer.concat([
        Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
        bytes(r, int(r, 40, 120)),
      ]).toString('base64');
      const json = Buffer.from(
        JSON.stringify({ id: int(r, 1, 9999), name: name(r), tags: [of(r, words)] }),
      ).toString('base64');
      return of(r, [
        `<img src="data:image/png;base64,${png}">`,
        `const fixture = "${png}";`,
        `expect(decode("${json}")).toEqual(expected);`,
        `  "payload": "${json}",`,
      ]);
    },
  },
  {
    name: 'minified JS',
    make: (r) => {
      const v = () => of(r, ['e', 't', 'n', 'r', 'o', 'i', 'a', 's', 'u', 'l', 'c']);
      return `!function(){"use strict";var ${v()}={${int(r, 100, 999)}:function(${v()},${v()},${v()}){${v()}.d(${v()},{Z:function(){return ${v()}}});var ${v()}=${v()}(${int(r, 1000, 9999)}),${v()}="${hex(r, 8)}";function ${v()}(${v()}){return ${v()}.replace(/[A-Z]/g,"-$&").toLowerCase()}}};self.webpackChunk_N_E=self.webpackChunk_N_E||[]}();\n//# sourceMappingURL=main.${hex(r, 20)}.js.map`;
    },
  },
  {
    name: 'minified CSS',
    make: (r) =>
      `.btn_${pick(r, alphabets.alnum, 5)}{display:flex;color:#${hex(r, 6)}}.card__${pick(r, alphabets.base64url, 8)}{margin:0 auto;background:url(/_next/static/media/bg.${hex(r, 8)}.png)}@font-face{font-family:__Inter_${hex(r, 6)};src:url(data:font/woff2;base64,${base64Of(r, 60)}) format("woff2")}`,
  },
  {
    name: 'source maps',
    make: (r) => {
      const seg = () =>
        Array.from({ length: int(r, 1, 5) }, () =>
          pick(r, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', int(r, 4, 6)),
        ).join(',');
      return `{"version":3,"file":"main.${hex(r, 8)}.js","sources":["webpack://app/./src/index.ts"],"names":["render","root"],"mappings":"${Array.from({ length: int(r, 3, 8) }, seg).join(';')}","sourceRoot":""}`;
    },
  },
  {
    name: 'webpack / vite build output',
    make: (r) =>
      [
        `dist/assets/index-${pick(r, alphabets.base64url, 8)}.js   ${int(r, 10, 900)}.${int(r, 10, 99)} kB │ gzip: ${int(r, 5, 200)}.${int(r, 10, 99)} kB`,
        `dist/assets/index-${pick(r, alphabets.base64url, 8)}.css  ${int(r, 1, 90)}.${int(r, 10, 99)} kB`,
        `asset main.${hex(r, 20)}.js ${int(r, 10, 900)} KiB [emitted] [immutable] (name: main)`,
        `chunk (runtime: main) ${int(r, 100, 999)}.${hex(r, 8)}.chunk.js ${int(r, 1, 90)} KiB [rendered]`,
        `webpack 5.${int(r, 50, 99)}.0 compiled successfully in ${int(r, 500, 9000)} ms`,
      ].join('\n'),
  },
  {
    name: 'CSP nonces and hashes',
    make: (r) =>
      of(r, [
        `content-security-policy: default-src 'self'; script-src 'self' 'nonce-${base64Of(r, 16)}' 'sha256-${digest(r, 'sha256').digest('base64')}'; style-src 'self' 'sha256-${digest(r, 'sha256').digest('base64')}'`,
        `<script nonce="${base64Of(r, 16)}">window.__DATA__={}</script>`,
      ]),
  },
  {
    name: 'SRI integrity attributes',
    make: (r) =>
      `<script src="https://cdn.jsdelivr.net/npm/${pkg(r)}@${version(r)}/dist/index.min.js" integrity="sha384-${digest(r, 'sha384').digest('base64')}" crossorigin="anonymous"></script>`,
  },
  {
    name: 'JWT header alone',
    make: (r) => {
      const header = Buffer.from(
        JSON.stringify({
          alg: of(r, ['RS256', 'HS256', 'ES256', 'EdDSA']),
          typ: 'JWT',
          ...(r.next() < 0.5 ? { kid: hex(r, 16) } : {}),
        }),
      ).toString('base64url');
      return of(r, [
        `decoded header of ${header}: alg is wrong`,
        `JOSE header: ${header}`,
        `"protected": "${header}",`,
      ]);
    },
  },
  {
    name: 'OAuth authorize URL (state, code_challenge)',
    make: (r) =>
      `Open https://accounts.example.com/o/oauth2/v2/auth?response_type=code&client_id=${pick(r, alphabets.digits, 12)}-${pick(r, alphabets.lowerAlnum, 32)}.apps.googleusercontent.com&redirect_uri=http%3A%2F%2Flocalhost%3A8080%2Fcallback&scope=openid%20email&state=${base64UrlOf(r, 24)}&code_challenge=${digest(r, 'sha256').digest('base64url')}&code_challenge_method=S256&nonce=${hex(r, 32)}`,
  },
  {
    name: 'CI cache keys',
    make: (r) =>
      of(r, [
        `Cache restored from key: node-cache-Linux-x64-pnpm-${sha256Hex(r)}`,
        `Cache saved with key: setup-go-Linux-ubuntu22-go-1.22.1-${sha256Hex(r)}`,
        `${name(r)}:build: cache hit, replaying logs ${hex(r, 16)}`,
        `restore_cache: key=v1-deps-{{ checksum "package-lock.json" }} -> v1-deps-${base64Of(r, 24).replace(/[+/=]/g, '')}`,
      ]),
  },
  {
    name: 'IPFS CIDs',
    make: (r) =>
      of(r, [
        `added ${`bafybei${pick(r, 'abcdefghijklmnopqrstuvwxyz234567', 52)}`} ${name(r)}.json`,
        `https://ipfs.io/ipfs/${base58(Buffer.concat([Buffer.from([0x12, 0x20]), bytes(r, 32)]))}`,
        `ipfs://bafkrei${pick(r, 'abcdefghijklmnopqrstuvwxyz234567', 53)}`,
      ]),
  },
  {
    name: 'Nix store paths',
    make: (r) =>
      `/nix/store/${pick(r, '0123456789abcdfghijklmnpqrsvwxyz', 32)}-${pkg(r)}-${version(r)}\nthese 2 derivations will be built:\n  /nix/store/${pick(r, '0123456789abcdfghijklmnpqrsvwxyz', 32)}-${name(r)}.drv\n  got:    sha256-${digest(r, 'sha256').digest('base64')}`,
  },
  {
    name: 'Git LFS pointers',
    make: (r) =>
      `version https://git-lfs.github.com/spec/v1\noid sha256:${sha256Hex(r)}\nsize ${int(r, 1000, 9e8)}`,
  },
  {
    name: 'Java / JS stack traces',
    make: (r) =>
      of(r, [
        `Exception in thread "main" java.lang.IllegalStateException: bad state\n\tat com.acme.${of(r, words)}.Service$$EnhancerBySpringCGLIB$$${hex(r, 8)}.run(<generated>)\n\tat com.acme.Main.lambda$main$0(Main.java:${int(r, 10, 400)})\n\tat java.base/jdk.internal.reflect.GeneratedMethodAccessor${int(r, 1, 400)}.invoke(Unknown Source)`,
        `TypeError: Cannot read properties of undefined (reading 'map')\n    at List (webpack-internal:///./src/List.tsx:${int(r, 10, 200)}:${int(r, 3, 40)})\n    at https://app.example.com/_next/static/chunks/pages/_app-${hex(r, 16)}.js:1:${int(r, 1000, 99999)}\n    at l (https://app.example.com/assets/index-${pick(r, alphabets.base64url, 8)}.js:40:${int(r, 100, 9999)})`,
      ]),
  },
  {
    name: 'hex dumps',
    make: (r) =>
      Array.from({ length: 4 }, (_, line) => {
        const row = bytes(r, 16);
        const pairs = row.toString('hex').match(/..../g)!.join(' ');
        const ascii = [...row]
          .map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.'))
          .join('');
        return `${(line * 16).toString(16).padStart(8, '0')}: ${pairs}  ${ascii}`;
      }).join('\n'),
  },
  {
    name: 'ansible-vault ciphertext',
    make: (r) =>
      `db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n${wrap(
        Buffer.from(`${hex(r, 64)}\n${hex(r, 64)}\n${hex(r, 96)}`).toString('hex'),
        80,
      )
        .map((line) => `  ${line}`)
        .join('\n')}`,
  },
  {
    name: 'PGP / age encrypted messages',
    make: (r) =>
      of(r, [
        armor('PGP MESSAGE', base64Of(r, int(r, 150, 400))),
        armor('AGE ENCRYPTED FILE', base64Of(r, int(r, 150, 400))),
      ]),
  },
  {
    name: 'sealed-secrets / SOPS ciphertext',
    make: (r) =>
      of(r, [
        `apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nspec:\n  encryptedData:\n    password: ${Buffer.concat([Buffer.from([0x02, 0x00]), bytes(r, 512 + 16 + int(r, 6, 40))]).toString('base64')}\n  template:\n    metadata:\n      name: ${name(r)}`,
        `password: ENC[AES256_GCM,data:${base64Of(r, int(r, 8, 40))},iv:${base64Of(r, 32)},tag:${base64Of(r, 16)},type:str]\nsops:\n    lastmodified: "${iso(r)}"\n    mac: ENC[AES256_GCM,data:${base64Of(r, 64)},iv:${base64Of(r, 32)},tag:${base64Of(r, 16)},type:str]`,
      ]),
  },
  {
    name: 'SSH public keys / fingerprints',
    make: (r) => {
      const blob = Buffer.concat([
        Buffer.from('0000000b7373682d65643235353139', 'hex'),
        Buffer.from('00000020', 'hex'),
        bytes(r, 32),
      ]).toString('base64');
      return of(r, [
        `ssh-ed25519 ${blob} dana@laptop`,
        `256 SHA256:${digest(r, 'sha256').digest('base64').replace(/=$/, '')} dana@laptop (ED25519)`,
        `The authenticity of host 'github.com' can't be established.\nED25519 key fingerprint is SHA256:${digest(r, 'sha256').digest('base64').replace(/=$/, '')}.`,
        `github.com ssh-ed25519 ${blob}`,
      ]);
    },
  },
  {
    name: 'Azure CLI JSON',
    make: (r) => {
      const subscription = uuid4(r);
      return JSON.stringify(
        {
          id: `/subscriptions/${subscription}/resourceGroups/${name(r)}/providers/Microsoft.Web/sites/${name(r)}`,
          identity: { principalId: uuid4(r), tenantId: uuid4(r), type: 'SystemAssigned' },
          etag: `"${hex(r, 8)}-0000-0100-0000-${hex(r, 12)}"`,
          properties: {
            provisioningState: 'Succeeded',
            customDomainVerificationId: pick(r, alphabets.upperHex, 64),
          },
        },
        null,
        2,
      );
    },
  },
  {
    name: 'gcloud output',
    make: (r) =>
      of(r, [
        `createTime: '${iso(r)}'\netag: ${pick(r, alphabets.alnum, 11)}=\nname: projects/${name(r)}\nprojectNumber: '${pick(r, alphabets.digits, 12)}'`,
        `Operation "operations/operation-${int(r, 1.6e12, 1.8e12)}-${hex(r, 13)}-${hex(r, 8)}-${hex(r, 8)}" finished successfully.`,
        `Created revision [${name(r)}-000${int(r, 10, 99)}-${pick(r, 'abcdefghijklmnopqrstuvwxyz', 3)}].\nService URL: https://${name(r)}-${pick(r, alphabets.lowerAlnum, 10)}-uc.a.run.app`,
      ]),
  },
  {
    name: 'HTTP trace and request id headers',
    make: (r) =>
      [
        `x-amzn-trace-id: Root=1-${hex(r, 8)}-${hex(r, 24)};Parent=${hex(r, 16)};Sampled=1`,
        `x-amzn-requestid: ${uuid4(r)}`,
        `cf-ray: ${hex(r, 16)}-${of(r, ['SJC', 'FRA', 'LHR', 'IAD'])}`,
        `x-request-id: ${pick(r, alphabets.alnum, 20)}`,
        `x-vercel-id: ${of(r, ['iad1', 'sfo1'])}::${of(r, ['iad1', 'sfo1'])}::${pick(r, alphabets.lowerAlnum, 5)}-${int(r, 1.6e12, 1.8e12)}-${hex(r, 12)}`,
        `x-cloud-trace-context: ${hex(r, 32)}/${pick(r, alphabets.digits, 19)};o=1`,
      ].join('\n'),
  },
  {
    name: 'deploy ids (Vercel, Netlify, Fly)',
    make: (r) =>
      of(r, [
        `Inspect: https://vercel.com/acme/${name(r)}/${pick(r, alphabets.alnum, 9)} [2s]\nProduction: https://${name(r)}-${pick(r, alphabets.lowerAlnum, 9)}-acme.vercel.app\n  id: dpl_${pick(r, alphabets.alnum, 28)}`,
        `Deploy id: ${hex(r, 24)}\nUnique deploy URL: https://${hex(r, 24)}--${name(r)}.netlify.app`,
        `Machine ${hex(r, 14)} [app] update finished: success\nImage: registry.fly.io/${name(r)}:deployment-${ulid(r)}`,
      ]),
  },
  {
    name: 'chat and database ids',
    make: (r) =>
      of(r, [
        JSON.stringify({
          ok: true,
          channel: `C0${pick(r, alphabets.upperAlnum, 9)}`,
          ts: `${int(r, 1.6e9, 1.8e9)}.${pick(r, alphabets.digits, 6)}`,
          message: {
            user: `U0${pick(r, alphabets.upperAlnum, 9)}`,
            bot_id: `B0${pick(r, alphabets.upperAlnum, 9)}`,
          },
        }),
        `{ "_id": { "$oid": "${hex(r, 24)}" }, "author_id": "${pick(r, alphabets.digits, 18)}" }`,
        `firebase: pushed /messages/-${pick(r, alphabets.base64url, 19)}`,
        `spotify:track:${pick(r, alphabets.alnum, 22)}  https://open.spotify.com/track/${pick(r, alphabets.alnum, 22)}`,
        `Twilio message ${'SM'}${hex(r, 32)} queued (messaging service MG${hex(r, 32)})`,
      ]),
  },
  {
    name: 'chain ids (tx hashes, addresses)',
    make: (r) =>
      of(r, [
        JSON.stringify({
          transactionHash: `0x${hex(r, 64)}`,
          blockHash: `0x${hex(r, 64)}`,
          from: `0x${hex(r, 40)}`,
          to: `0x${hex(r, 40)}`,
          status: '0x1',
        }),
        `tx ${hex(r, 64)} confirmed in block ${int(r, 800000, 900000)}`,
      ]),
  },
  {
    name: 'wheel RECORD / npm pack / conda / bazel',
    make: (r) =>
      of(r, [
        `${pkg(r)}/__init__.py,sha256=${digest(r, 'sha256').digest('base64url')},${int(r, 100, 90000)}\n${pkg(r)}/core.py,sha256=${digest(r, 'sha256').digest('base64url')},${int(r, 100, 90000)}`,
        `npm notice shasum:        ${sha1(r)}\nnpm notice integrity:      sha512-${sha512b64(r).slice(0, 14)}[...]${sha512b64(r).slice(-14)}\nnpm notice total files:    ${int(r, 3, 90)}`,
        `  - name: ${pkg(r)}\n    version: ${version(r)}\n    url: https://conda.anaconda.org/conda-forge/noarch/${pkg(r)}-${version(r)}-pyhd8ed1ab_0.conda\n    hash:\n      md5: ${hex(r, 32)}\n      sha256: ${sha256Hex(r)}`,
        `http_archive(\n    name = "${pkg(r)}",\n    sha256 = "${sha256Hex(r)}",\n    integrity = "sha256-${digest(r, 'sha256').digest('base64')}",\n    strip_prefix = "${pkg(r)}-${version(r)}",\n)`,
        `provider "registry.terraform.io/hashicorp/aws" {\n  version = "${version(r)}"\n  hashes = [\n    "h1:${digest(r, 'sha256').digest('base64')}",\n    "zh:${sha256Hex(r)}",\n  ]\n}`,
      ]),
  },
  {
    name: 'certificate and key fingerprints',
    make: (r) =>
      of(r, [
        `SHA256 Fingerprint=${digest(r, 'sha256').digest('hex').toUpperCase().match(/../g)!.join(':')}`,
        `pub   ed25519 2024-01-01 [SC]\n      ${pick(r, alphabets.upperHex, 40)}\nuid           [ultimate] Dana Lee <dana@example.com>`,
        `Certificate fingerprints:\n\t SHA1: ${digest(r, 'sha1').digest('hex').toUpperCase().match(/../g)!.join(':')}`,
        `gpg: using EDDSA key ${pick(r, alphabets.upperHex, 40)}\ngpg: Good signature from "Dana Lee <dana@example.com>"`,
      ]),
  },
  {
    name: 'GUIDs and extension ids',
    make: (r) =>
      of(r, [
        `Project("{${uuid4(r).toUpperCase()}}") = "${name(r)}", "${name(r)}.csproj", "{${uuid4(r).toUpperCase()}}"`,
        `chrome-extension://${pick(r, 'abcdefghijklmnop', 32)}/popup.html`,
        `ProductCode = "{${uuid4(r).toUpperCase()}}"`,
      ]),
  },
  {
    name: 'helm / argo output',
    make: (r) =>
      of(r, [
        `NAME\tNAMESPACE\tREVISION\tUPDATED\tSTATUS\tCHART\n${name(r)}\tdefault\t${int(r, 1, 90)}\t${iso(r)}\tdeployed\t${name(r)}-${version(r)}`,
        `Name:               argocd/${name(r)}\nSync Revision:      ${sha1(r)}\nHealth Status:      Healthy\n  checksum/secret: ${sha256Hex(r)}`,
      ]),
  },
  {
    name: 'TLS certificates (PEM)',
    make: (r) => armor('CERTIFICATE', `MII${base64Of(r, int(r, 300, 600))}`),
  },
];
