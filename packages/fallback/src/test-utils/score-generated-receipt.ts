import type { GeneratedTranscript } from './generate-agent-transcript.js';

/** Share of a generated transcript's truth a receipt text carries (undefined: none to carry). */
export interface GeneratedScores {
  errors: number | undefined;
  /** Of the error lines shown, the share whose `(resolved later)` mark is right. */
  resolvedMarks: number | undefined;
  files: number | undefined;
  /** Of the files listed, the share listed once (not also under another form of the same path). */
  filesListedOnce: number | undefined;
  tools: number | undefined;
  asks: number | undefined;
  /** Runtime and library internals shown (should be none). */
  internalsShown: number;
  /** Secrets shown (must be none). */
  secretsShown: number;
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
const prefix = (text: string) => text.slice(0, 100).trim();

/**
 * Whether `text` names the project file `rel`: as `<cwd>/<rel>` (normalised against the working
 * directory), or as `rel` or `./rel` on its own; a path under another directory does not count.
 */
function namesFile(text: string, cwd: string, rel: string): boolean {
  const full = `${cwd}/${rel}`;
  if (text.includes(full)) return true;
  let from = 0;
  for (;;) {
    const at = text.indexOf(rel, from);
    if (at === -1) return false;
    const before = text[at - 1];
    const after = text[at + rel.length];
    const startOk =
      before === undefined ||
      /[\s"'`(]/.test(before) ||
      (before === '/' && text.slice(at - 2, at) === './');
    const endOk = after === undefined || /[\s"'`),:;]/.test(after);
    if (startOk && endOk) return true;
    from = at + 1;
  }
}

/** How many words of the files section are a form of `rel` (`rel`, `./rel`, `<cwd>/rel`). */
function listedForms(text: string, cwd: string, rel: string): number {
  const start = text.indexOf('## Relevant files');
  if (start === -1) return 0;
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end === -1 ? undefined : end).replace(/\\/g, '/');
  const forms = new Set([rel, `./${rel}`, `${cwd}/${rel}`, `"${cwd}/${rel}"`]);
  return new Set(section.split(/\s+/).filter((word) => forms.has(word))).size;
}

export function scoreGeneratedReceipt(text: string, truth: GeneratedTranscript): GeneratedScores {
  const flat = collapse(text);
  // Windows paths compare with forward slashes (the receipt may show either).
  const slashed = flat.replace(/\\/g, '/');
  const share = <T>(items: readonly T[], present: (item: T) => boolean, weight = (_: T) => 1) => {
    const total = items.reduce((sum, item) => sum + weight(item), 0);
    if (total === 0) return undefined;
    return items.reduce((sum, item) => sum + (present(item) ? weight(item) : 0), 0) / total;
  };
  // The blockers section's lines (`- …`), not an action's outcome that quotes the same error.
  const lines = text
    .split('\n')
    .map(collapse)
    .filter((line) => line.startsWith('- '));
  const shownErrors = truth.errors.filter((error) => flat.includes(prefix(error.line)));
  return {
    errors: share(truth.errors, (error) => flat.includes(prefix(error.line))),
    resolvedMarks: share(shownErrors, (error) => {
      const line = lines.find((candidate) => candidate.includes(prefix(error.line))) ?? '';
      return line.includes('(resolved later)') === error.resolved;
    }),
    files: share(
      [...truth.files.keys()],
      (rel) => namesFile(slashed, truth.cwd, rel),
      (rel) => truth.files.get(rel) ?? 0,
    ),
    filesListedOnce: share(
      [...truth.files.keys()].filter((rel) => listedForms(text, truth.cwd, rel) > 0),
      (rel) => listedForms(text, truth.cwd, rel) === 1,
    ),
    tools: share(truth.tools, (name) =>
      new RegExp(`(?<![\\w-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(flat),
    ),
    asks: share(truth.asks, (ask) => flat.includes(prefix(ask))),
    internalsShown: truth.internals.filter((path) => slashed.includes(path.replace(/\\/g, '/')))
      .length,
    secretsShown: truth.secrets.filter((secret) => text.includes(secret)).length,
  };
}
