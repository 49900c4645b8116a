// The figures the benches give of many timings: in any order, not sorted in place.

/** The nearest-rank value under which a fraction `p` of `values` lie (0.5: the median); NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = values.toSorted((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN
}

export const median = (values: readonly number[]) => percentile(values, 0.5)

export const round2 = (x: number) => Math.round(x * 100) / 100
