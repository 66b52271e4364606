import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../seeded-random.js';
import { DEFAULT_CONVENTIONS } from './conventions.js';
import { pairRanking, rankingCurves, rankingMetrics, rankYesNo, type RankedDecisions } from './ranking.js';

function decisions(scores: readonly number[], labels: readonly number[]): RankedDecisions {
  return {
    ids: scores.map((_, i) => `c${String(i).padStart(4, '0')}`),
    scores: Float64Array.from(scores),
    positive: Uint8Array.from(labels),
  };
}

/** Every (positive, negative) pair: 1 when the positive scores higher, ½ on a tie. */
function pairwiseAuc(scores: readonly number[], labels: readonly number[]): number | null {
  let credit = 0;
  let pairs = 0;
  for (let i = 0; i < scores.length; i++)
    for (let j = 0; j < scores.length; j++) {
      if (labels[i] !== 1 || labels[j] !== 0) continue;
      pairs++;
      credit += scores[i]! > scores[j]! ? 1 : scores[i] === scores[j] ? 0.5 : 0;
    }
  return pairs === 0 ? null : credit / pairs;
}

/** Σ over distinct thresholds t, highest first, of (recall(t) − recall(previous t)) · precision(t), yes iff score ≥ t. */
function thresholdWiseAp(scores: readonly number[], labels: readonly number[]): number | null {
  const positives = labels.filter((l) => l === 1).length;
  if (positives === 0) return null;
  const thresholds = [...new Set(scores)].sort((a, b) => b - a);
  let ap = 0;
  let previousRecall = 0;
  for (const t of thresholds) {
    const called = scores.map((s, i) => ({ s, l: labels[i]! })).filter((x) => x.s >= t);
    const tp = called.filter((x) => x.l === 1).length;
    const recall = tp / positives;
    ap += (recall - previousRecall) * (tp / called.length);
    previousRecall = recall;
  }
  return ap;
}

const noIntervals = { ...DEFAULT_CONVENTIONS, bootstrapResamples: 0 };

describe('ROC AUC and average precision', () => {
  it('give the textbook values of a four-case example', () => {
    const m = rankingMetrics(decisions([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]));
    expect(m.auc).toBe(0.75);
    expect(m.averagePrecision).toBeCloseTo(5 / 6, 15);
    expect(m).toMatchObject({ positives: 2, negatives: 2 });
  });

  it('give half credit to ties: every score equal is AUC 0.5 and AP the share of positives', () => {
    const m = rankingMetrics(decisions([0.7, 0.7, 0.7, 0.7, 0.7], [1, 0, 0, 1, 0]));
    expect(m.auc).toBe(0.5);
    expect(m.averagePrecision).toBe(0.4);
  });

  it('are 1 for a perfect ranking and AUC 0 for a reversed one', () => {
    expect(rankingMetrics(decisions([0.9, 0.8, 0.2, 0.1], [1, 1, 0, 0]))).toMatchObject({
      auc: 1,
      averagePrecision: 1,
    });
    expect(rankingMetrics(decisions([0.1, 0.2, 0.8, 0.9], [1, 1, 0, 0])).auc).toBe(0);
  });

  it('are absent without both classes (AUC) or without positives (AP)', () => {
    expect(rankingMetrics(decisions([0.9, 0.1], [1, 1]))).toMatchObject({ auc: null, averagePrecision: 1 });
    expect(rankingMetrics(decisions([0.9, 0.1], [0, 0]))).toMatchObject({ auc: null, averagePrecision: null });
  });

  it('match a pairwise AUC and a threshold-by-threshold AP on random data with ties', () => {
    const random = createSeededRandom(7);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(random() * 60);
      // Few distinct scores, so ties are common.
      const scores = Array.from({ length: n }, () => Math.round(random() * 10) / 10);
      const labels = scores.map((s) => (random() < 0.3 + 0.4 * s ? 1 : 0));
      const m = rankingMetrics(decisions(scores, labels));
      const auc = pairwiseAuc(scores, labels);
      const ap = thresholdWiseAp(scores, labels);
      if (auc === null) expect(m.auc).toBeNull();
      else expect(m.auc).toBeCloseTo(auc, 12);
      if (ap === null) expect(m.averagePrecision).toBeNull();
      else expect(m.averagePrecision).toBeCloseTo(ap, 12);
    }
  });

  it('do not depend on the order of the decisions', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 1 })), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.integer(),
        (rows, shift) => {
          const k = Math.abs(shift) % rows.length;
          const turned = [...rows.slice(k), ...rows.slice(0, k)].reverse();
          const a = rankingMetrics(
            decisions(
              rows.map((r) => r[0] / 5),
              rows.map((r) => r[1]),
            ),
          );
          const b = rankingMetrics(
            decisions(
              turned.map((r) => r[0] / 5),
              turned.map((r) => r[1]),
            ),
          );
          expect(b).toEqual(a);
        },
      ),
      { seed: 1, numRuns: 200 },
    );
  });
});

