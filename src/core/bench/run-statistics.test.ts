import fc from 'fast-check';
import { wilsonInterval } from '../stats/wilson.js';
import { describe, expect, it } from 'vitest';
import { caseSampleOfRun, HEADLINE_METRICS, statisticsOfRun } from './run-statistics.js';
import { createFailedRun, createMixedRun } from './test-support/bench-run-fixture.js';
import { DEFAULT_CONVENTIONS, withConventions } from '../stats/conventions.js';
import { bootstrapIntervals } from '../stats/bootstrap.js';

const run = createMixedRun();
const s = run.summary;
const estimates = { accuracy: s.accuracy, kl: s.kl, brier: s.brier, logLoss: s.logLoss, ece: s.ece };

describe('caseSampleOfRun', () => {
  it('keeps one entry per case with its decisions, and the answered decisions for ECE', () => {
    const sample = caseSampleOfRun(run.cases);
    expect(sample.nCases).toBe(run.cases.length);
    expect([...sample.decisions].reduce((a, b) => a + b, 0)).toBe(s.total);
    expect([...sample.correct].reduce((a, b) => a + b, 0)).toBe(s.correct);
    expect([...sample.answered].reduce((a, b) => a + b, 0)).toBe(s.answered);
    expect(sample.nDecisions).toBe(s.answered);
    // The sample's own point estimates are the summary's.
    const own = bootstrapIntervals(sample, withConventions({ bootstrapResamples: 0 })).estimates;
    for (const m of HEADLINE_METRICS) expect(own[m]).toBeCloseTo(estimates[m]!, 9);
  });
});

describe('statisticsOfRun', () => {
  it('gives each headline metric an interval containing the summary’s number', () => {
    const st = statisticsOfRun(run.cases, DEFAULT_CONVENTIONS, { intervals: true, estimates });
    for (const m of HEADLINE_METRICS) {
      const ci = st.intervals![m]!;
      expect(ci.low).toBeLessThanOrEqual(estimates[m]!);
      expect(ci.high).toBeGreaterThanOrEqual(estimates[m]!);
    }
    expect(st.cases).toBe(5);
    // Within noise at or below the percentile, or tied with it up to the estimate's upper end.
    expect(st.eceNoise!.withinNoise).toBe(s.ece! <= st.eceNoise!.p95Upper + 1e-9);
    expect(st.eceNoise!.tie).toBe(st.eceNoise!.withinNoise && s.ece! > st.eceNoise!.p95 + 1e-9);
  });

  it('is the same for the same seed whatever the order of the cases, and moves with the seed', () => {
    const a = statisticsOfRun(run.cases, DEFAULT_CONVENTIONS, { intervals: true, estimates });
    fc.assert(
      fc.property(fc.shuffledSubarray([...run.cases], { minLength: run.cases.length }), (shuffled) => {
        expect(statisticsOfRun(shuffled, DEFAULT_CONVENTIONS, { intervals: true, estimates })).toEqual(a);
      }),
      { seed: 14, numRuns: 20 },
    );
    const other = statisticsOfRun(run.cases, withConventions({ seed: 99 }), { intervals: true, estimates });
    expect(other.intervals).not.toEqual(a.intervals);
  });

  it('computes nothing with intervals off, and leaves absent metrics without an interval', () => {
    expect(statisticsOfRun(run.cases, DEFAULT_CONVENTIONS, { intervals: false, estimates })).toMatchObject({
      intervals: null,
      eceNoise: null,
    });
    const failed = createFailedRun();
    const f = failed.summary;
    const st = statisticsOfRun(failed.cases, DEFAULT_CONVENTIONS, {
      intervals: true,
      estimates: { accuracy: f.accuracy, kl: f.kl, brier: f.brier, logLoss: f.logLoss, ece: f.ece },
    });
    // Every case wrong: no zero-width interval, the Wilson interval of 0 on the cases.
    expect(st.intervals!.accuracy).toEqual(wilsonInterval(0, st.cases));
    expect(st.intervals!.accuracy!.high).toBeGreaterThan(0);
    expect([st.intervals!.kl, st.intervals!.ece, st.eceNoise]).toEqual([null, null, null]);
  });
});
