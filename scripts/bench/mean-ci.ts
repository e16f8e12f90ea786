// A mean and its 95% confidence interval over a few runs (Student's t), as
// the docs report compared runs: "mean ± half-width (n = runs)".

// Student's t, two-sided 95%, by degrees of freedom (1–10; beyond, 2.2 is near enough for these few runs).
const T95 = [NaN, 12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26, 2.23];

export function meanCi(xs: number[]): string {
  const v = xs.filter(Number.isFinite);
  if (v.length === 0) return "—";
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const digits = Math.abs(mean) < 10 ? 2 : 1;
  if (v.length < 2) return `${mean.toFixed(digits)} (n = 1)`;
  const sd = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1));
  const half = (T95[v.length - 1] ?? 2.2) * (sd / Math.sqrt(v.length));
  return `${mean.toFixed(digits)} ± ${half.toFixed(digits)} (n = ${v.length})`;
}

/** Runs grouped by their labels before " (": "before (2)" and "before (3)" are one group. */
export function byLabelGroup<T>(runs: Array<{ label: string; r: T }>): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const x of runs) {
    const g = x.label.replace(/\s*\(.*\)\s*$/, "");
    groups.set(g, [...(groups.get(g) ?? []), x.r]);
  }
  return groups;
}
