import { describe, expect, it } from 'vitest';
import { DEFAULT_CALIBRATION } from '../calibration.js';
import { createSeededRandom } from '../seeded-random.js';
import { CaseSampleBuilder, type CaseSample } from './case-sample.js';
import { debiasedEce } from './debiased-ece.js';
import { eceNoiseFloor, eceNoiseOf } from './noise-floor.js';

/**
 * A model whose answers are right with probability confidence − gap, confidences uniform in
 * [low, 1]: its true ECE (ten equal-width bins, given its confidences) is exactly `gap`.
 */
function simulate(n: number, low: number, gap: number, seed: number): CaseSample {
  const random = createSeededRandom(seed);
  const b = new CaseSampleBuilder();
  for (let i = 0; i < n; i++) {
    const confidence = low + (1 - low) * random();
    const hit = random() < confidence - gap;
    b.addCase(`c${i}`, { decisions: 1, correct: hit ? 1 : 0, answered: 1 });
    b.addDecision(confidence, hit);
  }
  return b.build();
}

function estimate(sample: CaseSample, seed: number) {
  const floor = eceNoiseFloor(sample, DEFAULT_CALIBRATION, { seed, simulations: 500 })!;
  const plugIn = debiasedEce(sample, DEFAULT_CALIBRATION, { seed, withinNoise: false, simulations: 0 })!.plugIn;
  return debiasedEce(sample, DEFAULT_CALIBRATION, { seed, withinNoise: eceNoiseOf(plugIn, floor).withinNoise })!;
}

describe('debiased ECE', () => {
  it('starts from the plug-in ECE and removes part of its upward bias', () => {
    let plugIn = 0;
    let debiased = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const e = estimate(simulate(100, 0.5, 0.05, seed), seed);
      plugIn += e.plugIn / 100;
      debiased += e.debiased / 100;
    }
    // True ECE 0.05: the plug-in averages about 0.08 over seeds, the debiased estimate about 0.055.
    expect(plugIn).toBeGreaterThan(0.07);
    expect(Math.abs(debiased - 0.05)).toBeLessThan(Math.abs(plugIn - 0.05) / 2);
  });

  it('gives the plug-in ECE of the calibration code on the same decisions', () => {
    // Four decisions at 0.95, two right: ECE 0.45 (docs/scoring.md).
    const b = new CaseSampleBuilder();
    [true, true, false, false].forEach((hit, i) => {
      b.addCase(`c${i}`, { decisions: 1, correct: hit ? 1 : 0, answered: 1 });
      b.addDecision(0.95, hit);
    });
    const e = debiasedEce(b.build(), DEFAULT_CALIBRATION, { seed: 1, withinNoise: false })!;
    expect(e.plugIn).toBeCloseTo(0.45, 9);
    expect(e.debiased).toBeLessThan(0.45);
    expect(e.interval!.low).toBeLessThanOrEqual(e.debiased);
    expect(e.interval!.high).toBeGreaterThanOrEqual(e.debiased);
  });

  it('does not depend on the order of the decisions, and is absent without any', () => {
    const a = simulate(80, 0.5, 0.1, 3);
    const b = new CaseSampleBuilder();
    for (let i = a.nDecisions - 1; i >= 0; i--) {
      b.addCase(a.ids[i]!, { decisions: 1, correct: a.hit[i]!, answered: 1 });
      b.addDecision(a.confidence[i]!, a.hit[i] === 1);
    }
    expect(estimate(b.build(), 5)).toEqual(estimate(a, 5));
    expect(
      debiasedEce(new CaseSampleBuilder().build(), DEFAULT_CALIBRATION, { seed: 1, withinNoise: true }),
    ).toBeNull();
  });

  /**
   * Coverage, measured: 150 seeds per model, each a fresh sample of decisions; the interval
   * should hold the true ECE about 95% of the time. Tolerance: 90% to 100% (with 150 seeds
   * the binomial standard error of a 95% coverage is 1.8 points, so 90% is almost 3 below).
   * (An independent check found the plug-in ECE's bootstrap interval covering such true ECEs 18–84% of the time.)
   */
  it.each([
    { n: 50, low: 0.5, gap: 0 },
    { n: 100, low: 0.5, gap: 0.05 },
    { n: 300, low: 0.5, gap: 0.1 },
    { n: 30, low: 0.9, gap: 0.15 },
    { n: 1000, low: 0.5, gap: 0.02 },
  ])('holds the true ECE in about 95% of samples: $n decisions, confidence $low to 1, true ECE $gap', (m) => {
    const seeds = 150;
    let covered = 0;
    for (let seed = 1; seed <= seeds; seed++) {
      const e = estimate(simulate(m.n, m.low, m.gap, seed * 7919), seed);
      const i = e.interval!;
      if (i.low <= m.gap + 1e-12 && m.gap <= i.high + 1e-12) covered++;
    }
    expect(covered / seeds).toBeGreaterThanOrEqual(0.9);
  });
});
