import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { counterRate, counterWasReset } from './counter-rate.js';
import { pollOrder } from './poll-order.js';
import { slideWindow, summarizeWindow, type WindowDecision } from './window-summary.js';

const answered = (confidence: number, correct: boolean): WindowDecision => ({
  status: 'answered',
  type: 'noul',
  confidence,
  correct,
  brier: correct ? 2 * (1 - confidence) ** 2 : 2 * confidence ** 2,
});

describe('summarizeWindow', () => {
  it('is null everywhere for an empty window', () => {
    expect(summarizeWindow([])).toEqual({
      n: 0,
      answered: 0,
      correct: 0,
      accuracy: null,
      answeredAccuracy: null,
      ece: null,
      meanConfidence: null,
      brier: null,
      histogram: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    });
  });

  it('counts failed decisions as misses, outside calibration', () => {
    const s = summarizeWindow([answered(0.9, true), { status: 'failed', type: 'choice' }]);
    expect(s.accuracy).toBe(0.5);
    expect(s.answered).toBe(1);
    expect(s.answeredAccuracy).toBe(1);
    expect(s.ece).toBeCloseTo(0.1, 12);
    expect(s.brier).toBeCloseTo(0.02, 12);
    expect(s.histogram[9]).toBe(1);
  });

  it('leaves failed decisions out of the answered accuracy, null when none was answered', () => {
    const s = summarizeWindow([
      answered(0.8, true),
      answered(0.6, false),
      { status: 'failed', type: 'noul' },
      { status: 'failed', type: 'noul' },
    ]);
    expect(s.accuracy).toBe(0.25);
    expect(s.answeredAccuracy).toBe(0.5);
    expect(summarizeWindow([{ status: 'failed', type: 'score' }])).toMatchObject({
      accuracy: 0,
      answeredAccuracy: null,
    });
  });

  it('does not depend on the order of the decisions (property)', () => {
    const decision = fc.oneof(
      fc.record({
        status: fc.constant('answered' as const),
        type: fc.constant('score' as const),
        confidence: fc.double({ min: 0, max: 1, noNaN: true }),
        correct: fc.boolean(),
        brier: fc.double({ min: 0, max: 2, noNaN: true }),
      }),
      fc.record({ status: fc.constant('failed' as const), type: fc.constant('noul' as const) }),
    );
    fc.assert(
      fc.property(fc.array(decision, { maxLength: 60 }), (ds) => {
        expect(summarizeWindow([...ds].reverse())).toEqual(summarizeWindow(ds));
        const s = summarizeWindow(ds);
        expect(s.histogram.reduce((a, b) => a + b, 0)).toBe(s.answered);
        if (s.ece !== null) expect(s.ece).toBeGreaterThanOrEqual(0);
      }),
      { seed: 11, numRuns: 200 },
    );
  });
});

describe('slideWindow', () => {
  it('keeps the last N items', () => {
    expect(slideWindow([1, 2, 3], [4, 5], 3)).toEqual([3, 4, 5]);
    expect(slideWindow([1], [2], 3)).toEqual([1, 2]);
  });
});

describe('counterRate', () => {
  it('is the increase per second', () => {
    expect(counterRate({ atMs: 1000, value: 10 }, { atMs: 3000, value: 50 })).toBe(20);
  });
  it('is null for a reset, a missing counter or no time passed, never negative', () => {
    expect(counterRate({ atMs: 0, value: 10 }, { atMs: 1000, value: 2 })).toBeNull();
    expect(counterRate({ atMs: 0, value: null }, { atMs: 1000, value: 2 })).toBeNull();
    expect(counterRate({ atMs: 1000, value: 1 }, { atMs: 1000, value: 2 })).toBeNull();
    expect(counterWasReset(10, 2)).toBe(true);
    expect(counterWasReset(null, 2)).toBe(false);
  });
});

describe('pollOrder', () => {
  it('is a permutation, the same on every call, and not the file order', () => {
    const a = pollOrder(100);
    expect([...a].sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(pollOrder(100)).toEqual(a);
    expect(a).not.toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(pollOrder(100, 7)).not.toEqual(a);
    expect(pollOrder(0)).toEqual([]);
  });
});
