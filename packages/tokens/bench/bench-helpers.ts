// Helpers shared by the focused benches: the baseline build, summary statistics, CPU time and
// runs of units.

/** The build in BENCH_BASE (a dist directory, relative to the working directory), if given. */
export async function loadBaseBuild(): Promise<typeof import('../dist/index.js') | undefined> {
  if (!process.env.BENCH_BASE) return undefined;
  return (await import(
    new URL(`${process.env.BENCH_BASE}/index.js`, `file://${process.cwd()}/`).href
  )) as typeof import('../dist/index.js');
}

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** "median (min–max)". */
export const spread = (values: readonly number[], digits = 1) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

/** Thread CPU milliseconds of `work`. */
export const cpuOf = (work: () => void) => {
  const before = process.threadCpuUsage();
  work();
  const used = process.threadCpuUsage(before);
  return (used.user + used.system) / 1000;
};

/** A maker of runs of `length` code units: one unit repeated, or units drawn by `random`. */
export const unitsFrom =
  (random: () => number) => (alphabet: readonly string[], length: number, repeated: boolean) => {
    const parts: string[] = [];
    let size = 0;
    while (size < length) {
      const unit = repeated ? alphabet[0]! : alphabet[Math.floor(random() * alphabet.length)]!;
      parts.push(unit);
      size += unit.length;
    }
    return parts.join('').slice(0, length);
  };

/** A maker of base64 runs of `length` characters, of bytes drawn by `random`. */
export const base64From = (random: () => number) => (length: number) =>
  Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)))
    .toString('base64')
    .slice(0, length);
