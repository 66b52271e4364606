/**
 * Agreement of a judge with deterministic labels: rate, Cohen's kappa with a 95% interval,
 * and the confusion matrix. Pure; counts only.
 */

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

export interface Kappa {
  readonly kappa: number;
  /** 95% interval, clipped to [-1, 1]. */
  readonly low: number;
  readonly high: number;
}

/**
 * Cohen's kappa of a square count table (rows: one rater, columns: the other, same
 * categories in the same order) with the large-sample standard error of Cohen (1960),
 * sqrt(po (1 - po) / (n (1 - pe)^2)). Null when the table is empty or when chance agreement
 * is 1 (both raters always gave the same single category: kappa is undefined).
 */
export function cohenKappa(table: readonly (readonly number[])[]): Kappa | null {
  const k = table.length;
  let n = 0;
  let agree = 0;
  const rows = new Array<number>(k).fill(0);
  const cols = new Array<number>(k).fill(0);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const c = table[i]![j]!;
      n += c;
      rows[i]! += c;
      cols[j]! += c;
      if (i === j) agree += c;
    }
  }
  if (n === 0) return null;
  const po = agree / n;
  let pe = 0;
  for (let i = 0; i < k; i++) pe += (rows[i]! / n) * (cols[i]! / n);
  if (pe >= 1) return null;
  const kappa = (po - pe) / (1 - pe);
  const se = Math.sqrt((po * (1 - po)) / (n * (1 - pe) ** 2));
  return { kappa, low: Math.max(-1, kappa - Z95 * se), high: Math.min(1, kappa + Z95 * se) };
}
