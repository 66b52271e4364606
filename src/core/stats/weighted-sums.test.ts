import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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

  it('leaves the sums to JavaScript when their matrix would not fit a WebAssembly memory (over 4 GiB)', () => {
    expect(createSimdSums(300_000_000, 2)).toBeNull();
  });

  it('leaves the sums to JavaScript when the process may not reserve a WebAssembly memory', () => {
    // V8 reserves many gigabytes of address space for a WebAssembly memory; under a 3 GB limit
    // on it (ulimit -v) that fails, while the JavaScript loop needs nothing of the kind.
    const simd = pathToFileURL(join(import.meta.dirname, '../../../dist/core/stats/weighted-sums-simd.js')).href;
    const script = `import { createSimdSums } from ${JSON.stringify(simd)}; console.log(createSimdSums(10, 3) === null ? 'javascript' : 'simd');`;
    const r = spawnSync('bash', ['-c', `ulimit -v 3000000; exec node --input-type=module -e "$0"`, script], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('javascript');
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
