/**
 * Agreement of a judge with deterministic labels: rate, Cohen's kappa with a 95% interval,
 * and the confusion matrix. Pure; counts only.
 */

import { wilsonInterval } from '../stats/wilson.js';

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
 * sqrt(po (1 - po) / (n (1 - pe)^2)). That interval is the normal (Wald) interval of the
 * observed agreement po taken to kappa, so it has zero width when every item agrees (or
 * none does), whatever the number of items. As for accuracy, the interval is therefore never
 * narrower than the Wilson interval of po (agreeing items of n) taken to kappa by
 * (p - pe) / (1 - pe): 2 of 2 agreeing reads 1.00 [-0.32, 1.00], not [1.00, 1.00]. Null when
 * the table is empty or when chance agreement is 1 (both raters always gave the same single
 * category: kappa is undefined).
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
  const toKappa = (p: number) => (p - pe) / (1 - pe);
  const wilson = wilsonInterval(agree, n)!;
  return {
    kappa,
    low: Math.max(-1, Math.min(kappa - Z95 * se, toKappa(wilson.low))),
    high: Math.min(1, Math.max(kappa + Z95 * se, toKappa(wilson.high))),
  };
}
