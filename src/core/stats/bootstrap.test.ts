import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calibrate, type CalibrationOptions } from '../calibration.js';
import { createSeededRandom } from '../seeded-random.js';
import { bootstrapIntervals, intervalsOverlap, pairedBootstrap, verdictOf, type Interval } from './bootstrap.js';
import { CaseSampleBuilder, type CaseSample } from './case-sample.js';
import { withConventions } from './conventions.js';
import { eceNoiseFloor } from './noise-floor.js';
import { wilsonInterval } from './wilson.js';

interface Decision {
  readonly confidence: number;
  readonly hit: boolean;
  readonly brier: number;
  readonly question?: string;
}
interface Case {
  readonly id: string;
  readonly decisions: readonly Decision[];
}

function sampleOf(cases: readonly Case[]): CaseSample {
  const b = new CaseSampleBuilder();
  for (const c of cases) {
    b.addCase(c.id, {
      decisions: c.decisions.length,
      correct: c.decisions.filter((d) => d.hit).length,
      answered: c.decisions.length,
      brier: c.decisions.reduce((s, d) => s + d.brier, 0),
    });
    for (const d of c.decisions) b.addDecision(d.confidence, d.hit, d.question);
  }
  return b.build();
}

/** n one-decision cases, exactly round(p·n) of them right. */
function binomialCases(n: number, p: number, perCase = 1): Case[] {
  const right = Math.round(p * n);
  return Array.from({ length: n }, (_, i) => ({
    id: `c${i}`,
    decisions: Array.from({ length: perCase }, () => ({
      confidence: 0.8,
      hit: i < right,
      brier: i < right ? 0.08 : 1.28,
    })),
  }));
}

const halfWidth = (i: Interval | null): number => (i!.high - i!.low) / 2;
const conventions = withConventions({ seed: 7 });

