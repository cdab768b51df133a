/**
 * One file under one path: the forms a transcript uses for the same file (`/repo/src/a.ts`,
 * `src/a.ts`, `./src/a.ts`, `../src/a.ts` from a test folder) are merged, and runtime or library
 * internals seen only in stack traces are dropped. Not part of the public API.
 */

export interface RawFileFact {
  path: string;
  references: number;
  lastIndex: number;
  written: boolean;
  /** A tool that does not write targeted it. */
  read?: boolean;
}

// Frames and files of the runtime or of installed libraries: where an error surfaced, not what the
// agent worked on. `node:fs`, `internal/modules/cjs/loader.js`, `.../site-packages/x.py`,
// `node_modules/x/index.js`, `<frozen importlib._bootstrap>`, Go's module cache, Ruby gems.
// Also the toolchains' own sources and caches: Go's `GOROOT/src`, Rust's `/rustc/<hash>/library`
// and `.rustup`, Maven's and Gradle's caches, NuGet packages, Ruby's and the JVM's libraries, a
// `vendor/` tree of third-party code, and Java module frames (`java.base/java.util.List.of`).
const internalPath =
  /^(?:node:|internal\/|<frozen|(?:java|jdk|javafx)\.[a-z][\w.]*\/)|(?:^|[\\/])(?:node_modules|site-packages|dist-packages|\.pnpm|\.yarn|\.cargo[\\/]registry|\.rustup|go[\\/]pkg[\\/]mod|gems[\\/][^\\/]+-\d[^\\/]*|vendor|\.m2[\\/]repository|\.gradle[\\/]caches|\.nuget[\\/]packages)[\\/]|^\/usr\/(?:local\/)?lib\/(?:python\d|node|ruby|jvm)|^\/usr\/(?:local\/)?(?:lib\/)?go(?:-[\d.]+)?\/src\/|^\/rustc\/[0-9a-f]{7}[0-9a-f]*\/|\/lib\/python\d[\d.]*\/(?!site-packages)[^/]+\.py$|^\/dev\/(?:null|stdin|stdout|stderr|tty|zero|u?random)$/;

/** True for runtime and library internals (`node:`, `internal/`, `site-packages`, `node_modules`). */
export function isInternalPath(path: string): boolean {
  return internalPath.test(path);
}

// Regex literals are hoisted out of the functions run per file: each evaluation of a literal
// makes a new RegExp object, several per path of a window naming thousands.
const absoluteStart = /^(?:\/|[A-Za-z]:[\\/]|\\\\|~\/)/;
const driveStart = /^[A-Za-z]:/;
const upperDriveRoot = /^[A-Z]:\//;
const backslashes = /\\/g;
const dotPrefixes = /^(?:\.{1,2}\/)+/;
const dotPrefix = /^\.{1,2}\//;

const isAbsolute = (path: string) => absoluteStart.test(path);

/**
 * One spelling per path: Windows forms (`C:\\x\\y`, `c:/x/y`) take forward slashes and an
 * upper-case drive letter so they compare with each other and with relative `x/y` forms.
 */
function slashForm(path: string): string {
  if (!path.includes('\\') && !driveStart.test(path)) return path;
  const slashed = path.replace(backslashes, '/');
  return driveStart.test(slashed) ? slashed[0]!.toUpperCase() + slashed.slice(1) : slashed;
}

/** A working directory as named in prose: `Working directory: /home/dev/shop.` ends a sentence. */
function cleanDirectory(directory: string): string {
  return slashForm(directory.trim().replace(/[.,;:!?)\]}'"`]+$/, '')).replace(/(.)\/+$/, '$1');
}

const isRooted = (path: string) => path.startsWith('/') || upperDriveRoot.test(path);

const needsCollapse = /(?:^|\/)\.{1,2}(?:\/|$)|\/\/|\/$/;

/** `a/./b/../c` -> `a/c`; leading `..` segments of a relative path are kept. */
export function collapseDots(path: string): string {
  // Most paths have nothing to collapse: no `.`/`..` segment, no empty one (`//`, a trailing `/`).
  // Those come back as they are, without the split and join (a window names thousands of files).
  if (path !== '' && !needsCollapse.test(path)) return path;
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(segment);
  }
  return (absolute ? '/' : '') + out.join('/');
}

/** The relative remainder once `./` and `../` prefixes are stripped (`../../src/a.ts` -> `src/a.ts`). */
function strippedRelative(path: string): string {
  return path.replace(dotPrefixes, '');
}

/**
 * The working directory: named in the window (`cwd`, `Working directory: /x`) when it is, else the
 * root that most often turns a relative path the window uses into an absolute one it also uses.
 */
