import { given } from '../given.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChoiceCase, OfflineCase, OfflineResult, ScoreCase, YesNoCase } from './case.js';
import { createOfflineAccumulator, summarizeOffline } from './summary.js';

const yn = (id: string, correct: boolean): YesNoCase => ({ id, kind: 'yes_no', correct });
const ch = (id: string, correctIndex: number, options = ['a', 'b', 'c']): ChoiceCase => ({
  id,
  kind: 'choice',
  options,
  correct: options[correctIndex]!,
  correctIndex,
});
const sc = (id: string, correct: number): ScoreCase => ({ id, kind: 'score', scoreMin: 0, scoreMax: 10, correct });
const r = (
  caseId: string,
  decision: OfflineResult['decision'],
  extra: { costUsd?: number; latencyMs?: number } = {},
): OfflineResult => ({ caseId, model: 'm', decision, ...extra });

describe('summarizeOffline', () => {
  it('reports every metric as null with no data, never 0 or NaN', () => {
    const s = createOfflineAccumulator().summarize(3);
    expect(s).toMatchObject({
      accuracy: null,
      brier: null,
      logLoss: null,
      ece: null,
      meanConfidence: null,
      scoreMae: null,
      totalCostUsd: null,
      costPerCorrectUsd: null,
      costPerCorrectReason: 'no_cost',
      meanLatencyMs: null,
      reliability: [],
    });
    expect(s.counts).toEqual({
      nCases: 3,
      nScored: { yesNo: 0, choice: 0, score: 0, total: 0 },
      nMissing: 3,
      nCorrect: 0,
      nWithCost: 0,
      nWithLatency: 0,
    });
  });

  it('computes each metric by its definition on a small worked example', () => {
    const pairs = [
      {
        case: yn('y1', true),
        result: r('y1', { kind: 'yes_no', probability: 0.8 }, { costUsd: 0.01, latencyMs: 100 }),
      },
      {
        case: yn('y2', false),
        result: r('y2', { kind: 'yes_no', probability: 0.6 }, { costUsd: 0.01, latencyMs: 300 }),
      },
      { case: ch('c1', 2), result: r('c1', { kind: 'choice', probabilities: [0.1, 0.2, 0.7] }, { costUsd: 0.02 }) },
      { case: sc('s1', 8), result: r('s1', { kind: 'score', value: 5 }, { costUsd: 0.04 }) },
      { case: sc('s2', 2), result: r('s2', { kind: 'score', value: 3, confidence: 0.9 }) },
    ];
    const s = summarizeOffline(pairs, { nCases: 6 });
    // y1 right (0.8), y2 wrong (conf 0.6), c1 right (0.7).
    expect(s.accuracy).toBeCloseTo(2 / 3, 15);
    expect(s.brier).toBeCloseTo((2 * 0.2 ** 2 + 2 * 0.6 ** 2 + (0.1 ** 2 + 0.2 ** 2 + 0.3 ** 2)) / 3, 15);
    expect(s.logLoss).toBeCloseTo((-Math.log(0.8) - Math.log(0.4) - Math.log(0.7)) / 3, 15);
    // Bins: 0.6 -> bin 6 (wrong), 0.7 -> bin 7 (right), 0.8 -> bin 8 (right).
    expect(s.reliability.map((b) => [b.index, b.n, b.accuracy])).toEqual([
      [6, 1, 0],
      [7, 1, 1],
      [8, 1, 1],
    ]);
    expect(s.ece).toBeCloseTo((0.6 + 0.3 + 0.2) / 3, 15);
    expect(s.scoreMae).toBe(2);
    expect(s.totalCostUsd).toBeCloseTo(0.08, 15);
    expect(s.costPerCorrectUsd).toBeCloseTo(0.04, 15);
    expect(s.costPerCorrectReason).toBeNull();
    expect(s.meanLatencyMs).toBe(200);
    expect(s.counts).toEqual({
      nCases: 6,
      nScored: { yesNo: 2, choice: 1, score: 2, total: 5 },
      nMissing: 1,
      nCorrect: 2,
      nWithCost: 4,
      nWithLatency: 2,
    });
  });

  it('leaves score cases out of accuracy, Brier, log loss and ECE', () => {
    const s = summarizeOffline([{ case: sc('s', 5), result: r('s', { kind: 'score', value: 5, confidence: 1 }) }]);
    expect([s.accuracy, s.brier, s.logLoss, s.ece]).toEqual([null, null, null, null]);
    expect(s.scoreMae).toBe(0);
  });

  it('makes cost per correct absent with a reason when nothing is correct', () => {
    const s = summarizeOffline([
      { case: yn('y', true), result: r('y', { kind: 'yes_no', probability: 0.1 }, { costUsd: 0.5 }) },
    ]);
    expect(s.totalCostUsd).toBe(0.5);
    expect(s.costPerCorrectUsd).toBeNull();
    expect(s.costPerCorrectReason).toBe('no_correct');
  });

  it('makes cost per correct absent with a reason when no result carries a cost', () => {
    const s = summarizeOffline([{ case: yn('y', true), result: r('y', { kind: 'yes_no', probability: 0.9 }) }]);
    expect(s.costPerCorrectUsd).toBeNull();
    expect(s.costPerCorrectReason).toBe('no_cost');
    expect(s.totalCostUsd).toBeNull();
  });

  it('counts the cost of score cases in the numerator only', () => {
    const s = summarizeOffline([
      { case: yn('y', true), result: r('y', { kind: 'yes_no', probability: 0.9 }, { costUsd: 1 }) },
      { case: sc('s', 1), result: r('s', { kind: 'score', value: 1 }, { costUsd: 3 }) },
    ]);
    expect(s.costPerCorrectUsd).toBe(4);
  });

  it('predicts with the given threshold', () => {
    const pairs = [{ case: yn('y', true), result: r('y', { kind: 'yes_no', probability: 0.45 }) }];
    expect(summarizeOffline(pairs).accuracy).toBe(0);
    const tuned = summarizeOffline(pairs, { threshold: 0.42 });
    expect(tuned.accuracy).toBe(1);
    expect(tuned.threshold).toBe(0.42);
  });
});