function shuffle<T>(xs: readonly T[], seed: number): T[] {
  const random = createSeededRandom(seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('bootstrapIntervals', () => {
  it('matches the normal approximation for a binomial without clustering (2,000 decisions, p = 0.73)', () => {
    const r = bootstrapIntervals(sampleOf(binomialCases(2000, 0.73)), conventions);
    const normal = 1.959964 * Math.sqrt((0.73 * 0.27) / 2000);
    expect(normal).toBeCloseTo(0.0195, 4);
    expect(r.estimates.accuracy).toBe(0.73);
    expect(Math.abs(halfWidth(r.intervals.accuracy) / normal - 1)).toBeLessThan(0.05);
    expect(r.resamples).toBe(2000);
  });

  it('widens by √(decisions per case) when the decisions of a case are perfectly correlated', () => {
    const independent = bootstrapIntervals(sampleOf(binomialCases(2000, 0.73)), conventions);
    const clustered = bootstrapIntervals(sampleOf(binomialCases(400, 0.73, 5)), conventions);
    expect(clustered.estimates.accuracy).toBe(0.73);
    const ratio = halfWidth(clustered.intervals.accuracy) / halfWidth(independent.intervals.accuracy);
    expect(Math.abs(ratio / Math.sqrt(5) - 1)).toBeLessThan(0.08);
  });

  it('resampling seeded blocks of cases gives the width of resampling the cases', () => {
    const cases = binomialCases(20_000, 0.6);
    const byCase = bootstrapIntervals(sampleOf(cases), conventions, { blocks: 1_000_000 });
    const byBlock = bootstrapIntervals(sampleOf(cases), conventions, { blocks: 2_000 });
    expect(byCase.units).toBe(20_000);
    expect(byBlock.units).toBe(2_000);
    expect(Math.abs(halfWidth(byBlock.intervals.accuracy) / halfWidth(byCase.intervals.accuracy) - 1)).toBeLessThan(
      0.08,
    );
  });

  it('gives the calibration code’s ECE as its estimate, under every convention', () => {
    const random = createSeededRandom(3);
    const cases: Case[] = Array.from({ length: 300 }, (_, i) => ({
      id: `q${i}`,
      decisions: [0, 1].map((k) => {
        const confidence = 0.3 + 0.7 * random();
        return { confidence, hit: random() < confidence - 0.1, brier: 0, question: `Q${(i + k) % 4}` };
      }),
    }));
    const all = cases.flatMap((c) => c.decisions);
    for (const options of [
      { bins: 10, binning: 'equal-width', average: 'pooled' },
      { bins: 15, binning: 'equal-mass', average: 'pooled' },
      { bins: 7, binning: 'equal-mass', average: 'per-question' },
      { bins: 10, binning: 'equal-width', average: 'per-question' },
    ] as const satisfies readonly CalibrationOptions[]) {
      const r = bootstrapIntervals(
        sampleOf(cases),
        withConventions({ eceBins: options.bins, eceBinning: options.binning, eceAverage: options.average }),
      );
      expect(r.estimates.ece).toBeCloseTo(calibrate(all, options).ece!, 9);
      expect(r.intervals.ece!.low).toBeLessThanOrEqual(r.estimates.ece!);
    }
  });

  it('leaves absent metrics absent and turns intervals off with 0 resamples', () => {
    const b = new CaseSampleBuilder();
    b.addCase('a', { decisions: 1, correct: 1, answered: 1 });
    b.addCase('b', { decisions: 1, correct: 0, answered: 0 });
    const r = bootstrapIntervals(b.build(), conventions);
    expect(r.estimates).toEqual({ accuracy: 0.5, kl: null, brier: null, logLoss: null, ece: null });
    expect(r.intervals.kl).toBeNull();
    expect(r.intervals.accuracy).not.toBeNull();
    const off = bootstrapIntervals(b.build(), withConventions({ bootstrapResamples: 0 }));
    expect(off.intervals.accuracy).toBeNull();
    expect(off.estimates.accuracy).toBe(0.5);
  });

  const decision = fc.record({
    confidence: fc.double({ min: 0, max: 1, noNaN: true }),
    hit: fc.boolean(),
    brier: fc.double({ min: 0, max: 2, noNaN: true }),
    question: fc.constantFrom('x', 'y', 'z'),
  });
  const cases = fc
    .uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 40 })
    .chain((ids) =>
      fc.tuple(
        ...ids.map((id) => fc.array(decision, { minLength: 1, maxLength: 4 }).map((decisions) => ({ id, decisions }))),
      ),
    );
  const small = withConventions({
    bootstrapResamples: 200,
    seed: 11,
    eceAverage: 'per-question',
    eceBinning: 'equal-mass',
  });

  it('always contains the point estimate', () => {
    fc.assert(
      fc.property(cases, (cs) => {
        const r = bootstrapIntervals(sampleOf(cs), small);
        if (r.intervals.accuracy === null) return false;
        for (const m of ['accuracy', 'brier', 'ece'] as const) {
          const i = r.intervals[m];
          // No interval only when every resample agrees (no variation across cases).
          if (i === null) continue;
          if (!(i.low <= r.estimates[m]! && r.estimates[m]! <= i.high && i.low < i.high)) return false;
        }
        return true;
      }),
      { seed: 42, numRuns: 60 },
    );
  });

  it('is identical for the same seed and does not depend on the order of cases or decisions (case and block paths)', () => {
    fc.assert(
      fc.property(cases, fc.integer({ min: 1, max: 1000 }), fc.constantFrom(4, 10_000), (cs, s, blocks) => {
        const reordered = shuffle(cs, s).map((c) => ({ ...c, decisions: shuffle(c.decisions, s + 1) }));
        const a = bootstrapIntervals(sampleOf(cs), small, { blocks });
        const b = bootstrapIntervals(sampleOf(reordered), small, { blocks });
        return JSON.stringify(a) === JSON.stringify(b);
      }),
      { seed: 42, numRuns: 60 },
    );
  });

  it('moves with the seed', () => {
    const s = sampleOf(binomialCases(500, 0.6));
    const a = bootstrapIntervals(s, withConventions({ seed: 1 }));
    const b = bootstrapIntervals(s, withConventions({ seed: 2 }));
    expect(a.intervals.brier).not.toEqual(b.intervals.brier);
    expect(bootstrapIntervals(s, withConventions({ seed: 1 }))).toEqual(a);
  });
});

