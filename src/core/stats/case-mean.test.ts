import { describe, expect, it } from 'vitest';
import { caseMeanInterval } from './case-mean.js';
import { withConventions } from './conventions.js';

const conventions = withConventions({ seed: 5, bootstrapResamples: 500 });

describe('caseMeanInterval', () => {
  it('is a point when every case has the same mean, and null without cases or resamples', () => {
    const units = Array.from({ length: 20 }, (_, i) => ({ id: `c${i}`, sum: 0.25 * 4, count: 4 }));
    const i = caseMeanInterval(units, conventions)!;
    expect(i.low).toBeCloseTo(0.25, 12);
    expect(i.high).toBeCloseTo(0.25, 12);
    expect(caseMeanInterval([], conventions)).toBeNull();
    expect(caseMeanInterval(units, withConventions({ bootstrapResamples: 0 }))).toBeNull();
  });

  it('contains the mean of sums over counts, takes negative values, and does not depend on input order', () => {
    const units = Array.from({ length: 30 }, (_, i) => ({ id: `c${i}`, sum: ((i % 7) - 3) / 2, count: 1 + (i % 3) }));
    const mean = units.reduce((s, u) => s + u.sum, 0) / units.reduce((s, u) => s + u.count, 0);
    const i = caseMeanInterval(units, conventions)!;
    expect(i.low).toBeLessThan(mean);
    expect(i.high).toBeGreaterThan(mean);
    expect(i.low).toBeLessThan(0);
    expect(caseMeanInterval([...units].reverse(), conventions)).toEqual(i);
  });
});
