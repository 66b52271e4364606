import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExactSum, exactMean, exactSum } from './exact-sum.js';

describe('ExactSum', () => {
  it('sums without cancellation error', () => {
    expect(exactSum([1e100, 1, -1e100])).toBe(1);
    expect(exactSum([1, 1e100, 1, -1e100])).toBe(2);
    // The same values Python's math.fsum rounds exactly (reference values from fsum).
    expect(exactSum([...Array.from({ length: 10 }, () => 0.1), -1])).toBe(5.551115123125783e-17);
    expect(exactSum([1e16, 1, 1e-16])).toBe(10000000000000002);
    expect(exactSum([0.1, 0.2, 0.3])).toBe(0.6);
    expect(exactSum(Array.from({ length: 10 }, () => 0.1))).toBe(1);
  });

  it('gives the same double in any order', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { maxLength: 80 }), (xs) => {
        const shuffled = [...xs].sort();
        return Object.is(exactSum(xs), exactSum(shuffled)) || (exactSum(xs) === 0 && exactSum(shuffled) === 0);
      }),
      { seed: 42, numRuns: 500 },
    );
  });

  it('merges like adding every value', () => {
    const a = new ExactSum();
    const b = new ExactSum();
    [0.1, 0.7, 1e-20].forEach((x) => a.add(x));
    [3, -0.7].forEach((x) => b.add(x));
    a.merge(b);
    expect(a.n).toBe(5);
    expect(a.value()).toBe(exactSum([0.1, 0.7, 1e-20, 3, -0.7]));
  });

  it('has no mean when empty', () => {
    expect(exactMean([])).toBeNull();
    expect(exactMean([1, 2])).toBe(1.5);
  });
});

describe('ExactSum overflow', () => {
  it('says Infinity, not NaN, when finite values overflow the sum', () => {
    const s = new ExactSum();
    s.add(1e308);
    s.add(1e308);
    expect(s.value()).toBe(Infinity);
    expect(s.mean()).toBe(Infinity);
    const neg = new ExactSum();
    for (const v of [-1e308, -1e308, 5]) neg.add(v);
    expect(neg.value()).toBe(-Infinity);
    const merged = new ExactSum();
    merged.add(1);
    merged.merge(s);
    expect(merged.value()).toBe(Infinity);
  });

  it('still sums exactly near the top of the range', () => {
    const s = new ExactSum();
    for (const v of [1e308, 7e307, -1e308]) s.add(v);
    expect(s.value()).toBe(7e307);
  });
});

describe('ExactSum reset', () => {
  it('starts again from nothing, as a new sum would', () => {
    const s = new ExactSum();
    [1e100, 1, 0.1, 7].forEach((x) => s.add(x));
    s.add(Infinity);
    s.reset();
    expect(s.n).toBe(0);
    expect(s.mean()).toBeNull();
    [0.1, 0.2, 0.3].forEach((x) => s.add(x));
    expect(s.value()).toBe(exactSum([0.1, 0.2, 0.3]));
    expect(s.n).toBe(3);
  });
});
