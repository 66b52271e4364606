/**
 * How every benchmark report states intervals, the ECE noise floor and the conventions:
 * one wording for the terminal, Markdown, HTML and `runs show`.
 */
import type { HeadlineMetric, Interval, RunStatistics } from '../../core/bench/run-statistics.js';
import { describeConventions } from '../../core/stats/conventions.js';
import { formatCount, formatNumber, formatPercent } from '../format.js';
import { describeEceVerdict } from '../ece-verdict.js';
import { INTERVALS_OFF } from '../../core/command-hints.js';

/** How a metric's values read: accuracy as a percentage, the others as plain numbers. */
export function formatMetric(metric: HeadlineMetric, value: number | null | undefined): string {
  return metric === 'accuracy' ? formatPercent(value) : formatNumber(value);
}

/** `[51.2%, 60.0%]`, or '' when there is no interval. */
export function formatInterval(metric: HeadlineMetric, interval: Interval | null | undefined): string {
  if (interval === null || interval === undefined) return '';
  return `[${formatMetric(metric, interval.low)}, ${formatMetric(metric, interval.high)}]`;
}

/** The interval of a headline metric in a run's statistics, or null. */
export function intervalOf(statistics: RunStatistics | null | undefined, metric: HeadlineMetric): Interval | null {
  return statistics?.intervals?.[metric] ?? null;
}

/** "noise floor 0.031 (95th percentile 0.045): within noise; debiased ECE 0.012 [0.000, 0.040]", or null. */
export function describeEceNoise(statistics: RunStatistics | null | undefined): string | null {
  const f = statistics?.eceNoise;
  if (f === null || f === undefined) return null;
  const d = statistics?.debiasedEce;
  const debiased =
    d === null || d === undefined
      ? ''
      : `; debiased ECE ${formatNumber(d.debiased)}${d.interval === null ? '' : ` [${formatNumber(d.interval.low)}, ${formatNumber(d.interval.high)}]`}`;
  return `noise floor ${formatNumber(f.mean)} (95th percentile ${formatNumber(f.p95)}): ${describeEceVerdict(f)}${debiased}`;
}

/**
 * What the intervals are, for a report's "how to read this": the bootstrap resamples cases,
 * because the questions of a case share its state.
 */
export function describeIntervals(statistics: RunStatistics | null | undefined): string {
  if (statistics === null || statistics === undefined || statistics.intervals === null) return INTERVALS_OFF;
  const c = statistics.conventions;
  return (
    `Brackets are 95% intervals from ${formatCount(c.bootstrapResamples)} bootstrap resamples of the run's ` +
    `${formatCount(statistics.cases)} cases (seed ${c.seed}). Cases are resampled, not decisions: the questions ` +
    'of a case share its state, so their decisions are correlated and resampling them one by one would make the ' +
    'intervals too narrow. Two runs whose intervals overlap may still differ: compare them paired with ' +
    "'decidekit runs compare'. The ECE noise floor is the ECE a perfectly calibrated model with the same " +
    'confidences would show on this many decisions (outcomes drawn at each confidence, same seed); an ECE at or below ' +
    'its 95th percentile is within noise.'
  );
}

/** The conventions line every report carries, saying where they came from. */
export function describeRunConventions(statistics: RunStatistics): string {
  const origin = statistics.recomputed
    ? ' (recomputed from the stored decisions under these conventions)'
    : statistics.conventionsRecorded
      ? ''
      : ' (the run was stored before conventions were recorded: read with the defaults)';
  return `Conventions: ${describeConventions(statistics.conventions)}${origin}.`;
}
