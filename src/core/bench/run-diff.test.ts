import { describe, expect, it } from 'vitest';
import { scoreCase, type TypedDecisionsCase, type CaseResult } from '../typed-decisions/case-result.js';
import type { BenchRun } from './run.js';
import { createRunConfig } from './test-support/run-fixtures.js';
import { summarizeBenchmark } from './summary.js';
import { DecidekitError } from '../errors.js';
import { compareRuns } from './run-diff.js';

function makeCase(id: string): TypedDecisionsCase {
  return {
    id,
    workflow: 'wf',
    state: {},
    questions: [
      ['urgent', { type: 'noul', instructions: 'Urgent?' }],
      [
        'route',
        { type: 'choice', instructions: 'Route', options: ['billing', 'shipping'], descriptions: [null, null] },
      ],
    ],
    gold: [
      { labelIndex: 0, probabilities: [0.8, 0.2] },
      { labelIndex: 1, probabilities: [0.3, 0.7] },
    ],
  };
}

const answered = (id: string, latencyMs: number, predicted: number[][]): CaseResult =>
  scoreCase(makeCase(id), { status: 'answered', latencyMs, inputTokens: null, predicted });
const failed = (id: string): CaseResult =>
  scoreCase(makeCase(id), { status: 'failed', failure: { kind: 'timeout', message: 'timed out' }, latencyMs: null });

function run(
  id: string,
  fingerprint: string,
  cases: CaseResult[],
  caseIds: readonly string[] = cases.map((c) => c.caseId),
): BenchRun {
  const config = createRunConfig({ model: 'm', caseIds });
  return {
    id,
    createdAt: '2026-01-01T00:00:00Z',
    durationMs: null,
    label: null,
    fingerprint,
    config,
    summary: summarizeBenchmark(cases),
    cases,
  };
}

// A: x1 urgent right, route wrong; x2 failed.      -> 1 of 4 right
// B: x1 urgent wrong, route right; x2 urgent right, route wrong (a tie goes to billing). -> 2 of 4
const runA = run('A', 'f1', [
  answered('x1', 10, [
    [0.8, 0.2],
    [0.6, 0.4],
  ]),
  failed('x2'),
]);
const runB = run('B', 'f1', [
  answered('x1', 20, [
    [0.3, 0.7],
    [0.2, 0.8],
  ]),
  answered('x2', 40, [
    [0.9, 0.1],
    [0.5, 0.5],
  ]),
]);

