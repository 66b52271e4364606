/** Ordering the rows of `compare --sort METRIC`. */
import type { OfflineSummary } from './summary.js';

/** Sortable metrics, with the direction that puts the best model first. */
export const COMPARE_SORT_METRICS = {
  accuracy: { better: 'higher', get: (s: OfflineSummary) => s.accuracy },
  brier: { better: 'lower', get: (s: OfflineSummary) => s.brier },
  log_loss: { better: 'lower', get: (s: OfflineSummary) => s.logLoss },
  ece: { better: 'lower', get: (s: OfflineSummary) => s.ece },
  score_mae: { better: 'lower', get: (s: OfflineSummary) => s.scoreMae },
  cost_per_correct: { better: 'lower', get: (s: OfflineSummary) => s.costPerCorrectUsd },
  latency: { better: 'lower', get: (s: OfflineSummary) => s.meanLatencyMs },
} as const satisfies Record<string, { better: 'higher' | 'lower'; get: (s: OfflineSummary) => number | null }>;

export type CompareSortMetric = keyof typeof COMPARE_SORT_METRICS;

export function isCompareSortMetric(name: string): name is CompareSortMetric {
  return Object.hasOwn(COMPARE_SORT_METRICS, name);
}

/**
 * Rows best first by `metric`; absent values (null, or NaN) last; ties keep the given order (stable).
 * Returns a new array.
 */
export function sortByMetric<T>(
  rows: readonly T[],
  summaryOf: (row: T) => OfflineSummary,
  metric: CompareSortMetric,
): T[] {
  const { better, get } = COMPARE_SORT_METRICS[metric];
  const sign = better === 'higher' ? -1 : 1;
  // NaN is never a value here, but if one slipped through it must not sort as the best.
  const valueOf = (row: T): number | null => {
    const v = get(summaryOf(row));
    return v === null || Number.isNaN(v) ? null : v;
  };
  return rows
    .map((row, i) => ({ row, i, v: valueOf(row) }))
    .sort((a, b) => {
      if (a.v === null || b.v === null) return a.v === b.v ? a.i - b.i : a.v === null ? 1 : -1;
      // Comparisons, not a difference: Infinity - Infinity is NaN.
      return a.v === b.v ? a.i - b.i : a.v < b.v ? -sign : sign;
    })
    .map((x) => x.row);
}
