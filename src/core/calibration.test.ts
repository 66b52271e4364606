import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binOf, calibrate, CalibrationAccumulator, DEFAULT_CALIBRATION } from './calibration.js';

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

describe('calibrate under other conventions', () => {
  const pairs = [0.55, 0.6, 0.62, 0.7, 0.71, 0.8, 0.9, 0.95].map((confidence, i) => ({ confidence, hit: i % 2 === 0 }));

  it('cuts 15 equal-width bins by min(floor(c * 15), 14)', () => {
    expect(binOf(0.999, 15)).toBe(14);
    expect(binOf(1, 15)).toBe(14);
    const c = calibrate(pairs, { bins: 15, binning: 'equal-width', average: 'pooled' });
    expect(c.bins.map((b) => b.index)).toEqual([8, 9, 10, 12, 13, 14]);
    expect(c.bins[0]!.lower).toBeCloseTo(8 / 15, 15);
  });

  it('puts equal numbers of decisions in equal-mass bins, with edges at observed confidences', () => {
    const c = calibrate(pairs, { bins: 4, binning: 'equal-mass', average: 'pooled' });
    expect(c.bins.map((b) => b.n)).toEqual([2, 2, 2, 2]);
    expect(c.bins.map((b) => [b.lower, b.upper])).toEqual([
      [0, 0.6],
      [0.6, 0.7],
      [0.7, 0.8],
      [0.8, 1],
    ]);
    // Each bin holds one hit of two: ECE = mean |0.5 - mean confidence| over the bins.
    const want = (Math.abs(0.5 - 0.575) + Math.abs(0.5 - 0.66) + Math.abs(0.5 - 0.755) + Math.abs(0.5 - 0.925)) / 4;
    expect(c.ece).toBeCloseTo(want, 15);
  });

  it('keeps equal confidences in one equal-mass bin', () => {
    const c = calibrate(
      [0.7, 0.7, 0.7, 0.7, 0.9].map((confidence) => ({ confidence, hit: true })),
      { bins: 2, binning: 'equal-mass', average: 'pooled' },
    );
    expect(c.bins.map((b) => b.n)).toEqual([4, 1]);
  });

  it('averages per question with each question weighing 1', () => {
    const q = [
      ...[0, 1, 2, 3].map((i) => ({ confidence: 0.95, hit: i < 2, question: 'a' })), // ECE 0.45
      { confidence: 0.85, hit: true, question: 'b' }, // ECE 0.15
    ];
    const per = calibrate(q, { bins: 10, binning: 'equal-width', average: 'per-question' });
    expect(per.ece).toBeCloseTo((0.45 + 0.15) / 2, 15);
    const pooled = calibrate(q);
    expect(pooled.ece).toBeCloseTo((4 * 0.45 + 0.15) / 5, 15);
    // The table stays pooled.
    expect(per.bins).toEqual(pooled.bins);
  });

  it('does not depend on order under any convention', () => {
    const options = [
      { bins: 7, binning: 'equal-mass', average: 'per-question' },
      { bins: 15, binning: 'equal-width', average: 'per-question' },
    ] as const;
    const triples = fc.array(
      fc.record({
        confidence: fc.double({ min: 0, max: 1, noNaN: true }),
        hit: fc.boolean(),
        question: fc.constantFrom('x', 'y'),
      }),
      { minLength: 1, maxLength: 60 },
    );
    fc.assert(
      fc.property(triples, fc.constantFrom(...options), (ts, o) => {
        const a = calibrate(ts, o);
        const b = calibrate([...ts].reverse(), o);
        return a.ece !== null && a.ece >= 0 && a.ece <= 1 && JSON.stringify(a) === JSON.stringify(b);
      }),
      { seed: 42, numRuns: 200 },
    );
  });
});

describe('CalibrationAccumulator merge', () => {
  const pairs = Array.from({ length: 200 }, (_, i) => ({
    confidence: ((i * 37) % 101) / 100,
    hit: i % 3 === 0,
    question: `q${i % 4}`,
  }));
  for (const options of [
    DEFAULT_CALIBRATION,
    { bins: 7, binning: 'equal-mass', average: 'pooled' },
    { bins: 5, binning: 'equal-width', average: 'per-question' },
    { bins: 4, binning: 'equal-mass', average: 'per-question' },
  ] as const) {
    it(`gives what adding every pair to one gives (${options.binning}, ${options.average})`, () => {
      const parts = [0, 1, 2].map(() => new CalibrationAccumulator(options));
      pairs.forEach((p, i) => parts[i % 3]!.add(p.confidence, p.hit, p.question));
      const merged = new CalibrationAccumulator(options);
      for (const part of parts) merged.merge(part);
      expect(merged.n).toBe(pairs.length);
      expect(merged.summarize()).toEqual(calibrate(pairs, options));
    });
  }
});
