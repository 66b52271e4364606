import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OfflineCase, OfflineResult } from './case.js';
import {
  thresholdCurve,
  assignFolds,
  collectTunePoints,
  isBetterThreshold,
  tunePoints,
  tuneThreshold,
  type ThresholdMetrics,
  type TunePoint,
} from './threshold-tuning.js';

/** Points named p0, p1, ... from [probability, positive] pairs. */
function pts(pairs: readonly (readonly [number, boolean])[], costUsd?: number): TunePoint[] {
  return pairs.map(([probability, positive], i) =>
    costUsd === undefined ? { id: `p${i}`, probability, positive } : { id: `p${i}`, probability, positive, costUsd },
  );
}

function metrics(threshold: number, f1: number, accuracy: number): ThresholdMetrics {
  return {
    threshold,
    n: 10,
    confusion: { tp: 1, fp: 1, fn: 1, tn: 7 },
    precision: 0.5,
    recall: 0.5,
    f1,
    accuracy,
    errorCostPerCall: null,
    meetsFloors: true,
  };
}

describe('tunePoints', () => {
  it('moves the threshold below 0.5 when real positives score just under it', () => {
    const r = tunePoints(
      pts([
        [0.9, true],
        [0.47, true],
        [0.45, true],
        [0.3, false],
        [0.2, false],
        [0.1, false],
      ]),
    );
    expect(r.default.threshold).toBe(0.5);
    expect(r.default.confusion).toEqual({ tp: 1, fp: 0, fn: 2, tn: 3 });
    expect(r.default.recall).toBeCloseTo(1 / 3, 12);
    expect(r.tuned.threshold).toBe(0.45);
    expect(r.tuned.f1).toBe(1);
    expect(r.tuned.accuracy).toBe(1);
    expect(r.floorsMet).toBe(true);
  });

  it('counts p exactly at the threshold as yes', () => {
    const r = tunePoints(
      pts([
        [0.5, true],
        [0.2, false],
        [0.6, true],
        [0.1, false],
      ]),
    );
    expect(r.default.confusion.tp).toBe(2);
  });

  it('uses the distinct observed probabilities as candidates', () => {
    const r = tunePoints(
      pts([
        [0.7, true],
        [0.7, false],
        [0.4, true],
        [0.2, false],
        [0.2, true],
      ]),
    );
    expect(r.candidates).toBe(3);
    expect([0.7, 0.4, 0.2]).toContain(r.tuned.threshold);
  });

  it('breaks an F1 tie by higher accuracy before closeness to 0.5', () => {
    // At 0.9: TP 1, FP 0 -> F1 2/3, accuracy 4/5. At 0.6: TP 2, FP 2 -> F1 2/3, accuracy 3/5.
    const r = tunePoints(
      pts([
        [0.9, true],
        [0.8, false],
        [0.7, false],
        [0.6, true],
        [0.1, false],
      ]),
    );
    expect(r.tuned.f1).toBeCloseTo(2 / 3, 12);
    expect(r.tuned.threshold).toBe(0.9);
    expect(r.tuned.accuracy).toBe(0.8);
  });

  it('prefers the threshold closer to 0.5 when F1 and accuracy tie, then the lower one', () => {
    expect(isBetterThreshold(metrics(0.45, 0.8, 0.9), metrics(0.3, 0.8, 0.9), null)).toBe(true);
    expect(isBetterThreshold(metrics(0.3, 0.8, 0.9), metrics(0.45, 0.8, 0.9), null)).toBe(false);
    expect(isBetterThreshold(metrics(0.4, 0.8, 0.9), metrics(0.6, 0.8, 0.9), null)).toBe(true);
    expect(isBetterThreshold(metrics(0.2, 0.8, 0.95), metrics(0.5, 0.8, 0.9), null)).toBe(true);
    expect(isBetterThreshold(metrics(0.2, 0.81, 0.5), metrics(0.5, 0.8, 0.9), null)).toBe(true);
  });

  it('selects the best F1 among thresholds meeting the floors', () => {
    const data = pts([
      [0.95, true],
      [0.9, true],
      [0.8, false],
      [0.7, true],
      [0.6, true],
      [0.4, false],
      [0.3, false],
      [0.2, false],
    ]);
    const free = tunePoints(data);
    expect(free.tuned.threshold).toBe(0.6); // TP 4 FP 1: F1 8/9
    const strict = tunePoints(data, { minPrecision: 1 });
    expect(strict.tuned.threshold).toBe(0.9);
    expect(strict.tuned.precision).toBe(1);
    expect(strict.floorsMet).toBe(true);
    expect(strict.tuned.f1).toBeLessThan(free.tuned.f1);
  });

  it('reports the best-F1 threshold, flagged, when no threshold meets the floors', () => {
    const data = pts([
      [0.9, true],
      [0.8, false],
      [0.7, true],
      [0.2, false],
    ]);
    const r = tunePoints(data, { minPrecision: 1, minRecall: 1 });
    expect(r.floorsMet).toBe(false);
    expect(r.tuned.meetsFloors).toBe(false);
    expect(r.tuned.threshold).toBe(tunePoints(data).tuned.threshold);
    expect(r.floors).toEqual({ minPrecision: 1, minRecall: 1 });
  });

  it('minimises expected error cost with --cost-fp/--cost-fn instead of maximising F1', () => {
    const data = pts([
      [0.9, true],
      [0.6, false],
      [0.55, false],
      [0.4, true],
      [0.3, false],
      [0.1, false],
    ]);
    expect(tunePoints(data).tuned.threshold).toBe(0.9);
    // Missing a yes costs 10, a false yes 1: taking everything down to 0.4 costs 2, not 10.
    const r = tunePoints(data, { costs: { falsePositive: 1, falseNegative: 10 } });
    expect(r.objective).toBe('cost');
    expect(r.tuned.threshold).toBe(0.4);
    expect(r.tuned.errorCostPerCall).toBeCloseTo(2 / 6, 12);
    expect(r.default.errorCostPerCall).toBeCloseTo(12 / 6, 12); // at 0.5: FP 2, FN 1
  });

  it('leaves error cost absent without costs', () => {
    const r = tunePoints(
      pts([
        [0.9, true],
        [0.1, false],
      ]),
    );
    expect(r.objective).toBe('f1');
    expect(r.default.errorCostPerCall).toBeNull();
    expect(r.costs).toBeNull();
  });

  it('shows spend per 100 calls equal at every threshold and spend per correct decision moving', () => {
    const r = tunePoints(
      pts(
        [
          [0.9, true],
          [0.47, true],
          [0.45, true],
          [0.3, false],
          [0.2, false],
          [0.1, false],
        ],
        0.0008,
      ),
    );
    expect(r.default.costPer100Usd).toBeCloseTo(0.08, 12);
    expect(r.tuned.costPer100Usd).toBe(r.default.costPer100Usd);
    expect(r.default.costPerCorrectUsd).toBeCloseTo(0.0048 / 4, 12);
    expect(r.tuned.costPerCorrectUsd).toBeCloseTo(0.0048 / 6, 12);
  });

  it('leaves spend absent when no result carries a cost', () => {
    const r = tunePoints(
      pts([
        [0.9, true],
        [0.1, false],
      ]),
    );
    expect(r.default.costPer100Usd).toBeNull();
    expect(r.default.costPerCorrectUsd).toBeNull();
    expect(r.totalCostUsd).toBeNull();
  });

  it('refuses data with only one class', () => {
    expect(() =>
      tunePoints(
        pts([
          [0.9, true],
          [0.2, true],
        ]),
      ),
    ).toThrow(/both classes/);
    expect(() => tunePoints(pts([[0.9, false]]))).toThrow(/0 yes and 1 no/);
    expect(() => tunePoints([])).toThrow(/both classes/);
  });
});

