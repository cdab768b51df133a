import { acceptKeyedValue, type KeyedMatch, keyIsIdLike, keyIsSecretFor } from './secret-rules.js';

/**
 * Values given in name/value records, where the key that says what the value is sits in a
 * sibling field rather than before it: Kubernetes and ECS environment lists (`- name:
 * DB_PASSWORD` / `value: …`, `{"name": "API_KEY", "value": "…"}`), CloudFormation and SSM
 * parameters (`ParameterKey=DbPassword,ParameterValue=…`, `--name /prod/db/password --value …`),
 * Postman and app-setting lists (`{"key": "api_key", "value": "…"}`), XML settings
 * (`<env name="TOKEN" value="…"/>`). The keyed layers see only `value: …` there, a key that
 * names nothing. A record's two fields are paired when nothing between them opens or closes
 * another record: no bracket, brace or tag, no new YAML list item or blank line, no other name
 * field. The value is then judged as it would be after its name (`DB_PASSWORD=…`).
 */
const nameFields =
  'name|key|parametername|parameterkey|variable|variablename|secretname|settingname|propertyname|envname';
const valueFields =
  'value|parametervalue|secretvalue|settingvalue|variablevalue|propertyvalue|secretstring';

const nameField = new RegExp(
  String.raw`(?<![\w.$-])(?:--(?:name|key)(?:[ \t]+|=)|["']?(?:${nameFields})["']?[ \t]*[:=][ \t]*)(?<quote>["']?)(?<name>[A-Za-z_/][\w./-]{1,120})\k<quote>`,
  'gi',
);
const valueField = new RegExp(
  String.raw`(?<![\w.$-])(?<flag>--value(?:[ \t]+|=)|["']?(?:${valueFields})["']?[ \t]*[:=][ \t]*)(?:"(?<double>[^"\r\n]{1,400})"|'(?<single>[^'\r\n]{1,400})'|(?<bare>[^\s"',;{}[\]<>]{1,400}))`,
  'gi',
);
// What separates two records: a bracket, a brace or a tag, a new YAML list item, a blank line.
const recordBreak = /[{}[\]<>]|\n[ \t]*-[ \t]|\n[ \t]*\r?\n/;
// How far apart a record's two fields may be.
const reach = 300;

interface NameAt {
  start: number;
  end: number;
  name: string;
  flag: boolean;
}

/**
 * Secret values of name/value records (see above), as `password` or `secret` like keyed values.
 * Linear: each name field's search for its value stops at the neighbouring name fields and at
 * `reach` characters.
 */
export function findNamedValues(text: string, found: KeyedMatch[] = []): KeyedMatch[] {
  if (!/value/i.test(text)) return found;
  const names: NameAt[] = [];
  nameField.lastIndex = 0;
  for (let match = nameField.exec(text); match; match = nameField.exec(text)) {
    names.push({
      start: match.index,
      end: match.index + match[0].length,
      name: match.groups!.name!,
      flag: match[0].startsWith('--'),
    });
  }
  for (let index = 0; index < names.length; index++) {
    const at = names[index]!;
    // `/prod/db/password`, `app.db.password`: the last part says what the value is.
    const key = at.name.slice(at.name.lastIndexOf('/') + 1);
    if (key === '') continue;
    const after = Math.min(at.end + reach, names[index + 1]?.start ?? text.length);
    const before = Math.max(at.start - reach, names[index - 1]?.end ?? 0);
    const value =
      pairedValue(text, at.end, after, at.flag, false) ??
      pairedValue(text, before, at.start, at.flag, true);
    if (value === undefined || inPageFormField(text, at.start)) continue;
    const written = text.slice(value.start, value.end);
    const strength = keyIsSecretFor(key, written);
    if (strength === undefined) continue;
    if (!acceptKeyedValue(written, strength, value.quoted, keyIsIdLike(key))) continue;
    found.push({ kind: strength === 'strong' ? 'password' : 'secret', ...value });
  }
  return found;
}

/**
 * The value field between `from` and `to` that pairs with a name field at the other end of the
 * range: the first one when the name comes before (`backward` false), the last one otherwise.
 */
function pairedValue(
  text: string,
  from: number,
  to: number,
  flag: boolean,
  backward: boolean,
): { start: number; end: number; quoted: boolean } | undefined {
  if (to <= from) return undefined;
  const window = text.slice(from, to);
  valueField.lastIndex = 0;
  let chosen: RegExpExecArray | undefined;
  for (let match = valueField.exec(window); match; match = valueField.exec(window)) {
    chosen = match;
    if (!backward) break;
  }
  if (chosen === undefined) return undefined;
  // A flag pairs with a flag, on the same command line; a field with a field.
  if (chosen.groups!.flag!.startsWith('--') !== flag) return undefined;
  const gap = backward
    ? window.slice(chosen.index + chosen[0].length)
    : window.slice(0, chosen.index);
  if (recordBreak.test(gap) || (flag && gap.includes('\n'))) return undefined;
  const groups = chosen.groups!;
  const inner = groups.double ?? groups.single ?? groups.bare!;
  const quoted = groups.bare === undefined;
  const end = from + chosen.index + chosen[0].length - (quoted ? 1 : 0);
  return { start: end - inner.length, end, quoted };
}

/**
 * True when the name field is an attribute of an HTML `<input>` that is not a password field: a
 * form's hidden fields (`authenticity_token`, `csrf_token`) are shown to whoever loads the page,
 * they are anti-forgery values, not credentials.
 */
function inPageFormField(text: string, nameStart: number): boolean {
  // Bounded windows: a text of many name fields and no tag must not be searched whole each time.
  const from = Math.max(0, nameStart - reach);
  const before = text.slice(from, nameStart);
  const open = before.lastIndexOf('<');
  if (open < 0 || before.indexOf('>', open) >= 0) return false;
  const rest = text.slice(nameStart, nameStart + reach);
  const close = rest.indexOf('>');
  const tag = before.slice(open) + (close < 0 ? rest : rest.slice(0, close));
  return /^<input\b/i.test(tag) && !/\btype\s*=\s*["']?password\b/i.test(tag);
}
