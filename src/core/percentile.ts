import { exactMean } from './exact-sum.js';

/**
 * Percentile with linear interpolation at rank (n - 1) * q, q in [0, 1].
 * Returns null for no values. Does not modify its input.
 */
export function percentile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return percentileOfSorted(sorted, q);
}

/** As `percentile`, for values already sorted ascending. */
export function percentileOfSorted(sorted: readonly number[], q: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const rank = (n - 1) * q;
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (rank - lo);
}

export interface LatencySummary {
  readonly n: number;
  readonly p50: number | null;
  readonly p95: number | null;
  readonly mean: number | null;
}

/** p50, p95 and mean of latencies in milliseconds; each null when there are none. */
export function summarizeLatency(valuesMs: readonly number[]): LatencySummary {
  const sorted = [...valuesMs].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentileOfSorted(sorted, 0.5),
    p95: percentileOfSorted(sorted, 0.95),
    mean: exactMean(sorted),
  };
}