describe('cross-validation', () => {
  const many = pts(Array.from({ length: 40 }, (_, i) => [((i * 37) % 100) / 100, i % 3 === 0] as const));

  it('uses k = min(folds, positives, negatives)', () => {
    expect(tunePoints(many).crossValidated?.k).toBe(5);
    expect(tunePoints(many, { folds: 3 }).crossValidated?.k).toBe(3);
    const few = pts([
      [0.9, true],
      [0.8, true],
      [0.7, true],
      [0.3, false],
      [0.2, false],
      [0.6, false],
    ]);
    expect(tunePoints(few).crossValidated?.k).toBe(3);
  });

  it('explains why the cross-validated row is missing with fewer than 2 of a class', () => {
    const r = tunePoints(
      pts([
        [0.9, true],
        [0.3, false],
        [0.2, false],
        [0.6, false],
      ]),
    );
    expect(r.crossValidated).toBeNull();
    expect(r.crossValidationSkipped).toMatch(/at least 2 cases of each class \(found 1 yes, 3 no\)/);
  });

  it('selects a threshold per fold and scores each held-out fold once', () => {
    const cv = tunePoints(many, { seed: 7 }).crossValidated!;
    expect(cv.folds).toHaveLength(5);
    expect(cv.folds.reduce((s, f) => s + f.heldOut.n, 0)).toBe(many.length);
    for (const f of cv.folds) expect(f.heldOut.threshold).toBe(f.threshold);
    expect(cv.correct).toBe(cv.folds.reduce((s, f) => s + f.heldOut.confusion.tp + f.heldOut.confusion.tn, 0));
    const mean = cv.f1.mean;
    expect(mean).toBeCloseTo(cv.folds.reduce((s, f) => s + f.heldOut.f1, 0) / 5, 12);
    expect(cv.f1.min).toBeLessThanOrEqual(mean);
    expect(cv.f1.max).toBeGreaterThanOrEqual(mean);
  });

  it('builds stratified folds: each class spread as evenly as it can be', () => {
    const folds = assignFolds(many, 5, 1);
    const pos = [0, 0, 0, 0, 0];
    const neg = [0, 0, 0, 0, 0];
    many.forEach((p, i) => (p.positive ? pos : neg)[folds[i]!]!++);
    expect(Math.max(...pos) - Math.min(...pos)).toBeLessThanOrEqual(1);
    expect(Math.max(...neg) - Math.min(...neg)).toBeLessThanOrEqual(1);
    const sizes = pos.map((p, i) => p + neg[i]!);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(pos.every((n) => n > 0) && neg.every((n) => n > 0)).toBe(true);
  });

  it('builds the same folds for the same seed, whatever the input order', () => {
    const a = assignFolds(many, 5, 42);
    const b = assignFolds([...many].reverse(), 5, 42);
    expect([...b].reverse()).toEqual(a);
  });

  it('builds different folds for different seeds', () => {
    const a = assignFolds(many, 5, 1);
    const b = assignFolds(many, 5, 2);
    expect(a).not.toEqual(b);
  });
});

