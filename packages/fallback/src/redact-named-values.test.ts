import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './index.js';
import { keyIsSecret } from './secret-rules.js';
import {
  ordinaryName,
  ordinaryValue,
  referenceValue,
  secretName,
  secretValue,
} from './test-utils/environment-assignments.js';
import { itStaysLinear, oneOf } from './test-utils/generated-values.js';

// Premise: many settings formats give a value's name in a sibling field (`- name: DB_PASSWORD`,
// `value: …`), so no key stands right before the value. Each record syntax below is written by
// tools agents run (kubectl, the AWS CLI, Postman, .NET config, ECS task definitions); the value
// must go whatever the syntax, the field order, the fields between and the quoting.
const isSecret = (name: string) => keyIsSecret(name) !== undefined;

type Record = (name: string, value: string, filler: string) => string;
const records: { [syntax: string]: Record } = {
  'YAML list item': (name, value, filler) =>
    `env:\n  - name: ${name}\n${filler ? `    ${filler}: x\n` : ''}    value: ${value}\n  - name: LOG_LEVEL\n    value: debug\n`,
  'YAML list item, quoted': (name, value) =>
    `containers:\n- env:\n  - name: "${name}"\n    value: "${value}"\n`,
  'YAML, value first': (name, value) => `- value: '${value}'\n  name: ${name}\n`,
  'JSON object': (name, value, filler) =>
    `{"name": "${name}", ${filler ? `"${filler}": "x", ` : ''}"value": "${value}"}`,
  'JSON, value first, capitals': (name, value) =>
    `[{"Value":"${value}","Name":"${name}"},{"Name":"REGION","Value":"eu-west-1"}]`,
  'Postman variable': (name, value, filler) =>
    `"variable": [{"key": "${name.toLowerCase()}", "value": "${value}"${filler ? `, "type": "${filler}"` : ''}}]`,
  'CloudFormation CLI': (name, value) =>
    `aws cloudformation deploy --parameter-overrides ParameterKey=${name},ParameterValue=${value}`,
  'CloudFormation JSON': (name, value) =>
    `{ "ParameterKey": "${name}", "ParameterValue": "${value}" }`,
  'XML attributes': (name, value) => `<env name="${name}" value="${value}" />`,
  'JSON, nested fields between': (name, value, filler) =>
    `{"name": "${name}", "tags": {"team": "${filler || 'core'}"}, "labels": ["a", "b"], "value": "${value}"}`,
  'helm --set': (name, value) =>
    `helm upgrade app ./chart --set env[0].name=${name},env[0].value=${value}`,
  'AWS CLI over lines': (name, value) =>
    `aws ssm put-parameter \\\n  --name /prod/${name.toLowerCase()} \\\n  --value ${value} \\\n  --type SecureString`,
  'HTML password input': (name, value) =>
    `<form><input type="password" name="${name.toLowerCase()}" value="${value}"></form>`,
  'SSM parameter flags': (name, value) =>
    `aws ssm put-parameter --name /prod/app/${name.toLowerCase()} --value ${value} --overwrite`,
};
const syntaxNames = Object.keys(records);
const filler = oneOf(['', 'description', 'type', 'enabled']);

