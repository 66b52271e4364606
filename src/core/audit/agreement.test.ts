import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cohenKappa } from './agreement.js';

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
    expect(k.low).toBeCloseTo(0.4 - 1.959963984540054 * se, 12);
    expect(k.high).toBeCloseTo(0.4 + 1.959963984540054 * se, 12);
  });

  it('is 1 for perfect agreement with a zero-width interval, and null when undefined', () => {
    expect(
      cohenKappa([
        [3, 0],
        [0, 2],
      ]),
    ).toEqual({ kappa: 1, low: 1, high: 1 });
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
