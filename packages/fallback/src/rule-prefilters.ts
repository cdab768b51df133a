/**
 * Necessary conditions for a few built-in rules whose patterns cost far more than a scan for the
 * literal part every match must hold: a text without that part cannot match, so the rule is not
 * run on it. Each condition is the pattern's own mandatory sub-pattern copied verbatim, keyed by
 * the full pattern (source and flags): when a rule's pattern is edited, its key no longer matches
 * and the rule simply runs unfiltered, never wrongly skipped.
 */
const conditions = new Map<string, RegExp>([
  [
    // A literal continued over lines by concatenation: every match holds at least one junction
    // (a closing quote, an optional `+`/`.`/`\`, a line break, an opening quote).
    `g:(?<![\\w$.])(?<key>[A-Za-z_$][\\w$.-]{0,100})["']?\\]?[ \\t]*(?::=|=|:)[ \\t]*\\(?[ \\t]*["'](?<secret>[^\\s"'][^"'\\r\\n]{0,300}(?:["'][ \\t]*[+.]?[ \\t]*\\\\?\\r?\\n[ \\t]*[+.]?[ \\t]*["'][^"'\\r\\n]{1,300}){1,8})["']`,
    /["'][ \t]*[+.]?[ \t]*\\?\r?\n[ \t]*[+.]?[ \t]*["']/,
  ],
  [
    // `scheme://user:secret@host`: the scheme is tried at every word start; the part from `://`
    // to `@` is what every match holds.
    `gi:\\b[a-z][a-z0-9+.-]{1,20}:\\/\\/(?<user>[^\\s:/@"'<>{}]*):(?<secret>[^\\s@/"'<>]+)@(?=[A-Za-z0-9[\\]._-])`,
    /:\/\/[^\s:/@"'<>{}]*:[^\s@/"'<>]+@/,
  ],
  [
    // A YAML block scalar under a key: every match holds `key: |` (or `>`) ending its line.
    `gm:^(?<indent>[ \\t]*)["']?(?<key>[A-Za-z_][\\w.-]*)["']?[ \\t]*:[ \\t]*[|>][+-]?[ \\t]*\\r?\\n(?<secret>(?:\\k<indent>[ \\t]+\\S[^\\r\\n]*(?:\\r?\\n|$))+)`,
    /:[ \t]*[|>][+-]?[ \t]*\r?\n/,
  ],
]);

/** The condition a text must meet for `pattern` to match in it, when one is known. */
export function rulePrefilter(pattern: RegExp): ((text: string) => boolean) | undefined {
  const condition = conditions.get(`${pattern.flags}:${pattern.source}`);
  if (condition === undefined) return undefined;
  return (text) => condition.test(text);
}

/** How many built-in patterns have a condition here (a test checks none went stale). */
export const rulePrefilterCount = conditions.size;

let enabled = true;

/** Whether the conditions are used; off only in tests that compare against unfiltered rules. */
export function rulePrefiltersEnabled(): boolean {
  return enabled;
}

/** Test hook: turns the conditions off (or back on) to compare outputs with the rules unfiltered. */
export function setRulePrefiltersEnabled(value: boolean): void {
  enabled = value;
}