export function inferWorkingDirectory(
  paths: readonly string[],
  named: readonly string[],
): string | undefined {
  const votes = new Map<string, number>();
  for (const directory of named) {
    const clean = cleanDirectory(directory);
    if (isRooted(clean)) votes.set(clean, (votes.get(clean) ?? 0) + 1000);
  }
  // One pass, no intermediate lists: a window names thousands of files.
  const absolute: string[] = [];
  const relatives = new Set<string>();
  for (let at = 0; at < paths.length; at++) {
    const slashed = slashForm(paths[at]!);
    if (isRooted(slashed)) absolute.push(slashed);
    if (isAbsolute(slashed) || slashed.startsWith('../')) continue;
    const relative = strippedRelative(slashed);
    if (relative.includes('/') || relative.includes('.')) relatives.add(relative);
  }
  for (let position = 0; position < absolute.length; position++) {
    const path = absolute[position]!;
    // Each suffix of the absolute path that the window also uses as a relative path votes for the
    // prefix before it.
    let at = path.indexOf('/', 1);
    while (at !== -1) {
      const suffix = path.slice(at + 1);
      if (relatives.has(suffix)) {
        const root = path.slice(0, at);
        votes.set(root, (votes.get(root) ?? 0) + 1);
        break;
      }
      at = path.indexOf('/', at + 1);
    }
  }
  let best: string | undefined;
  let bestVotes = 0;
  for (const [root, count] of votes) {
    if (
      count > bestVotes ||
      (count === bestVotes && best !== undefined && root.length < best.length)
    ) {
      best = root;
      bestVotes = count;
    }
  }
  return best;
}

/**
 * Merges the forms of one file and drops internals the agent did not edit. The merged fact is shown
 * under the longest form seen (an absolute path holds its relative forms), its references summed.
 */
export function normalizeFiles(
  facts: readonly RawFileFact[],
  namedDirectories: readonly string[] = [],
): RawFileFact[] {
  const kept = facts.filter((fact) => fact.written || !isInternalPath(fact.path));
  const cwd = inferWorkingDirectory(
    kept.map((fact) => fact.path),
    namedDirectories,
  );
  const canonical = (raw: string): string => {
    const path = slashForm(raw);
    // UNC paths (`\\\\server\\share`) keep their leading pair of slashes.
    if (path.startsWith('//')) return path;
    if (upperDriveRoot.test(path)) return path.slice(0, 2) + collapseDots(path.slice(2));
    if (path.startsWith('/')) return collapseDots(path);
    if (path.startsWith('~/')) return path;
    if (cwd !== undefined) return collapseDots(`${cwd}/${path}`);
    return collapseDots(path);
  };
  // Forms are listed only for a file seen under more than one (most have one: its own path).
  const groups = new Map<string, { fact: RawFileFact; forms: string[] | undefined }>();
  let relativeForms = false;
  for (let at = 0; at < kept.length; at++) {
    const fact = kept[at]!;
    const key = canonical(fact.path);
    // The working directory itself is not a file (unless a writing tool targeted it).
    if (cwd !== undefined && cleanDirectory(key) === cwd && !fact.written) continue;
    const group = groups.get(key);
    if (group) {
      group.fact.references += fact.references;
      group.fact.lastIndex = Math.max(group.fact.lastIndex, fact.lastIndex);
      group.fact.written ||= fact.written;
      group.fact.read ||= fact.read;
      group.forms ??= [group.fact.path];
      group.forms.push(fact.path);
    } else {
      groups.set(key, { fact: { ...fact }, forms: undefined });
      relativeForms ||= dotPrefix.test(fact.path);
    }
  }
  // `./sku.js`, `../src/inventory.js` relative to some other file: when exactly one known file ends
  // with the same remainder, it is that file. (Only a group's first form is matched: none to match
  // when no group opened with a `./` or `../` form.)
  if (relativeForms) mergeRelativeForms(groups);
  const files: RawFileFact[] = [];
  for (const { fact, forms } of groups.values()) {
    // The copy made for the group is the result; its first form is its path until now.
    if (forms !== undefined) fact.path = shownForm(forms);
    files.push(fact);
  }
  return files;
}

/** The form a file is shown under: the longest, or its absolute form over a `../` one. */
function shownForm(forms: readonly string[]): string {
  const longest = forms.reduce((best, form) => (form.length > best.length ? form : best));
  // A `../` form is relative to a file we do not know: the absolute form, when seen, reads better.
  const absoluteForm = forms.find((form) => form.startsWith('/') && !form.includes('/../'));
  return /^\.\.\//.test(longest) && absoluteForm !== undefined ? absoluteForm : longest;
}

function mergeRelativeForms(
  groups: Map<string, { fact: RawFileFact; forms: string[] | undefined }>,
): void {
  const byBase = new Map<string, string[]>();
  for (const key of groups.keys()) {
    const base = key.slice(key.lastIndexOf('/') + 1);
    const keys = byBase.get(base);
    if (keys === undefined) byBase.set(base, [key]);
    else keys.push(key);
  }
  for (const [key, group] of [...groups]) {
    const form = group.forms?.[0] ?? group.fact.path;
    if (!/^\.{1,2}\//.test(form) || group.fact.written) continue;
    const remainder = strippedRelative(form);
    const base = remainder.slice(remainder.lastIndexOf('/') + 1);
    const matches = (byBase.get(base) ?? []).filter(
      (other) => other !== key && (other.endsWith(`/${remainder}`) || other === remainder),
    );
    if (matches.length !== 1) continue;
    // The match may itself have been merged away already (two relative forms of one file).
    const target = groups.get(matches[0]!);
    if (target === undefined) continue;
    target.fact.references += group.fact.references;
    target.fact.lastIndex = Math.max(target.fact.lastIndex, group.fact.lastIndex);
    target.fact.read ||= group.fact.read;
    target.forms ??= [target.fact.path];
    for (const form of group.forms ?? [group.fact.path]) target.forms.push(form);
    groups.delete(key);
  }
}
