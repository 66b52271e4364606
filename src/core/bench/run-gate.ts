/**
 * `runs gate`: does a candidate run fall behind a baseline beyond noise? The decision rests
 * on the paired case-level bootstrap interval of the difference (candidate - baseline) in
 * one metric: the candidate fails when the whole 95% interval of its worsening lies beyond
 * the allowed drop (0 by default, so "worse beyond noise").
 */
import { higherIsBetter, type Interval, type MetricComparison, type StatMetric } from '../stats/bootstrap.js';

export interface GateInput {
  readonly metric: StatMetric;
  /** The paired comparison of that metric, baseline first. */
  readonly comparison: MetricComparison;
  /** How much worse the candidate may be, in the metric's units (0.01 = one point of accuracy). Default 0. */
  readonly maxDrop: number;
}

export type GateResult =
  | {
      readonly pass: boolean;
      /** How much worse the candidate is (positive = worse), in the metric's units. */
      readonly worsening: number;
      /** The 95% interval of the worsening. */
      readonly interval: Interval;
    }
  | { readonly pass: false; readonly missing: 'metric' | 'interval' };

/**
 * Pass unless the candidate is worse than the baseline by more than `maxDrop` beyond
 * noise. A metric absent from either run, or without an interval, cannot be judged: fail.
 */
export function gateRuns(input: GateInput): GateResult {
  const { comparison: c, metric } = input;
  if (c.difference === null) return { pass: false, missing: 'metric' };
  if (c.interval === null) return { pass: false, missing: 'interval' };
  // Worsening is positive when the candidate is worse, whichever way the metric points.
  const worse = higherIsBetter(metric)
    ? { value: -c.difference, interval: { low: -c.interval.high, high: -c.interval.low } }
    : { value: c.difference, interval: c.interval };
  return { pass: !(worse.interval.low > input.maxDrop), worsening: worse.value, interval: worse.interval };
}
