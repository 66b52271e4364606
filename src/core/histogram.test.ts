import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { histogramOf, roundStep } from './histogram.js';

describe('histogramOf', () => {
  it('uses round widths and covers every value once', () => {
    const bins = histogramOf([3, 7, 12, 18, 41], { maxBins: 5 });
    expect(bins.map((b) => b.upper - b.lower)).toEqual(bins.map(() => 10));
    expect(bins[0]!.lower).toBe(0);
    expect(bins.map((b) => b.n)).toEqual([2, 2, 0, 0, 1]);
  });

  it('returns no bins for no values', () => {
    expect(histogramOf([])).toEqual([]);
  });

  it('keeps every value and the bin limit (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e6, noNaN: true }), { minLength: 1 }), (values) => {
        const bins = histogramOf(values, { maxBins: 20 });
        expect(bins.reduce((a, b) => a + b.n, 0)).toBe(values.length);
        expect(bins.length).toBeLessThanOrEqual(21);
      }),
      { seed: 13, numRuns: 200 },
    );
  });

  it('rounds steps to 1, 2 or 5 times a power of ten', () => {
    expect([roundStep(0.3), roundStep(1.5), roundStep(3), roundStep(7), roundStep(10)]).toEqual([0.5, 2, 5, 10, 10]);
  });
});
