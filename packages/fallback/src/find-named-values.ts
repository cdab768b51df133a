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
  String.raw`(?<![\w$-])(?<![\w$-]\.)(?:--(?:name|key)(?:[ \t]+|=)|["']?(?:${nameFields})["']?[ \t]*[:=][ \t]*)(?<quote>["']?)(?<name>[A-Za-z_/][\w./-]{1,120})\k<quote>`,
  'gi',
);
const valueField = new RegExp(
  String.raw`(?<![\w$-])(?<![\w$-]\.)(?<flag>--value(?:[ \t]+|=)|["']?(?:${valueFields})["']?[ \t]*[:=][ \t]*)(?:"(?<double>[^"\r\n]{1,400})"|'(?<single>[^'\r\n]{1,400})'|(?<bare>[^\s"',;{}[\]<>]{1,400}))`,
  'gi',
);
// What separates two records: a tag, a new YAML list item, a blank line (brackets: `balanced`).
const recordBreak = /[<>]|\n[ \t]*-[ \t]|\n[ \t]*\r?\n/;
// How far apart a record's two fields may be.
const reach = 600;

interface NameAt {
  start: number;
  end: number;
  name: string;
  flag: boolean;
  quoted: boolean;
}

// After a bare name: another word on the same line that is not the next field (`value=…`).
const phraseGoesOn = /^[ \t]+[^\s\-"'{}[\]<>,;\\][^\s=:]*(?:[ \t\r\n]|$)/;

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
      quoted: match.groups!.quote !== '',
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
      pairedValue(text, at.end, after, at.flag, false, at.start) ??
      pairedValue(text, before, at.start, at.flag, true, at.start);
    if (value === undefined || inPageFormField(text, at.start)) continue;
    // `- name: Password policy`: a bare name followed by more words is a title, not a setting's name.
    if (!at.quoted && phraseGoesOn.test(text.slice(at.end, at.end + 80))) continue;
    const written = text.slice(value.start, value.end);
    // `(sensitive value)`, `(known after apply)`: a plan's stand-in for a value it does not show.
    if (written.startsWith('(')) continue;
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
  start: number,
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
  if (recordBreak.test(gap) || !balanced(gap)) return undefined;
  // A command goes on past a `\` line end; any other line end ends it.
  if (flag && gap.replace(/\\\r?\n/g, ' ').includes('\n')) return undefined;
  // Over lines, the two fields are siblings of one mapping: the same column, and no line between
  // them less indented (a parent key, `db:`, opening the next record).
  if (!flag && gap.includes('\n')) {
    const first = backward ? from + chosen.index : start;
    const second = backward ? start : from + chosen.index;
    if (!siblings(text, first, second)) return undefined;
  }
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

/** True when every bracket and brace the gap opens it also closes, and it closes none it did not open. */
function balanced(gap: string): boolean {
  let depth = 0;
  for (let index = 0; index < gap.length; index++) {
    const code = gap.charCodeAt(index);
    if (code === 123 || code === 91) depth++;
    else if (code === 125 || code === 93) {
      depth--;
      if (depth < 0) return false;
    }
  }
  return depth === 0;
}

/**
 * True when the fields at `first` and `second` (on later lines) stand in the same column and no
 * line between them starts left of it.
 */
function siblings(text: string, first: number, second: number): boolean {
  const column = columnOf(text, first);
  if (column < 0 || columnOf(text, second) !== column) return false;
  for (
    let at = text.indexOf('\n', first);
    at >= 0 && at < second;
    at = text.indexOf('\n', at + 1)
  ) {
    let indent = at + 1;
    while (indent < second && (text.charCodeAt(indent) === 32 || text.charCodeAt(indent) === 9))
      indent++;
    const code = text.charCodeAt(indent);
    // A line of its own (not the line the second field stands on) that starts left of the column.
    if (indent < second && code !== 10 && code !== 13 && indent - (at + 1) < column) return false;
  }
  return true;
}

/** The column of `index` on its line, or -1 when the line starts further back than `reach`. */
function columnOf(text: string, index: number): number {
  const limit = Math.max(0, index - reach - 1);
  for (let at = index - 1; at >= limit; at--) if (text.charCodeAt(at) === 10) return index - at - 1;
  return limit === 0 ? index : -1;
}
