/** How every report (benchmark and offline) words the ECE noise-floor verdict. */
import type { EceNoise } from '../core/stats/noise-floor.js';
import { formatNumber } from './format.js';

/**
 * "within noise", "beyond noise", or "within noise (a tie with the percentile, up to 0.047
 * within the simulations' own error)" when the tie rule decided it.
 */
export function describeEceVerdict(f: EceNoise): string {
  if (!f.withinNoise) return 'beyond noise';
  return f.tie === true
    ? `within noise (a tie with the percentile, up to ${formatNumber(f.p95Upper)} within the simulations' own error)`
    : 'within noise';
}