describe('bootstrapIntervals when every case agrees', () => {
  it('gives accuracy the Wilson interval on the number of cases, never a zero-width one', () => {
    const one = bootstrapIntervals(sampleOf(binomialCases(1, 0)), conventions);
    expect(one.intervals.accuracy).toEqual(wilsonInterval(0, 1));
    expect(one.intervals.accuracy!.high).toBeGreaterThan(0.75);
    const all = bootstrapIntervals(sampleOf(binomialCases(20, 1)), conventions);
    expect(all.intervals.accuracy).toEqual(wilsonInterval(20, 20));
    expect(all.intervals.accuracy!.low).toBeGreaterThan(0.8);
    expect(all.intervals.accuracy!.low).toBeLessThan(0.85);
    // Five decisions per case, all alike: 20 cases are the effective sample, not 100 decisions.
    const clustered = bootstrapIntervals(sampleOf(binomialCases(20, 1, 5)), conventions);
    expect(clustered.intervals.accuracy).toEqual(wilsonInterval(20, 20));
  });

  it('gives no interval (null) for a metric on which every resample agrees', () => {
    const one = bootstrapIntervals(sampleOf(binomialCases(1, 1)), conventions);
    expect(one.estimates.brier).toBeCloseTo(0.08, 9);
    expect(one.intervals.brier).toBeNull();
    expect(one.intervals.ece).toBeNull();
    const mixed = bootstrapIntervals(sampleOf(binomialCases(20, 0.5)), conventions);
    expect(mixed.intervals.brier!.high).toBeGreaterThan(mixed.intervals.brier!.low);
  });
});

describe('pairedBootstrap', () => {
  /** Two runs on the same cases: the second right on `extra` more of them. */
  function pair(n: number, extra: number): [CaseSample, CaseSample] {
    const random = createSeededRandom(5);
    const base = Array.from({ length: n }, () => random() < 0.7);
    const better = [...base];
    let flipped = 0;
    for (let i = 0; i < n && flipped < extra; i++)
      if (!better[i]) {
        better[i] = true;
        flipped++;
      }
    const run = (hits: boolean[]) =>
      sampleOf(
        hits.map((hit, i) => ({ id: `c${i}`, decisions: [{ confidence: 0.7, hit, brier: hit ? 0.18 : 0.98 }] })),
      );
    return [run(base), run(better)];
  }

  it('finds no difference between a run and itself', () => {
    const [a] = pair(500, 0);
    const r = pairedBootstrap(a, a, conventions);
    expect(r.cases).toBe(500);
    for (const m of ['accuracy', 'brier', 'ece'] as const) {
      expect(r.metrics[m].difference).toBe(0);
      expect(r.metrics[m].interval).toEqual({ low: 0, high: 0 });
      expect(r.metrics[m].verdict).toBe('within_noise');
    }
  });

  it('calls a clear gain better in accuracy and Brier (lower is better), and a tiny one within noise', () => {
    const [a, b] = pair(2000, 60);
    const r = pairedBootstrap(a, b, conventions);
    expect(r.metrics.accuracy.difference).toBeCloseTo(0.03, 12);
    expect(r.metrics.accuracy.verdict).toBe('better');
    expect(r.metrics.brier.difference!).toBeLessThan(0);
    expect(r.metrics.brier.verdict).toBe('better');
    const reverse = pairedBootstrap(b, a, conventions);
    expect(reverse.metrics.accuracy.verdict).toBe('worse');
    expect(reverse.metrics.brier.verdict).toBe('worse');
    const [c, d] = pair(2000, 2);
    expect(pairedBootstrap(c, d, conventions).metrics.accuracy.verdict).toBe('within_noise');
  });

  it('is narrower than the unpaired intervals when the runs share their hard cases', () => {
    const [a, b] = pair(2000, 60);
    const paired = halfWidth(pairedBootstrap(a, b, conventions).metrics.accuracy.interval);
    const separate = Math.hypot(
      halfWidth(bootstrapIntervals(a, conventions).intervals.accuracy),
      halfWidth(bootstrapIntervals(b, conventions).intervals.accuracy),
    );
    expect(paired).toBeLessThan(separate / 3);
  });

  it('compares only the cases both runs have, whatever their order', () => {
    const [a, b] = pair(300, 20);
    const trimmed = sampleOf(
      b.ids.slice(0, 250).map((id, i) => ({
        id,
        decisions: [{ confidence: 0.7, hit: b.correct[i] === 1, brier: b.brier[i]! }],
      })),
    );
    const r = pairedBootstrap(a, trimmed, conventions);
    expect(r.cases).toBe(250);
    expect(r.onlyFirst).toBe(50);
    expect(r.onlySecond).toBe(0);
    const reversedInput = sampleOf(
      shuffle(
        trimmed.ids.map((id, i) => ({
          id,
          decisions: [{ confidence: 0.7, hit: trimmed.correct[i] === 1, brier: trimmed.brier[i]! }],
        })),
        9,
      ),
    );
    expect(pairedBootstrap(a, reversedInput, conventions)).toEqual(r);
  });
});

