/**
 * One model's runs on the same work over time (`decidekit view`'s `/models/NAME`): each
 * run's headline metrics with their 95% intervals, and against the run before it whether a
 * metric moved beyond noise (the two intervals do not overlap: a conservative reading, as
 * two intervals may overlap while a paired test finds a difference).
 */
import type { Interval } from '../stats/bootstrap.js';

/** The metrics a trend follows. */
export const TREND_METRICS = ['accuracy', 'kl', 'brier', 'ece'] as const;
export type TrendMetric = (typeof TREND_METRICS)[number];

export interface TrendRun {
  readonly id: string;
  readonly createdAt: string;
  readonly label: string | null;
  readonly status: string;
  readonly values: Readonly<Record<TrendMetric, number | null>>;
  /** Null when the run has no stored intervals (still running, or intervals off). */
  readonly intervals: Readonly<Record<TrendMetric, Interval | null>> | null;
}

/** Against the run before: better or worse beyond noise, within noise, or null when either interval is missing. */
export type TrendChange = 'better' | 'worse' | 'within_noise' | null;

export interface TrendPoint extends TrendRun {
  readonly changes: Readonly<Record<TrendMetric, TrendChange>>;
}

function changeOf(metric: TrendMetric, before: Interval | null, after: Interval | null): TrendChange {
  if (before === null || after === null) return null;
  const higherIsBetter = metric === 'accuracy';
  if (after.low > before.high) return higherIsBetter ? 'better' : 'worse';
  if (after.high < before.low) return higherIsBetter ? 'worse' : 'better';
  return 'within_noise';
}

/** The runs oldest first, each marked against the one before it. */
export function summarizeModelTrend(runs: readonly TrendRun[]): TrendPoint[] {
  const sorted = [...runs].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  return sorted.map((run, i) => {
    const before = i === 0 ? null : sorted[i - 1]!;
    const changes = Object.fromEntries(
      TREND_METRICS.map((m) => [
        m,
        before === null ? null : changeOf(m, before.intervals?.[m] ?? null, run.intervals?.[m] ?? null),
      ]),
    ) as Record<TrendMetric, TrendChange>;
    return { ...run, changes };
  });
}