describe('values named in a sibling field', () => {
  it('are redacted in every record syntax, field order and quoting', () => {
    fc.assert(
      fc.property(
        oneOf(syntaxNames),
        secretName(isSecret),
        secretValue,
        filler,
        (syntax, name, value, extra) => {
          const text = records[syntax]!(name, value, extra);
          // Premise: the value is one the keyed rules take after its name however it is written
          // (`"NAME": "value"`, `NAME: value`, `NAME=value`), and not one caught for its shape.
          for (const keyed of [`"${name}": "${value}"`, `${name}: ${value}`, `${name}=${value}`])
            fc.pre(!redactSecrets(keyed).text.includes(value));
          fc.pre(redactSecrets(value).text.includes(value));
          const redacted = redactSecrets(text).text;
          expect(redacted, text).not.toContain(value);
          // Only the value went: the names and the other record are as written.
          expect(redacted.replace(/\[REDACTED:[\w-]+\]/, '')).toBe(text.replace(value, ''));
        },
      ),
      { numRuns: 600 },
    );
  });

  it('keep references, templates and settings that name no secret (control)', () => {
    fc.assert(
      fc.property(
        oneOf(syntaxNames),
        fc.oneof(
          fc.tuple(secretName(isSecret), referenceValue),
          fc.tuple(ordinaryName(isSecret), ordinaryValue),
          fc.tuple(
            ordinaryName(isSecret),
            secretValue.filter((value) => value.length < 20),
          ),
        ),
        filler,
        (syntax, [name, value], extra) => {
          const text = records[syntax]!(name, value, extra);
          // Premise: no other rule takes the value on its own.
          fc.pre(redactSecrets(`x ${value} y`).findings.length === 0);
          expect(redactSecrets(text).findings, text).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("keeps a page's hidden form fields (anti-forgery values shown to every visitor)", () => {
    fc.assert(
      fc.property(
        oneOf(['authenticity_token', 'csrf_token', '_csrf', 'csrfmiddlewaretoken', 'xsrf_token']),
        secretValue.filter((value) => value.length >= 20),
        (name, value) => {
          const text = `<input type="hidden" name="${name}" value="${value}" autocomplete="off" />`;
          // Premise: nothing takes the value for its shape alone.
          fc.pre(redactSecrets(`x ${value} y`).findings.length === 0);
          expect(redactSecrets(text).findings, text).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads neither a title for a name nor a stand-in for a value, nor a sibling map (control)', () => {
    noKeyedFindingIn((secret, other, value) => {
      const word = secret.split('_').at(-1)!.toLowerCase();
      const texts = [
        // A bare name followed by more words is a title.
        `- name: ${word[0]!.toUpperCase()}${word.slice(1)} rotation policy\n  value: ${value}\n`,
        // A plan's stand-ins for values it does not show.
        `  + name  = "/prod/app/${word}"\n  + value = (sensitive value)\n`,
        `  + name  = "/prod/app/${word}"\n  + value = (known after apply)\n`,
        // Sibling maps: the first map's value is not the second map's.
        `settings:\n  log:\n    name: ${other}\n    value: ${value}\n  db:\n    name: ${secret}\n    valueFrom: vault\n`,
      ];
      return texts.map((text) => [
        text,
        text.replaceAll(secret, 'LOG_LEVEL').replaceAll(word, 'level'),
      ]);
    });
  });

  it('pairs no name with the value of another record', () => {
    noKeyedFindingIn((secret, other, value) => {
      // The secret-named record has no literal; the next record's value is an ordinary setting's.
      const texts = (first: string) => [
        `- name: ${first}\n  valueFrom:\n    secretKeyRef: {name: db, key: password}\n- name: ${other}\n  value: ${value}\n`,
        `[{"name": "${first}", "valueFrom": {"ref": "x"}}, {"name": "${other}", "value": "${value}"}]`,
        `<env name="${first}" /><env name="${other}" value="${value}" />`,
      ];
      const control = texts('LOG_LEVEL');
      return texts(secret).map((text, index) => [text, control[index]!]);
    });
  });
});

/**
 * For texts built from a secret name, an ordinary name and a value, each with a control that names
 * no secret: where the control gives no finding, the text gives no keyed one (other layers judge a
 * value by its shape and neighbourhood; no keyed kind may take it for a secret the name implies).
 */
function noKeyedFindingIn(
  build: (secret: string, other: string, value: string) => Array<[string, string]>,
): void {
  fc.assert(
    fc.property(
      secretName(isSecret),
      ordinaryName(isSecret),
      secretValue,
      (secret, other, value) => {
        for (const [text, control] of build(secret, other, value)) {
          if (redactSecrets(control).findings.length > 0) continue;
          const kinds = redactSecrets(text).findings.map((finding) => finding.kind);
          expect(kinds, text).not.toContain('password');
          expect(kinds, text).not.toContain('secret');
        }
      },
    ),
    { numRuns: 200 },
  );
}

describe('name/value records on hostile text', () => {
  itStaysLinear({
    'name fields without values': (count) => '{"name": "DB_PASSWORD", '.repeat(count),
    'value fields without names': (count) => '"value": "x7Hq", '.repeat(count),
    'alternating YAML items': (count) => '- name: API_TOKEN\n  value:\n'.repeat(count),
    'flags without values': (count) => '--name /a/password --value '.repeat(count),
    'form inputs without a closing bracket': (count) =>
      '<input name="csrf_token" value="x7Hq2 '.repeat(count),
  });
});