describe('collectTunePoints', () => {
  it('keeps yes_no cases with a result and counts those without one', () => {
    const cases: OfflineCase[] = [
      { id: 'a', kind: 'yes_no', correct: true },
      { id: 'b', kind: 'yes_no', correct: false },
      { id: 'c', kind: 'choice', options: ['x', 'y'], correct: 'x', correctIndex: 0 },
      { id: 'd', kind: 'yes_no', correct: false },
    ];
    const results: OfflineResult[] = [
      { caseId: 'a', model: 'm', decision: { kind: 'yes_no', probability: 0.8 }, costUsd: 0.01 },
      { caseId: 'b', model: 'm', decision: { kind: 'yes_no', probability: 0.3 } },
      { caseId: 'c', model: 'm', decision: { kind: 'choice', probabilities: [0.6, 0.4] } },
    ];
    const { points, missing } = collectTunePoints(cases, results);
    expect(points).toEqual([
      { id: 'a', probability: 0.8, positive: true, costUsd: 0.01 },
      { id: 'b', probability: 0.3, positive: false },
    ]);
    expect(missing).toBe(1);
    expect(tuneThreshold(cases, results).missing).toBe(1);
  });
});

describe('tune properties', () => {
  const data = fc
    .array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean()), { minLength: 2, maxLength: 60 })
    .map((pairs) => [[0.5, true] as const, [0.5, false] as const, ...pairs])
    .map((pairs) => pts(pairs));

  it('never tunes to a lower F1 than the default threshold on its own data', () => {
    fc.assert(
      fc.property(data, (points) => {
        const r = tunePoints(points);
        return r.tuned.f1 >= r.default.f1;
      }),
      { seed: 42, numRuns: 200 },
    );
  });

  it('keeps cross-validated metrics in [0, 1]', () => {
    fc.assert(
      fc.property(data, fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 2, max: 6 }), (points, seed, folds) => {
        const cv = tunePoints(points, { seed, folds, minPrecision: 0.5 }).crossValidated;
        if (cv === null) return true;
        return [cv.precision, cv.recall, cv.f1, cv.accuracy].every(
          (s) => s.mean >= 0 && s.mean <= 1 && s.min >= 0 && s.max <= 1 && s.sd >= 0,
        );
      }),
      { seed: 42, numRuns: 200 },
    );
  });
});

describe('thresholdCurve', () => {
  it('gives the same metrics as tuning at the default threshold, at every step', () => {
    const points = [0.1, 0.3, 0.5, 0.55, 0.8, 0.95].map((probability, i) => ({
      id: String(i),
      probability,
      positive: i % 2 === 1,
    }));
    const curve = thresholdCurve(points);
    expect(curve).toHaveLength(101);
    expect(curve[0]!.threshold).toBe(0);
    expect(curve[100]!.threshold).toBe(1);
    const half = curve[50]!;
    const { confusion, precision, recall, f1 } = tunePoints(points).default;
    expect(half.confusion).toEqual(confusion);
    expect([half.precision, half.recall, half.f1]).toEqual([precision, recall, f1]);
    expect(curve[0]!.recall).toBe(1);
    expect(curve[100]!.confusion.tp + curve[100]!.confusion.fp).toBe(0);
  });
});
