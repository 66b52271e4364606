import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../seeded-random.js';
import { createWeightedSums, WEIGHTINGS_PER_PASS, type UnitColumn } from './weighted-sums.js';
import { createSimdSums } from './weighted-sums-simd.js';

/** Integer columns as the bootstrap sums them (counts, and values in quanta up to 2^40), some zero, some repeated. */
function columnsOf(seed: number, units: number, width: number): (UnitColumn | null)[] {
  const random = createSeededRandom(seed);
  const rows = new Float64Array(units * width);
  for (let u = 0; u < units; u++)
    for (let c = 0; c < width; c++) {
      const kind = c % 4;
      rows[u * width + c] =
        kind === 0
          ? Math.floor(random() * 6)
          : kind === 1
            ? Math.round((random() - 0.4) * 2 ** 40)
            : kind === 2
              ? 0
              : -0;
    }
  const columns: (UnitColumn | null)[] = Array.from({ length: width }, (_, offset) => ({
    values: rows,
    stride: width,
    offset,
  }));
  columns.push(columns[1]!, null);
  return columns;
}

/** Multinomial weights of `n` weightings (units draws each), the others 0. */
function weightsOf(seed: number, units: number, n: number): Int32Array {
  const random = createSeededRandom(seed);
  const weights = new Int32Array(WEIGHTINGS_PER_PASS * units);
  for (let k = 0; k < n; k++) for (let d = 0; d < units; d++) weights[k * units + Math.floor(random() * units)]!++;
  return weights;
}

describe('weighted sums', () => {
  it('sums in WebAssembly SIMD here', () => {
    expect(createSimdSums(10, 3)).not.toBeNull();
  });

  it('gives the same bits in WebAssembly SIMD as in JavaScript, for odd and even widths and partial passes', () => {
    for (const [seed, units, width, n] of [
      [1, 1, 2, 1],
      [2, 7, 3, 8],
      [3, 500, 9, 5],
      [4, 2000, 24, 8],
      [5, 333, 34, 1],
    ] as const) {
      const columns = columnsOf(seed, units, width);
      const simd = createWeightedSums(columns, units);
      const plain = createWeightedSums(columns, units, { simd: false });
      expect([...simd.slot]).toEqual([...plain.slot]);
      const weights = weightsOf(seed + 100, units, n);
      const a = new Float64Array(WEIGHTINGS_PER_PASS * simd.width).fill(7);
      const b = new Float64Array(WEIGHTINGS_PER_PASS * plain.width).fill(-7);
      simd.sum(weights, a);
      plain.sum(weights, b);
      expect(new Uint8Array(a.buffer)).toEqual(new Uint8Array(b.buffer));
      // And each is the plain dot product (exact: every term and sum an integer below 2^53).
      const column = columns[1]!;
      let expected = 0;
      for (let u = 0; u < units; u++) expected += weights[u]! * column.values[u * column.stride + column.offset]!;
      expect(a[simd.slot[1]!]).toBe(expected);
    }
  });
});
