import type { Interval } from './bootstrap.js';

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * Wilson score 95% interval of a rate `k / n`: stays inside [0, 1] and is informative at
 * k = 0 (0 of 250 reads "below 1.5%"), where a bootstrap has nothing to resample. Treats
 * the n trials as independent. Null when n = 0.
 */
export function wilsonInterval(k: number, n: number): Interval | null {
  if (n <= 0) return null;
  const p = k / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  // Exact at the ends: 0 of n has low 0, n of n has high 1 (no rounding just inside).
  return { low: k === 0 ? 0 : Math.max(0, centre - half), high: k === n ? 1 : Math.min(1, centre + half) };
}