describe('paired bootstrap and noise floor: order and seed', () => {
  const decision = fc.record({
    confidence: fc.double({ min: 0, max: 1, noNaN: true }),
    hit: fc.boolean(),
    brier: fc.double({ min: 0, max: 2, noNaN: true }),
  });
  const run = fc
    .uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 30 })
    .chain((ids) =>
      fc.tuple(
        ...ids.map((id) => fc.array(decision, { minLength: 1, maxLength: 3 }).map((decisions) => ({ id, decisions }))),
      ),
    );
  const small = withConventions({ bootstrapResamples: 100, seed: 5 });

  it('gives the same paired comparison whatever the order of either run (case and block paths)', () => {
    fc.assert(
      fc.property(run, run, fc.integer({ min: 1, max: 1000 }), fc.constantFrom(3, 10_000), (a, b, s, blocks) => {
        const x = pairedBootstrap(sampleOf(a), sampleOf(b), small, { blocks });
        const y = pairedBootstrap(sampleOf(shuffle(a, s)), sampleOf(shuffle(b, s + 7)), small, { blocks });
        return JSON.stringify(x) === JSON.stringify(y);
      }),
      { seed: 42, numRuns: 60 },
    );
  });

  it('gives the same noise floor whatever the order of the decisions', () => {
    fc.assert(
      fc.property(run, fc.integer({ min: 1, max: 1000 }), (a, s) => {
        const options = { bins: 10, binning: 'equal-mass', average: 'pooled' } as const;
        const x = eceNoiseFloor(sampleOf(a), options, { seed: 3, simulations: 50 });
        const y = eceNoiseFloor(sampleOf(shuffle(a, s)), options, { seed: 3, simulations: 50 });
        return JSON.stringify(x) === JSON.stringify(y);
      }),
      { seed: 42, numRuns: 60 },
    );
  });
});

describe('verdicts and overlap', () => {
  it('reads the interval by the metric’s direction', () => {
    expect(verdictOf('accuracy', { low: 0.01, high: 0.02 })).toBe('better');
    expect(verdictOf('accuracy', { low: -0.02, high: -0.01 })).toBe('worse');
    expect(verdictOf('kl', { low: -0.02, high: -0.01 })).toBe('better');
    expect(verdictOf('ece', { low: 0.01, high: 0.02 })).toBe('worse');
    expect(verdictOf('brier', { low: 0, high: 0.02 })).toBe('within_noise');
  });

  it('overlaps when the intervals share a point', () => {
    expect(intervalsOverlap({ low: 0, high: 1 }, { low: 1, high: 2 })).toBe(true);
    expect(intervalsOverlap({ low: 0, high: 1 }, { low: 1.01, high: 2 })).toBe(false);
  });
});
