import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitIsotonicSteps, isotonicRegression } from './isotonic.js';
import { isotonicValue } from '../calibration-map.js';

describe('isotonicRegression', () => {
  it('reproduces the textbook cases', () => {
    expect(isotonicRegression([3, 7, 5, 9, 8, 7, 10])).toEqual([3, 6, 6, 8, 8, 8, 10]);
    expect(isotonicRegression([10, 0, 2])).toEqual([4, 4, 4]);
  });

  it('is non-decreasing, keeps the total and leaves a sorted input alone', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -100, max: 100 }), { maxLength: 40 }), (values) => {
        const fit = isotonicRegression(values);
        expect(fit).toHaveLength(values.length);
        for (let i = 1; i < fit.length; i++) expect(fit[i]!).toBeGreaterThanOrEqual(fit[i - 1]! - 1e-9);
        const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
        expect(sum(fit)).toBeCloseTo(sum(values), 6);
        const sorted = [...values].sort((a, b) => a - b);
        expect(isotonicRegression(sorted)).toEqual(sorted);
      }),
      { seed: 3, numRuns: 200 },
    );
  });
});

describe('fitIsotonicSteps', () => {
  it('maps each input to its pooled block, equal inputs sharing a value', () => {
    const steps = fitIsotonicSteps([
      { x: 0.9, y: 0 },
      { x: 0.1, y: 0 },
      { x: 0.5, y: 1 },
      { x: 0.5, y: 0 },
      { x: 0.7, y: 1 },
    ]);
    // Sorted: 0.1->0, 0.5->0.5 (two pooled), 0.7->1, 0.9->0: the last two pool to 0.5.
    expect(steps).toEqual([
      { x: 0.1, y: 0 },
      { x: 0.5, y: 0.5 },
    ]);
    expect(isotonicValue(steps, 0.05)).toBe(0);
    expect(isotonicValue(steps, 0.6)).toBe(0.5);
    expect(isotonicValue(steps, 1)).toBe(0.5);
  });
});
