import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cohenKappa } from './agreement.js';
import { wilsonInterval } from '../stats/wilson.js';

describe('cohenKappa', () => {
  it('matches a hand-computed 2x2 table with its 95% interval', () => {
    // n = 50, po = 35/50 = 0.7; rows 25/25, columns 30/20: pe = 0.5*0.6 + 0.5*0.4 = 0.5.
    // kappa = (0.7 - 0.5) / 0.5 = 0.4; se = sqrt(0.7*0.3 / (50 * 0.25)) = sqrt(0.0168).
    const k = cohenKappa([
      [20, 5],
      [10, 15],
    ])!;
    expect(k.kappa).toBeCloseTo(0.4, 12);
    const se = Math.sqrt(0.0168);
    expect(k.high).toBeCloseTo(0.4 + 1.959963984540054 * se, 12);
    // The low end is the Wilson interval's of po = 35/50 (0.5623...), taken to kappa: lower than Cohen's.
    const z = 1.959963984540054;
    const wilsonLow = (0.7 + (z * z) / 100 - z * Math.sqrt(0.21 / 50 + (z * z) / 10000)) / (1 + (z * z) / 50);
    expect(k.low).toBeCloseTo((wilsonLow - 0.5) / 0.5, 12);
    expect(k.low).toBeLessThan(0.4 - z * se);
  });

  it('has no zero-width interval on a handful of items: never narrower than the Wilson interval of the agreement', () => {
    // 2 of 2 agree, one of each category: pe = 0.5; Wilson(2, 2) = [0.3424..., 1].
    const two = cohenKappa([
      [1, 0],
      [0, 1],
    ])!;
    expect(two.kappa).toBe(1);
    expect(two.high).toBe(1);
    expect(two.low).toBeCloseTo((wilsonInterval(2, 2)!.low - 0.5) / 0.5, 12);
    expect(two.low).toBeLessThan(-0.3);
    // 5 of 5: still wide; 0 of 4 on a balanced table is -1 with room above it.
    const five = cohenKappa([
      [3, 0],
      [0, 2],
    ])!;
    expect(five.kappa).toBe(1);
    expect(five.high - five.low).toBeGreaterThan(0.5);
    const none = cohenKappa([
      [0, 2],
      [2, 0],
    ])!;
    expect(none.kappa).toBeCloseTo(-1, 12);
    expect(none.high).toBeGreaterThan(-0.5);
  });

  it('is null when undefined', () => {
    expect(
      cohenKappa([
        [0, 0],
        [0, 0],
      ]),
    ).toBeNull();
    // Both raters always said the first option: chance agreement is 1.
    expect(
      cohenKappa([
        [4, 0],
        [0, 0],
      ]),
    ).toBeNull();
  });

  it('is -1 for complete systematic disagreement on a balanced table', () => {
    expect(
      cohenKappa([
        [0, 5],
        [5, 0],
      ])!.kappa,
    ).toBeCloseTo(-1, 12);
  });

  it('stays within [-1, 1] and the interval contains kappa', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(40), { minLength: 9, maxLength: 9 }), (cells) => {
        const k = cohenKappa([cells.slice(0, 3), cells.slice(3, 6), cells.slice(6, 9)]);
        if (k === null) return;
        expect(k.kappa).toBeGreaterThanOrEqual(-1 - 1e-12);
        expect(k.kappa).toBeLessThanOrEqual(1 + 1e-12);
        expect(k.low).toBeLessThanOrEqual(k.kappa + 1e-12);
        expect(k.high).toBeGreaterThanOrEqual(k.kappa - 1e-12);
      }),
      { seed: 12, numRuns: 300 },
    );
  });
});
