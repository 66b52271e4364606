import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binOf, calibrate } from './calibration.js';

describe('calibrate', () => {
  it('puts confidences 1.0 and 0.0 in the first and last bins', () => {
    const c = calibrate([
      { confidence: 1, hit: true },
      { confidence: 0, hit: false },
    ]);
    expect(c.bins.map((b) => [b.lower, b.upper])).toEqual([
      [0, 0.1],
      [0.9, 1],
    ]);
  });

  it('gives ECE 0.45 for four decisions at 0.95 with two right', () => {
    const c = calibrate([0, 1, 2, 3].map((i) => ({ confidence: 0.95, hit: i < 2 })));
    expect(c.ece).toBeCloseTo(0.45, 15);
    expect(c.bins).toHaveLength(1);
    expect(c.bins[0]!.gap).toBeCloseTo(-0.45, 15);
  });

  it('is absent with no decisions', () => {
    const c = calibrate([]);
    expect(c.ece).toBeNull();
    expect(c.meanConfidence).toBeNull();
    expect(c.bins).toEqual([]);
  });

  it('bins by min(floor(c * 10), 9)', () => {
    expect(binOf(0.0999)).toBe(0);
    expect(binOf(0.1)).toBe(1);
    expect(binOf(0.95)).toBe(9);
    expect(binOf(1)).toBe(9);
  });

  it('keeps ECE in [0, 1] and independent of order', () => {
    const pairs = fc.array(fc.record({ confidence: fc.double({ min: 0, max: 1, noNaN: true }), hit: fc.boolean() }), {
      minLength: 1,
      maxLength: 60,
    });
    fc.assert(
      fc.property(pairs, (ps) => {
        const a = calibrate(ps);
        const b = calibrate([...ps].reverse());
        return a.ece !== null && a.ece >= 0 && a.ece <= 1 && a.ece === b.ece && a.meanConfidence === b.meanConfidence;
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});