// Arbitrary (case, result) pairs of every kind.
const probability = fc.double({ min: 0, max: 1, noNaN: true });
const pair: fc.Arbitrary<{ case: OfflineCase; result: OfflineResult }> = fc.oneof(
  fc
    .record({
      correct: fc.boolean(),
      p: probability,
      cost: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    })
    .map(({ correct, p, cost }) => ({
      case: yn('y', correct),
      result: r('y', { kind: 'yes_no', probability: p }, given({ costUsd: cost })),
    })),
  fc
    .record({
      weights: fc.array(fc.double({ min: 0.001, max: 1, noNaN: true }), { minLength: 2, maxLength: 5 }),
      correct: fc.nat(),
      picked: fc.option(fc.nat(), { nil: undefined }),
    })
    .map(({ weights, correct, picked }) => {
      const total = weights.reduce((a, b) => a + b, 0);
      const probabilities = weights.map((w) => w / total);
      const options = weights.map((_, i) => `o${i}`);
      const c = ch('c', correct % options.length, options);
      const decision =
        picked === undefined
          ? { kind: 'choice' as const, probabilities }
          : { kind: 'choice' as const, probabilities, pickedIndex: picked % options.length };
      return { case: c as OfflineCase, result: r('c', decision, { latencyMs: correct }) };
    }),
  fc
    .record({ correct: fc.integer({ min: 0, max: 10 }), value: fc.double({ min: 0, max: 10, noNaN: true }) })
    .map(({ correct, value }) => ({ case: sc('s', correct) as OfflineCase, result: r('s', { kind: 'score', value }) })),
);

describe('summary properties', () => {
  it('keeps Brier in [0, 2], log loss >= 0 and ECE in [0, 1]', () => {
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 40 }), (pairs) => {
        const s = summarizeOffline(pairs);
        if (s.brier !== null) expect(s.brier >= 0 && s.brier <= 2).toBe(true);
        if (s.logLoss !== null) expect(s.logLoss).toBeGreaterThanOrEqual(0);
        if (s.ece !== null) expect(s.ece >= 0 && s.ece <= 1).toBe(true);
        if (s.accuracy !== null) expect(s.accuracy >= 0 && s.accuracy <= 1).toBe(true);
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it('gives an identical summary for results in any order', () => {
    fc.assert(
      fc.property(
        fc
          .array(pair, { minLength: 1, maxLength: 40 })
          .chain((pairs) =>
            fc.tuple(
              fc.constant(pairs),
              fc.shuffledSubarray(pairs, { minLength: pairs.length, maxLength: pairs.length }),
            ),
          ),
        ([pairs, shuffled]) => {
          expect(summarizeOffline(shuffled)).toEqual(summarizeOffline(pairs));
        },
      ),
      { seed: 42, numRuns: 200 },
    );
  });

  it('scores a perfect forecast 0 on Brier, log loss, ECE and MAE, with accuracy 1', () => {
    const perfect = fc.oneof(
      fc.boolean().map((correct) => ({
        case: yn('y', correct) as OfflineCase,
        result: r('y', { kind: 'yes_no', probability: correct ? 1 : 0 }),
      })),
      fc.integer({ min: 2, max: 5 }).chain((n) =>
        fc.nat({ max: n - 1 }).map((k) => {
          const options = Array.from({ length: n }, (_, i) => `o${i}`);
          return {
            case: ch('c', k, options) as OfflineCase,
            result: r('c', { kind: 'choice', probabilities: options.map((_, i) => (i === k ? 1 : 0)) }),
          };
        }),
      ),
      fc
        .integer({ min: 0, max: 10 })
        .map((v) => ({ case: sc('s', v) as OfflineCase, result: r('s', { kind: 'score', value: v }) })),
    );
    fc.assert(
      fc.property(fc.array(perfect, { minLength: 1, maxLength: 30 }), (pairs) => {
        const s = summarizeOffline(pairs);
        for (const m of [s.brier, s.logLoss, s.ece, s.scoreMae]) if (m !== null) expect(m).toBe(0);
        if (s.accuracy !== null) expect(s.accuracy).toBe(1);
      }),
      { seed: 42, numRuns: 200 },
    );
  });
});
