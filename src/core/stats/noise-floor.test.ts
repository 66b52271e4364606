import { describe, expect, it } from 'vitest';
import { calibrate, DEFAULT_CALIBRATION } from '../calibration.js';
import { createSeededRandom } from '../seeded-random.js';
import { CaseSampleBuilder } from './case-sample.js';
import { eceNoiseFloor, eceWithinNoise } from './noise-floor.js';

/** A run of n decisions whose outcomes are drawn from `truth(confidence)`. */
function run(n: number, seed: number, truth: (c: number) => number, question = (_i: number) => '') {
  const random = createSeededRandom(seed);
  const b = new CaseSampleBuilder();
  const pairs = [];
  for (let i = 0; i < n; i++) {
    const confidence = 0.5 + 0.5 * random();
    const hit = random() < truth(confidence);
    b.addCase(`c${i}`, { decisions: 1, correct: hit ? 1 : 0, answered: 1 });
    b.addDecision(confidence, hit, question(i));
    pairs.push({ confidence, hit, question: question(i) });
  }
  return { sample: b.build(), ece: calibrate(pairs, DEFAULT_CALIBRATION).ece! };
}

describe('eceNoiseFloor', () => {
  it('calls a perfectly calibrated model within noise about 95% of the time (200 fixed seeds)', () => {
    let within = 0;
    const seeds = 200;
    for (let s = 1; s <= seeds; s++) {
      const { sample, ece } = run(400, s, (c) => c);
      const floor = eceNoiseFloor(sample, DEFAULT_CALIBRATION, { seed: 1000 + s, simulations: 200 })!;
      if (eceWithinNoise(ece, floor)) within++;
    }
    // Binomial(200, 0.95) lies in [183, 198] with probability > 99.5%.
    expect(within / seeds).toBeGreaterThanOrEqual(0.915);
    expect(within / seeds).toBeLessThanOrEqual(0.99);
  });

  it('flags a model over-confident by 0.15 as beyond noise', () => {
    const { sample, ece } = run(2000, 3, (c) => c - 0.15);
    const floor = eceNoiseFloor(sample, DEFAULT_CALIBRATION, { seed: 1 })!;
    expect(ece).toBeGreaterThan(0.1);
    expect(eceWithinNoise(ece, floor)).toBe(false);
    expect(floor.mean).toBeLessThan(floor.p95);
    expect(floor.simulations).toBe(2000);
  });

  it('shrinks like 1/√n and uses the normal approximation for large cells without bias', () => {
    const small = eceNoiseFloor(run(1000, 4, (c) => c).sample, DEFAULT_CALIBRATION, { seed: 1 })!;
    const large = eceNoiseFloor(run(100_000, 4, (c) => c).sample, DEFAULT_CALIBRATION, { seed: 1 })!;
    expect(small.mean / large.mean).toBeGreaterThan(10 * 0.85);
    expect(small.mean / large.mean).toBeLessThan(10 * 1.15);
  });

  it('is identical for the same seed and absent without decisions', () => {
    const { sample } = run(
      300,
      5,
      (c) => c,
      (i) => `q${i % 3}`,
    );
    const options = { bins: 15, binning: 'equal-mass', average: 'per-question' } as const;
    expect(eceNoiseFloor(sample, options, { seed: 9 })).toEqual(eceNoiseFloor(sample, options, { seed: 9 }));
    expect(eceNoiseFloor(sample, options, { seed: 9 })).not.toEqual(eceNoiseFloor(sample, options, { seed: 10 }));
    expect(eceNoiseFloor(new CaseSampleBuilder().build(), DEFAULT_CALIBRATION, { seed: 1 })).toBeNull();
  });
});

describe('eceWithinNoise at the 95th percentile itself', () => {
  /** 30 decisions, 18 at 0.99 and 12 at 0.98, two wrong: ECE is one of few values. */
  function atoms() {
    const b = new CaseSampleBuilder();
    const pairs = [];
    for (let i = 0; i < 30; i++) {
      const confidence = i < 18 ? 0.99 : 0.98;
      const hit = i >= 2;
      b.addCase(`c${i}`, { decisions: 1, correct: hit ? 1 : 0, answered: 1 });
      b.addDecision(confidence, hit, '');
      pairs.push({ confidence, hit, question: '' });
    }
    return { sample: b.build(), ece: calibrate(pairs, DEFAULT_CALIBRATION).ece! };
  }

  it('calls an ECE equal to the percentile up to rounding within noise', () => {
    const { sample, ece } = atoms();
    let landed = 0;
    for (let seed = 1; seed <= 8; seed++) {
      for (const simulations of [500, 2000]) {
        const floor = eceNoiseFloor(sample, DEFAULT_CALIBRATION, { seed, simulations })!;
        // Two wrong of 30 is the 95th percentile here (P(at most one wrong) < 0.95).
        if (Math.abs(floor.p95 - ece) < 1e-9) {
          landed++;
          expect(eceWithinNoise(ece, floor)).toBe(true);
        }
      }
    }
    expect(landed).toBeGreaterThan(0);
  });

  it('still calls an ECE a rounding step above another value beyond noise', () => {
    const { sample } = atoms();
    const floor = eceNoiseFloor(sample, DEFAULT_CALIBRATION, { seed: 2 })!;
    expect(eceWithinNoise(floor.p95 + 1e-6, floor)).toBe(false);
  });
});

describe('eceNoiseFloor on few decisions', () => {
  it('puts the 95th percentile on the same value whatever the seed (2,000 simulations)', () => {
    // 36 decisions at 0.995, 0.99 and 0.98: P(at most one wrong) ≈ 0.93, near 0.95, the
    // situation where 500 simulations put the percentile on one value or the next by seed.
    const b = new CaseSampleBuilder();
    for (let i = 0; i < 36; i++) {
      b.addCase(`c${i}`, { decisions: 1, correct: 1, answered: 1 });
      b.addDecision(i < 12 ? 0.995 : i < 24 ? 0.99 : 0.98, true, '');
    }
    const sample = b.build();
    const p95 = new Set<string>();
    for (let seed = 1; seed <= 8; seed++) p95.add(eceNoiseFloor(sample, DEFAULT_CALIBRATION, { seed })!.p95.toFixed(6));
    expect([...p95]).toHaveLength(1);
  });
});
