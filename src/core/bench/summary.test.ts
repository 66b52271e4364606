import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreCase, type TypedDecisionsCase, type CaseResult } from '../typed-decisions/case-result.js';
import { summarizeBenchmark } from './summary.js';
import type { Question } from '../question.js';

const yesNo: Question = { type: 'noul', instructions: 'Is it urgent?' };
const route: Question = {
  type: 'choice',
  instructions: 'Route',
  options: ['billing', 'shipping'],
  descriptions: [null, null],
};
const level: Question = { type: 'score', instructions: 'How bad?', levels: ['low', 'mid', 'high'] };

function makeCase(id: string, workflow: string): TypedDecisionsCase {
  return {
    id,
    workflow,
    state: { id },
    questions: [
      ['urgent', yesNo],
      ['route', route],
      ['severity', level],
    ],
    gold: [
      { labelIndex: 0, probabilities: [0.8, 0.2] },
      { labelIndex: 1, probabilities: [0.3, 0.7] },
      { labelIndex: 2, probabilities: [0.1, 0.2, 0.7] },
    ],
  };
}

const answered = (c: TypedDecisionsCase, latencyMs: number, predicted: number[][]): CaseResult =>
  scoreCase(c, { status: 'answered', latencyMs, inputTokens: 100, predicted });

describe('summarizeBenchmark', () => {
  const a = makeCase('wf_a_000001', 'wf_a');
  const b = makeCase('wf_b_000001', 'wf_b');
  const ok = answered(a, 10, [
    [0.95, 0.05],
    [0.9, 0.1],
    [0.1, 0.1, 0.8],
  ]);
  const failed = scoreCase(b, {
    status: 'failed',
    failure: { kind: 'timeout', message: 'timed out after 10 s' },
    latencyMs: null,
  });

  it('sums each replica of a run sent to several, and has no such part for a run on one server', () => {
    const on = (r: CaseResult, replica: string): CaseResult => ({ ...r, request: { ...r.request, replica } });
    const slow = answered(a, 30, [
      [0.95, 0.05],
      [0.9, 0.1],
      [0.1, 0.1, 0.8],
    ]);
    const s = summarizeBenchmark([on(ok, 'http://b'), on(failed, 'http://b'), on(slow, 'http://a')]);
    expect(s.byReplica).toEqual({
      'http://a': { requests: 1, failed: 0, latencyMs: { n: 1, p50: 30, p95: 30, mean: 30 } },
      'http://b': { requests: 2, failed: 1, latencyMs: { n: 1, p50: 10, p95: 10, mean: 10 } },
    });
    expect('byReplica' in summarizeBenchmark([ok, failed])).toBe(false);
  });

  it('takes log loss against the gold label over answered decisions, floored at 1e-15', () => {
    // Gold labels: urgent "true" (p 0.95), route "shipping" (p 0.1), severity "high" (p 0.8).
    const s = summarizeBenchmark([ok, failed]);
    expect(s.logLoss).toBeCloseTo(-(Math.log(0.95) + Math.log(0.1) + Math.log(0.8)) / 3, 14);
    const certainWrong = answered(a, 1, [
      [0, 1],
      [0.5, 0.5],
      [1, 0, 0],
    ]);
    expect(summarizeBenchmark([certainWrong]).byType.noul?.logLoss).toBeCloseTo(-Math.log(1e-15), 12);
    expect(summarizeBenchmark([failed]).logLoss).toBeNull();
  });

  it('counts failed decisions as misses but keeps them out of KL, Brier and ECE', () => {
    const s = summarizeBenchmark([ok, failed]);
    expect(s.total).toBe(6);
    expect(s.answered).toBe(3);
    expect(s.errors).toBe(3);
    expect(s.correct).toBe(2);
    expect(s.accuracy).toBeCloseTo(2 / 6, 15);
    expect(s.kl).toBe(summarizeBenchmark([ok]).kl);
    expect(s.status).toBe('incomplete');
    expect(s.errorKinds).toEqual({ timeout: 1 });
    expect(s.requests).toEqual({ total: 2, answered: 1, failed: 1 });
    expect(s.confidentDisagreements).toBe(1);
    expect(s.latencyMs).toEqual({ n: 1, p50: 10, p95: 10, mean: 10 });
    expect(s.inputTokens).toBe(100);
  });

  it('breaks down by type, workflow and workflow/question', () => {
    const s = summarizeBenchmark([ok, failed]);
    expect(Object.keys(s.byType)).toEqual(['noul', 'choice', 'score']);
    expect(s.byWorkflow['wf_b']!.accuracy).toBe(0);
    expect(s.byWorkflow['wf_b']!.kl).toBeNull();
    expect(Object.keys(s.byQuestion)).toEqual([
      'wf_a/route',
      'wf_a/severity',
      'wf_a/urgent',
      'wf_b/route',
      'wf_b/severity',
      'wf_b/urgent',
    ]);
    expect(s.byQuestion['wf_a/route']!.correct).toBe(0);
  });

  it('reports no metrics and no stars when nothing was answered', () => {
    const s = summarizeBenchmark([failed]);
    expect(s.accuracy).toBe(0);
    expect(s.kl).toBeNull();
    expect(s.brier).toBeNull();
    expect(s.ece).toBeNull();
    expect(s.meanConfidence).toBeNull();
    expect(s.rating.stars).toBe(0);
    expect(s.latencyMs.p50).toBeNull();
    expect(s.inputTokens).toBeNull();
  });

  it('is complete only when every expected request succeeded, and honours interrupted', () => {
    expect(summarizeBenchmark([ok]).status).toBe('complete');
    expect(summarizeBenchmark([ok], { expectedCases: 2 }).status).toBe('incomplete');
    expect(summarizeBenchmark([ok], { interrupted: true }).status).toBe('interrupted');
  });

  it('prices input tokens per million and divides by correct decisions', () => {
    const s = summarizeBenchmark([ok], { pricePerMtokUsd: 2 });
    expect(s.cost).toEqual({ pricePerMtokUsd: 2, inputTokens: 100, totalUsd: 0.0002, perCorrectUsd: 0.0001 });
    expect(summarizeBenchmark([failed], { pricePerMtokUsd: 2 }).cost!.perCorrectUsd).toBeNull();
  });

  it('does not depend on the order of cases', () => {
    const prob = fc.double({ min: 0, max: 1, noNaN: true });
    const caseArb = fc.tuple(prob, prob, prob, prob, fc.integer({ min: 1, max: 500 }), fc.boolean());
    fc.assert(
      fc.property(fc.array(caseArb, { minLength: 1, maxLength: 12 }), (specs) => {
        const results = specs.map(([p, q, r, s, latency, fail], i) => {
          const c = makeCase(`wf_${i % 3}_${String(i).padStart(6, '0')}`, `wf_${i % 3}`);
          if (fail)
            return scoreCase(c, {
              status: 'failed',
              failure: { kind: 'http', message: 'HTTP 500' },
              latencyMs: latency,
            });
          const t = r + s || 1;
          return answered(c, latency, [
            [p, 1 - p],
            [q, 1 - q],
            [r / t / 2, s / t / 2, 0.5],
          ]);
        });
        const forward = summarizeBenchmark(results);
        const backward = summarizeBenchmark([...results].reverse());
        expect(backward).toEqual(forward);
      }),
      { seed: 42, numRuns: 100 },
    );
  });
});
