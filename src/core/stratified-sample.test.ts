import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stratifiedSample } from './stratified-sample.js';

const items = [
  ...Array.from({ length: 50 }, (_, i) => ({ id: `a${i}`, g: 'a' })),
  ...Array.from({ length: 30 }, (_, i) => ({ id: `b${i}`, g: 'b' })),
  ...Array.from({ length: 20 }, (_, i) => ({ id: `c${i}`, g: 'c' })),
];

describe('stratifiedSample', () => {
  it('gives each group its share of the sample', () => {
    const s = stratifiedSample(items, 10, 1, (x) => x.g);
    expect(s.filter((x) => x.g === 'a')).toHaveLength(5);
    expect(s.filter((x) => x.g === 'b')).toHaveLength(3);
    expect(s.filter((x) => x.g === 'c')).toHaveLength(2);
  });

  it('keeps the input order and gives the same sample for the same seed', () => {
    const s = stratifiedSample(items, 17, 42, (x) => x.g);
    expect(s.map((x) => items.indexOf(x))).toEqual([...s.map((x) => items.indexOf(x))].sort((a, b) => a - b));
    expect(stratifiedSample(items, 17, 42, (x) => x.g)).toEqual(s);
    expect(stratifiedSample(items, 17, 43, (x) => x.g)).not.toEqual(s);
  });

  it('takes exactly n distinct items for any n and seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (n, seed) => {
        const s = stratifiedSample(items, n, seed, (x) => x.g);
        expect(s).toHaveLength(Math.min(n, items.length));
        expect(new Set(s).size).toBe(s.length);
      }),
      { seed: 7, numRuns: 200 },
    );
  });
});
