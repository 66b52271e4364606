import { describe, expect, it } from 'vitest';
import { percentile, summarizeLatency } from './percentile.js';

describe('percentile', () => {
  it('interpolates linearly at rank (n - 1) * q', () => {
    expect(percentile([10, 20, 30, 40], 0.5)).toBe(25);
    expect(percentile([40, 10, 30, 20], 0.95)).toBeCloseTo(38.5, 12);
    expect(percentile([7], 0.95)).toBe(7);
  });

  it('is absent with no values', () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(summarizeLatency([])).toEqual({ n: 0, p50: null, p95: null, mean: null });
  });
});
