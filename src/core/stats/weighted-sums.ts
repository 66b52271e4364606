/**
 * Weighted sums of per-unit columns for many weightings at once: the inner loop of the
 * bootstrap, Σ_u w[u] · x[u] for every column x and every resample's weights w.
 *
 * One pass over the units serves `WEIGHTINGS_PER_PASS` weightings, so each value is read
 * once for all of them. A column zero in every unit is not summed (its sum is 0); a column
 * equal to another is summed once. Neither changes a bit: each sum adds the same nonzero
 * terms in the same order (unit order) as summing one weighting of that column alone, a
 * weight of 0 adding ±0, which leaves a sum unchanged.
 */

import { createSimdSums } from './weighted-sums-simd.js';

/** How many weightings one pass over the units sums. */
export const WEIGHTINGS_PER_PASS = 8;

/** A column of per-unit values: unit u's is `values[u * stride + offset]`. */
export interface UnitColumn {
  readonly values: Float64Array;
  readonly stride: number;
  readonly offset: number;
}

export interface WeightedSums {
  /** Sums a row of `sum` holds: the distinct columns that are not zero throughout. */
  readonly width: number;
  /** Where each column given is in a row of sums; -1 when it is zero in every unit (its sum is 0). */
  readonly slot: Int32Array;
  /**
   * Weighting k's sums into `sums[k * width + slot]`, k < `WEIGHTINGS_PER_PASS`, its
   * weights at `weights[k * units + u]` (weightings not in use: all 0).
   */
  sum(weights: Int32Array, sums: Float64Array): void;
}

/**
 * `columns`: null for one not to be summed (its slot is -1, as a column of zeros).
 * `options.simd`: false sums in JavaScript, as where WebAssembly SIMD is missing (the two
 * give the same bits; a test compares them). Default true.
 */
export function createWeightedSums(
  columns: readonly (UnitColumn | null)[],
  units: number,
  options: { readonly simd?: boolean } = {},
): WeightedSums {
  // Plain loops, each in a function of its own: a command runs this once, cold, and a loop
  // in a callback (`Int32Array.from`, `forEach`) ran uncompiled for most of its 34 columns.
  const slot = new Int32Array(columns.length).fill(-1);
  const kept: UnitColumn[] = [];
  for (let j = 0; j < columns.length; j++) {
    const column = columns[j];
    if (column === null || column === undefined || isZero(column, units)) continue;
    let same = -1;
    for (let k = 0; k < kept.length && same < 0; k++) if (sameValues(kept[k]!, column, units)) same = k;
    if (same < 0) {
      same = kept.length;
      kept.push(column);
    }
    slot[j] = same;
  }
  const width = kept.length;
  // Unit-major: a unit's values side by side, read once a pass.
  const simd = options.simd === false ? null : createSimdSums(units, width);
  if (simd !== null) {
    for (let c = 0; c < width; c++) copyColumn(kept[c]!, units, simd.matrix, simd.stride, c);
    return { width, slot, sum: simd.sum };
  }
  const matrix = new Float64Array(units * width);
  for (let c = 0; c < width; c++) copyColumn(kept[c]!, units, matrix, width, c);
  return { width, slot, sum: (weights, sums) => sumPass(matrix, width, units, weights, sums) };
}

function isZero(column: UnitColumn, units: number): boolean {
  const { values, stride, offset } = column;
  for (let u = 0, i = offset; u < units; u++, i += stride) if (values[i] !== 0) return false;
  return true;
}

function sameValues(a: UnitColumn, b: UnitColumn, units: number): boolean {
  const { values: av, stride: as, offset: ao } = a;
  const { values: bv, stride: bs, offset: bo } = b;
  for (let u = 0, i = ao, j = bo; u < units; u++, i += as, j += bs) if (av[i] !== bv[j]) return false;
  return true;
}

function copyColumn(column: UnitColumn, units: number, matrix: Float64Array, rowLength: number, c: number): void {
  const { values, stride, offset } = column;
  for (let u = 0, i = offset, o = c; u < units; u++, i += stride, o += rowLength) matrix[o] = values[i]!;
}

/** Eight weightings of the units' rows, in one pass (the weights of each in locals). */
function sumPass(matrix: Float64Array, width: number, units: number, weights: Int32Array, sums: Float64Array): void {
  sums.fill(0, 0, WEIGHTINGS_PER_PASS * width);
  const s1 = width;
  const s2 = 2 * width;
  const s3 = 3 * width;
  const s4 = 4 * width;
  const s5 = 5 * width;
  const s6 = 6 * width;
  const s7 = 7 * width;
  for (let u = 0; u < units; u++) {
    const w0 = weights[u]!;
    const w1 = weights[units + u]!;
    const w2 = weights[2 * units + u]!;
    const w3 = weights[3 * units + u]!;
    const w4 = weights[4 * units + u]!;
    const w5 = weights[5 * units + u]!;
    const w6 = weights[6 * units + u]!;
    const w7 = weights[7 * units + u]!;
    const o = u * width;
    for (let c = 0; c < width; c++) {
      const x = matrix[o + c]!;
      sums[c] = sums[c]! + w0 * x;
      sums[s1 + c] = sums[s1 + c]! + w1 * x;
      sums[s2 + c] = sums[s2 + c]! + w2 * x;
      sums[s3 + c] = sums[s3 + c]! + w3 * x;
      sums[s4 + c] = sums[s4 + c]! + w4 * x;
      sums[s5 + c] = sums[s5 + c]! + w5 * x;
      sums[s6 + c] = sums[s6 + c]! + w6 * x;
      sums[s7 + c] = sums[s7 + c]! + w7 * x;
    }
  }
}
