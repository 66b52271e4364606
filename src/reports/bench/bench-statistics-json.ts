/**
 * The statistics of a run as JSON, snake_case: `<metric>_ci: [low, high]` beside each
 * headline metric, the ECE noise floor and the conventions (with their canonical text).
 */
import { HEADLINE_METRICS, METRIC_JSON_NAMES, type RunStatistics } from '../../core/bench/run-statistics.js';
import { conventionsJson, conventionsText } from '../../core/stats/conventions.js';

/** `accuracy_ci` … `ece_ci` (null when intervals are off or the metric is absent), `ece_noise_floor`, `conventions`. */
export function statisticsJson(st: RunStatistics | null) {
  if (st === null) return {};
  const intervals: Record<string, readonly [number, number] | null> = {};
  for (const m of HEADLINE_METRICS) {
    const ci = st.intervals?.[m] ?? null;
    intervals[`${METRIC_JSON_NAMES[m]}_ci`] = ci === null ? null : [ci.low, ci.high];
  }
  return {
    ...intervals,
    ece_noise_floor:
      st.eceNoise === null
        ? null
        : { mean: st.eceNoise.mean, p95: st.eceNoise.p95, within_noise: st.eceNoise.withinNoise },
    conventions: {
      ...conventionsJson(st.conventions),
      text: conventionsText(st.conventions),
      recorded: st.conventionsRecorded,
      recomputed: st.recomputed,
      intervals: st.intervals !== null,
      resampled_cases: st.cases,
    },
  };
}
