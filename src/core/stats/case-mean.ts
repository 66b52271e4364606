import { bootstrapIntervals, type Interval } from './bootstrap.js';
import { CaseSampleBuilder } from './case-sample.js';
import type { Conventions } from './conventions.js';

/** One case's share of a mean: the sum of its decisions' values and how many there are. */
export interface CaseMeanUnit {
  readonly id: string;
  readonly sum: number;
  readonly count: number;
}

/**
 * The 95% interval of a mean of per-decision values (Σ sums / Σ counts, any real values)
 * whose decisions come in correlated cases, by the case bootstrap: the values ride in its
 * mean-per-answered-decision column, so cases are resampled whole, seeded by the
 * conventions, and summed exactly. A point when every case has the same mean; null without
 * cases or with resampling off.
 */
export function caseMeanInterval(units: readonly CaseMeanUnit[], conventions: Conventions): Interval | null {
  if (units.length === 0) return null;
  const b = new CaseSampleBuilder();
  for (const u of units) b.addCase(u.id, { decisions: u.count, correct: 0, answered: u.count, brier: u.sum });
  const r = bootstrapIntervals(b.build(), conventions);
  // Every case with the same mean: the interval is that point (the probe reads it so).
  if (r.intervals.brier === null && r.resamples > 0 && r.estimates.brier !== null)
    return { low: r.estimates.brier, high: r.estimates.brier };
  return r.intervals.brier;
}