describe('compareRuns', () => {
  it('puts headline metrics side by side with b - a deltas', () => {
    const c = compareRuns(runA, runB);
    expect(c.sameFingerprint).toBe(true);
    expect(c.headline.accuracy).toEqual({ a: 0.25, b: 0.5, delta: 0.25 });
    expect(c.headline.errors).toEqual({ a: 2, b: 0, delta: -2 });
    expect(c.headline.latencyP50Ms).toEqual({ a: 10, b: 30, delta: 20 });
    expect(c.headline.kl).toEqual({
      a: runA.summary.kl,
      b: runB.summary.kl,
      delta: runB.summary.kl! - runA.summary.kl!,
    });
    expect(c.a).toMatchObject({ id: 'A', decisions: 4, status: 'incomplete' });
    expect(c.b).toMatchObject({ id: 'B', decisions: 4, status: 'complete' });
  });

  it('compares every question', () => {
    const c = compareRuns(runA, runB);
    expect(c.byQuestion.map((q) => [q.key, q.accuracy.a, q.accuracy.b, q.accuracy.delta])).toEqual([
      ['wf/route', 0, 0.5, 0.5],
      ['wf/urgent', 0.5, 0.5, 0],
    ]);
  });

  it('lists decisions whose correctness changed, with predictions, failures and gold', () => {
    const c = compareRuns(runA, runB);
    expect(c.changed).toEqual([
      {
        caseId: 'x1',
        workflow: 'wf',
        questionId: 'urgent',
        type: 'noul',
        gold: 'true',
        before: { predicted: 'true', confidence: 0.8, correct: true, error: null },
        after: { predicted: 'false', confidence: 0.7, correct: false, error: null },
      },
      {
        caseId: 'x1',
        workflow: 'wf',
        questionId: 'route',
        type: 'choice',
        gold: 'shipping',
        before: { predicted: 'billing', confidence: 0.6, correct: false, error: null },
        after: { predicted: 'shipping', confidence: 0.8, correct: true, error: null },
      },
      {
        caseId: 'x2',
        workflow: 'wf',
        questionId: 'urgent',
        type: 'noul',
        gold: 'true',
        before: { predicted: null, confidence: null, correct: false, error: 'timeout' },
        after: { predicted: 'true', confidence: 0.9, correct: true, error: null },
      },
    ]);
    expect([c.fixed, c.broken, c.predictionsChanged, c.shared, c.onlyInA, c.onlyInB]).toEqual([2, 1, 4, 4, 0, 0]);
  });

  it("takes run B's later copy of a case it holds twice, and counts a decision one run lacks as only in the other", () => {
    const first = answered('x1', 20, [
      [0.3, 0.7],
      [0.2, 0.8],
    ]);
    const again = answered('x1', 30, [
      [0.9, 0.1],
      [0.9, 0.1],
    ]);
    // B's second copy of x1 holds its route decision only; x2 in B lacks its urgent decision.
    const x2 = answered('x2', 40, [
      [0.9, 0.1],
      [0.5, 0.5],
    ]);
    const twice = run(
      'B2',
      'f1',
      [first, { ...again, decisions: again.decisions.slice(1) }, { ...x2, decisions: x2.decisions.slice(1) }],
      ['x1', 'x2'],
    );
    const c = compareRuns(runA, twice, { force: true });
    expect([c.shared, c.onlyInA, c.onlyInB, c.a.decisions, c.b.decisions]).toEqual([3, 1, 0, 4, 3]);
    expect(c.changed.map((d) => [d.caseId, d.questionId, d.after.predicted, d.after.confidence])).toEqual([
      ['x1', 'urgent', 'false', 0.7],
    ]);
    expect([c.fixed, c.broken, c.predictionsChanged]).toEqual([0, 1, 2]);
  });

  it('finds nothing changed between a run and itself', () => {
    const c = compareRuns(runA, runA);
    expect(c.changed).toEqual([]);
    expect(c.headline.accuracy.delta).toBe(0);
    expect(c.predictionsChanged).toBe(0);
  });

  it('keeps deltas absent when a side has no value', () => {
    const allFailed = run('C', 'f1', [failed('x1'), failed('x2')]);
    const c = compareRuns(allFailed, runB);
    expect(c.headline.kl).toEqual({ a: null, b: runB.summary.kl, delta: null });
    expect(c.headline.latencyP50Ms.delta).toBeNull();
    expect(c.headline.accuracy.delta).toBe(0.5);
  });

  it('compares two models on the same work without force', () => {
    const otherModel: BenchRun = { ...runB, fingerprint: 'f9', config: { ...runB.config, model: 'other' } };
    const c = compareRuns(runA, otherModel);
    expect([c.sameFingerprint, c.sameWork]).toEqual([false, true]);
    expect(c.headline.accuracy.delta).toBeCloseTo(0.25, 12);
  });

  it('refuses runs of different work unless forced, naming the difference', () => {
    const other = run('D', 'f2', [runB.cases[0]!]);
    expect(() => compareRuns(runA, other)).toThrow(DecidekitError);
    expect(() => compareRuns(runA, other)).toThrow(/different work \(case set: A 2 cases, B 1; only in A: x2\)/);
    const c = compareRuns(runA, other, { force: true });
    expect([c.sameFingerprint, c.sameWork]).toEqual([false, false]);
    expect([c.shared, c.onlyInA, c.onlyInB]).toEqual([2, 2, 0]);
    expect(c.changed.map((d) => `${d.caseId}/${d.questionId}`)).toEqual(['x1/urgent', 'x1/route']);
  });

  it('refuses a run that stopped before its last case unless forced', () => {
    const one = answered('x1', 10, [
      [0.8, 0.2],
      [0.6, 0.4],
    ]);
    const whole = run('a', 'f', [one]);
    const partial = run('b', 'f', [one], ['x1', 'never_sent_000001']);
    expect(() => compareRuns(whole, partial)).toThrow(/b has 1 of 2 cases/);
    expect(compareRuns(whole, partial, { force: true }).headline.accuracy).toBeDefined();
  });
});