describe('ranking curves', () => {
  it('run from (0, 0) to (1, 1) with one point per distinct score, ties in one step', () => {
    const c = rankingCurves(decisions([0.9, 0.5, 0.5, 0.1], [1, 1, 0, 0]));
    expect(c.roc).toEqual([
      { x: 0, y: 0, threshold: null },
      { x: 0, y: 0.5, threshold: 0.9 },
      { x: 0.5, y: 1, threshold: 0.5 },
      { x: 1, y: 1, threshold: 0.1 },
    ]);
    expect(c.precisionRecall).toEqual([
      { x: 0.5, y: 1, threshold: 0.9 },
      { x: 1, y: 2 / 3, threshold: 0.5 },
      { x: 1, y: 0.5, threshold: 0.1 },
    ]);
  });
});

describe('ranking intervals', () => {
  const random = createSeededRandom(3);
  const scores = Array.from({ length: 120 }, () => random());
  const labels = scores.map((s) => (random() < s ? 1 : 0));
  const d = decisions(scores, labels);

  it('contain their estimate and are reproducible whatever the order of the cases', () => {
    const r = rankYesNo(d, DEFAULT_CONVENTIONS);
    expect(r.aucInterval!.low).toBeLessThanOrEqual(r.auc!);
    expect(r.aucInterval!.high).toBeGreaterThanOrEqual(r.auc!);
    expect(r.averagePrecisionInterval!.low).toBeLessThan(r.averagePrecisionInterval!.high);
    const order = d.ids.map((_, i) => i).reverse();
    const reversed: RankedDecisions = {
      ids: order.map((i) => d.ids[i]!),
      scores: Float64Array.from(order, (i) => d.scores[i]!),
      positive: Uint8Array.from(order, (i) => d.positive[i]!),
    };
    const again = rankYesNo(reversed, DEFAULT_CONVENTIONS);
    expect(again.aucInterval).toEqual(r.aucInterval);
    expect(again.averagePrecisionInterval).toEqual(r.averagePrecisionInterval);
  });

  it('are absent with intervals off', () => {
    const r = rankYesNo(d, noIntervals);
    expect(r.auc).not.toBeNull();
    expect(r.aucInterval).toBeNull();
  });

  it('pair two models: a model against itself differs by 0, within noise; a better ranker is better', () => {
    const same = pairRanking(d, d, DEFAULT_CONVENTIONS);
    expect(same.auc).toMatchObject({ difference: 0, verdict: 'within_noise' });
    const sharp = { scores: Float64Array.from(labels, (l, i) => (l === 1 ? 0.6 : 0.4) + scores[i]! / 10) };
    const better = pairRanking(d, sharp, DEFAULT_CONVENTIONS);
    expect(better.auc.second).toBe(1);
    expect(better.auc.verdict).toBe('better');
    expect(better.averagePrecision.verdict).toBe('better');
  });

  it('above 10,000 cases, resamples linearised by influence give the exact bootstrap interval, whatever the order', () => {
    const big = createSeededRandom(11);
    const n = 12_000;
    const p = Array.from({ length: n }, () => Math.round(big() * 200) / 200);
    const l = p.map((x) => (big() < 0.2 + 0.6 * x ? 1 : 0));
    const many = decisions(p, l);
    const few = { ...DEFAULT_CONVENTIONS, bootstrapResamples: 400 };
    const exact = rankYesNo(many, few, { exactUpTo: Infinity });
    const linear = rankYesNo(many, few);
    expect(linear.auc).toBe(exact.auc);
    for (const key of ['aucInterval', 'averagePrecisionInterval'] as const) {
      const e = exact[key]!;
      const w = linear[key]!;
      const width = e.high - e.low;
      expect(Math.abs(w.low - e.low)).toBeLessThan(0.1 * width);
      expect(Math.abs(w.high - e.high)).toBeLessThan(0.1 * width);
    }
    const order = many.ids.map((_, i) => i).reverse();
    const reversed: RankedDecisions = {
      ids: order.map((i) => many.ids[i]!),
      scores: Float64Array.from(order, (i) => many.scores[i]!),
      positive: Uint8Array.from(order, (i) => many.positive[i]!),
    };
    expect(rankYesNo(reversed, few)).toEqual(linear);
  });
});
