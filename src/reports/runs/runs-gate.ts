import type { RunComparison } from '../../core/bench/run-diff.js';
import type { GateResult } from '../../core/bench/run-gate.js';
import type { StatMetric } from '../../core/stats/bootstrap.js';
import { formatCount, formatNumber, formatSigned } from '../format.js';
import { formatMetric } from '../bench/bench-statistics.js';
import { describePValue } from './runs-diff.js';

const NAMES: Readonly<Record<StatMetric, string>> = {
  accuracy: 'accuracy',
  kl: 'KL',
  brier: 'Brier',
  logLoss: 'log loss',
  ece: 'ECE',
};

/** A difference in the metric's units: points of accuracy, plain numbers otherwise. */
function formatChange(metric: StatMetric, value: number): string {
  return metric === 'accuracy' ? `${formatSigned(value * 100, 1)} pp` : formatSigned(value);
}

/**
 * `runs gate`: one line, "PASS" or "FAIL", the metric baseline → candidate, the paired
 * interval of the change, and why.
 */
export function renderGateLine(
  c: RunComparison,
  gate: GateResult,
  options: { readonly metric: StatMetric; readonly maxDrop: number },
): string {
  const m = options.metric;
  const name = NAMES[m];
  const pm = c.paired?.metrics[m];
  const over = c.sharedCases === null ? '' : `, over the ${formatCount(c.sharedCases.cases)} cases both runs have`;
  const head = `${gate.pass ? 'PASS' : 'FAIL'} ${name} ${formatMetric(m, pm?.first ?? null)} → ${formatMetric(m, pm?.second ?? null)} (baseline ${c.a.id}, candidate ${c.b.id}${over}`;
  if ('missing' in gate) {
    const why =
      gate.missing === 'metric'
        ? `${name} is absent from one of the runs (nothing answered)`
        : 'no interval could be computed';
    return `${head}): cannot judge: ${why}${failedCases(c, m)}\n`;
  }
  const change = pm?.difference ?? 0;
  const interval = pm?.interval;
  const ci = interval
    ? `, 95% paired interval ${formatChange(m, interval.low)} to ${formatChange(m, interval.high)}`
    : '';
  const mc = m === 'accuracy' ? `; McNemar ${describePValue(c.mcnemar.pValue)}` : '';
  const allowed = options.maxDrop > 0 ? ` by more than the allowed ${formatAllowed(m, options.maxDrop)}` : '';
  const why = gate.pass
    ? gate.interval.high < 0
      ? 'the candidate is better beyond noise'
      : options.maxDrop > 0 && gate.interval.low > 0
        ? `the candidate is worse, but not surely${allowed}`
        : 'the difference is within noise'
    : `the candidate is worse beyond noise${allowed}`;
  return `${head}; change ${formatChange(m, change)}${ci}${mc}): ${why}${failedCases(c, m)}\n`;
}

/**
 * The failed cases of each run and how the metric counted them, when either run has any: a
 * gate on KL over a run whose requests failed judges only what was answered.
 */
function failedCases(c: RunComparison, metric: StatMetric): string {
  if (c.a.requests.failed === 0 && c.b.requests.failed === 0) return '';
  const side = (r: RunComparison['a']) => `${formatCount(r.requests.failed)} of ${formatCount(r.requests.total)}`;
  const counted =
    metric === 'accuracy'
      ? 'their decisions count as misses in accuracy'
      : `their decisions are left out of ${NAMES[metric]}, which is over answered decisions (gate on accuracy to count them as misses)`;
  return `; failed cases: baseline ${side(c.a)}, candidate ${side(c.b)} (${counted})`;
}

function formatAllowed(metric: StatMetric, x: number): string {
  return metric === 'accuracy' ? `${formatNumber(x * 100, 1)} pp` : formatNumber(x);
}
