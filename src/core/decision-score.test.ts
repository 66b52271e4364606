import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argmaxFirst, brierScore, klDivergence, scoreDecision } from './decision-score.js';

describe('klDivergence', () => {
  it('matches the reference vectors', () => {
    expect(klDivergence([0.5, 0.5], [0.25, 0.75])).toBeCloseTo(0.143841, 6);
    expect(klDivergence([0.3, 0.7], [0.3, 0.7])).toBe(0);
    expect(klDivergence([1, 0], [0.5, 0.5])).toBeCloseTo(Math.LN2, 15);
  });

  it('floors a zero or missing prediction on a gold-positive answer at 1e-12', () => {
    expect(klDivergence([0.5, 0.5], [1, 0])).toBeCloseTo(0.5 * Math.log(0.5) + 0.5 * Math.log(0.5 / 1e-12), 12);
    expect(klDivergence([0.5, 0.5], [1])).toBe(klDivergence([0.5, 0.5], [1, 0]));
  });

  it('is never negative for distributions', () => {
    const dist = fc.array(fc.double({ min: 0.001, max: 1, noNaN: true }), { minLength: 2, maxLength: 6 }).map((xs) => {
      const s = xs.reduce((a, b) => a + b, 0);
      return xs.map((x) => x / s);
    });
    fc.assert(
      fc.property(dist, dist, (g, p) => {
        if (g.length !== p.length) return true;
        return klDivergence(g, p) >= -1e-12;
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});

describe('brierScore', () => {
  it('matches the reference vectors', () => {
    expect(brierScore([1, 0], [0.6, 0.4])).toBeCloseTo(0.32, 15);
    expect(brierScore([0, 1], [1, 0])).toBe(2);
    // {a:1} vs gold {a:.5, x:.5}: the missing prediction counts as 0
    expect(brierScore([0.5, 0.5], [1])).toBe(0.5);
  });
});

describe('argmaxFirst', () => {
  it('gives a tie to the answer listed first', () => {
    expect(argmaxFirst([0.5, 0.5])).toBe(0);
    expect(argmaxFirst([0.2, 0.4, 0.4])).toBe(1);
  });
});

describe('scoreDecision', () => {
  it('predicts b for options b,a at {a:.5,b:.5}', () => {
    // options order: b, a
    const s = scoreDecision({ labelIndex: 1, probabilities: [0, 1] }, [0.5, 0.5]);
    expect(s.predictedIndex).toBe(0);
    expect(s.correct).toBe(false);
    expect(s.confidence).toBe(0.5);
  });

  it('predicts true for a noul at exactly 0.5', () => {
    const s = scoreDecision({ labelIndex: 0, probabilities: [1, 0] }, [0.5, 0.5]);
    expect(s.predictedIndex).toBe(0);
    expect(s.correct).toBe(true);
  });

  it('uses the probabilities, not a server choice: {a:.4,b:.6} predicts b', () => {
    const s = scoreDecision({ labelIndex: 0, probabilities: [1, 0] }, [0.4, 0.6]);
    expect(s.predictedIndex).toBe(1);
    expect(s.correct).toBe(false);
  });

  it('scores a perfect forecast of a one-hot gold at zero', () => {
    const s = scoreDecision({ labelIndex: 2, probabilities: [0, 0, 1] }, [0, 0, 1]);
    expect(s.kl).toBe(0);
    expect(s.brier).toBe(0);
    expect(s.correct).toBe(true);
  });
});
