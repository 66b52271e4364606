import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { wilsonInterval } from './wilson.js';

describe('wilsonInterval', () => {
  it('matches the closed form on known values (12 of 100: [0.0700, 0.1981] by hand)', () => {
    // 0 of 250: upper bound z²/(n + z²).
    const z2 = 1.959963984540054 ** 2;
    expect(wilsonInterval(0, 250)!.high).toBeCloseTo(z2 / (250 + z2), 12);
    expect(wilsonInterval(0, 250)!.low).toBe(0);
    const i = wilsonInterval(12, 100)!;
    expect(i.low).toBeCloseTo(0.07, 4);
    expect(i.high).toBeCloseTo(0.1981, 4);
  });

  it('is null without trials and 1 at the top of n of n', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(wilsonInterval(7, 7)!.high).toBe(1);
  });

  it('stays in [0, 1] and contains the rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, f) => {
        const k = Math.round(f * n);
        const i = wilsonInterval(k, n)!;
        return i.low >= 0 && i.high <= 1 && i.low <= k / n + 1e-12 && k / n <= i.high + 1e-12;
      }),
      { seed: 7 },
    );
  });
});
