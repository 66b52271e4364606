import { describe, expect, it } from 'vitest';
import type { CaseResult, Decision } from '../typed-decisions/case-result.js';
import { RunAccumulator } from './run-accumulator.js';
import { ListingsAccumulator, listingsOfCases } from './run-listings.js';
import { addCaseToSample, caseSampleOfRun } from './run-statistics.js';
import { BenchAccumulator, summarizeBenchmark } from './summary.js';
import { CaseSampleBuilder } from '../stats/case-sample.js';

const YES_NO = ['true', 'false'];
const ROUTES = ['billing', 'shipping', 'other'];
const LEVELS = ['0', '1', '2'];

function answered(
  questionId: string,
  type: Decision['type'],
  answers: readonly string[],
  gold: { label: string; probabilities: number[] },
  probabilities: number[],
  scores: { predicted: string; confidence: number; correct: boolean; kl: number; brier: number },
): Decision {
  return { questionId, type, answers, gold, outcome: { status: 'answered', probabilities, ...scores } };
}

function failed(questionId: string, type: Decision['type'], answers: readonly string[], label: string): Decision {
  const probabilities = answers.map((a) => (a === label ? 1 : 0));
  return {
    questionId,
    type,
    answers,
    gold: { label, probabilities },
    outcome: { status: 'failed', failure: { kind: 'malformed', message: `question ${questionId}: no probabilities` } },
  };
}

const urgentGold = { label: 'true', probabilities: [0.8, 0.2] };
const routeGold = { label: 'shipping', probabilities: [0.1, 0.7, 0.2] };
const severityGold = { label: '2', probabilities: [0, 0.25, 0.75] };

/** Answered by model m-a: a right yes/no at 0.5 and a wrong choice at 0.95. */
const c1: CaseResult = {
  caseId: 'support_000001',
  workflow: 'support',
  request: { status: 'answered', latencyMs: 120, inputTokens: 300, model: 'm-a' },
  decisions: [
    answered('urgent', 'noul', YES_NO, urgentGold, [0.5, 0.5], {
      predicted: 'true',
      confidence: 0.5,
      correct: true,
      kl: 0.1,
      brier: 0.2,
    }),
    answered('route', 'choice', ROUTES, routeGold, [0.95, 0.05, 0], {
      predicted: 'billing',
      confidence: 0.95,
      correct: false,
      kl: 1.5,
      brier: 1.25,
    }),
  ],
};

/** The request timed out: both decisions failed. */
const c2: CaseResult = {
  caseId: 'support_000002',
  workflow: 'support',
  request: { status: 'failed', failure: { kind: 'timeout', message: 'no answer within 10 s' }, latencyMs: null },
  decisions: [
    {
      ...failed('urgent', 'noul', YES_NO, 'true'),
      outcome: { status: 'failed', failure: { kind: 'timeout', message: 'no answer within 10 s' } },
    },
    {
      ...failed('route', 'choice', ROUTES, 'shipping'),
      outcome: { status: 'failed', failure: { kind: 'timeout', message: 'no answer within 10 s' } },
    },
  ],
};

/** Answered without a model name or usage: a certain right score, and a yes/no the response left out. */
const c3: CaseResult = {
  caseId: 'billing_000001',
  workflow: 'billing',
  request: { status: 'answered', latencyMs: 80, inputTokens: null },
  decisions: [
    answered('severity', 'score', LEVELS, severityGold, [0, 0, 1], {
      predicted: '2',
      confidence: 1,
      correct: true,
      kl: 0.25,
      brier: 0.125,
    }),
    failed('urgent', 'noul', YES_NO, 'false'),
  ],
};

/** Answered by m-b: a wrong yes/no that gives the gold label probability 0 (log loss at its floor). */
const c4: CaseResult = {
  caseId: 'support_000003',
  workflow: 'support',
  request: { status: 'answered', latencyMs: 200, inputTokens: 50, model: 'm-b' },
  decisions: [
    answered('urgent', 'noul', YES_NO, urgentGold, [0, 1], {
      predicted: 'false',
      confidence: 1,
      correct: false,
      kl: 2,
      brier: 1.5,
    }),
  ],
};

/** The run's cases in run order; they finish in another order (a parallel run). */
const RUN = [c1, c2, c3, c4];
const FINISHED = [c3, c1, c4, c2];
const positionOf = (c: CaseResult) => RUN.indexOf(c);

const FLOOR_LOSS = -Math.log(1e-15);

describe('RunAccumulator', () => {
  it('gives the summary, listings and sample the separate accumulators give', () => {
    const options = { expectedCases: 5, pricePerMtokUsd: 2 };
    const acc = new RunAccumulator();
    const summaryAcc = new BenchAccumulator();
    const listingsAcc = new ListingsAccumulator();
    const sampleBuilder = new CaseSampleBuilder();
    for (const c of FINISHED) {
      acc.add(c, positionOf(c));
      summaryAcc.add(c);
      listingsAcc.add(c, positionOf(c));
      addCaseToSample(sampleBuilder, c);
    }
    expect(acc.cases).toBe(4);
    expect(acc.finish(options)).toEqual({
      summary: summaryAcc.summarize(options),
      listings: listingsAcc.listings(),
      sample: sampleBuilder.build(),
    });
  });

  it('gives the numbers worked out by hand', () => {
    const acc = new RunAccumulator();
    for (const c of FINISHED) acc.add(c, positionOf(c));
    const { summary, listings, sample } = acc.finish();

    expect(summary.requests).toEqual({ total: 4, answered: 3, failed: 1 });
    expect(summary.errors).toBe(3);
    expect(summary.errorKinds).toEqual({ timeout: 1 });
    expect([summary.total, summary.answered, summary.correct]).toEqual([7, 4, 2]);
    expect(summary.confidentDisagreements).toBe(2);
    expect(summary.inputTokens).toBe(350);
    // -ln 0.5, -ln 0.05, -ln 1 and the floor, over the four answered decisions.
    expect(summary.logLoss).toBeCloseTo((Math.log(2) - Math.log(0.05) + 0 + FLOOR_LOSS) / 4, 12);
    expect(summary.kl).toBeCloseTo((0.1 + 1.5 + 0.25 + 2) / 4, 12);
    expect(summary.brier).toBeCloseTo((0.2 + 1.25 + 0.125 + 1.5) / 4, 12);
    expect(Object.keys(summary.byQuestion)).toEqual([
      'billing/severity',
      'billing/urgent',
      'support/route',
      'support/urgent',
    ]);
    expect(summary.byQuestion['support/urgent']!.logLoss).toBeCloseTo((Math.log(2) + FLOOR_LOSS) / 2, 12);
    expect(summary.latencyMs).toEqual({ n: 3, p50: 120, p95: 192, mean: 400 / 3 });

    // The latencies in the order the cases finished, kept once: the summary's and the listings' are one list.
    expect(listings.latenciesMs).toEqual([80, 120, 200]);
    expect(listings.answeredModels).toEqual(['m-a', 'm-b']);
    expect(listings.failedCases).toEqual([
      { caseId: 'support_000002', kind: 'timeout', message: 'no answer within 10 s' },
    ]);
    expect(listings.disagreements.map((d) => [d.caseId, d.decision.questionId])).toEqual([
      ['support_000003', 'urgent'],
      ['support_000001', 'route'],
    ]);
    expect(listings.majority['support/urgent']).toEqual({ label: 'true', rate: 1, total: 3 });
    expect(listings.majority['billing/urgent']).toEqual({ label: 'false', rate: 1, total: 1 });

    expect(sample.ids).toEqual(['billing_000001', 'support_000001', 'support_000003', 'support_000002']);
    expect([...sample.decisions]).toEqual([2, 2, 1, 2]);
    expect([...sample.answered]).toEqual([1, 2, 1, 0]);
    expect([...sample.correct]).toEqual([1, 1, 0, 0]);
    expect([...sample.logLoss]).toEqual([0, Math.log(2) - Math.log(0.05), FLOOR_LOSS, 0]);
    expect(sample.questions).toEqual(['billing/severity', 'support/route', 'support/urgent']);
    expect([...sample.confidence]).toEqual([1, 0.5, 0.95, 1]);
  });

  it('matches the whole-run functions when the cases come in run order', () => {
    const acc = new RunAccumulator();
    RUN.forEach((c, i) => acc.add(c, i));
    expect(acc.finish()).toEqual({
      summary: summarizeBenchmark(RUN),
      listings: listingsOfCases(RUN),
      sample: caseSampleOfRun(RUN),
    });
  });

  it('summarizes under the ECE convention it was given, and alone the same as in finish', () => {
    const calibration = { bins: 4, binning: 'equal-mass', average: 'per-question' } as const;
    const acc = new RunAccumulator(calibration);
    for (const c of FINISHED) acc.add(c, positionOf(c));
    const options = { interrupted: true, calibration };
    expect(acc.summarize(options)).toEqual(summarizeBenchmark(FINISHED, options));
    expect(acc.finish(options).summary).toEqual(acc.summarize(options));
    expect(acc.summarize(options).status).toBe('interrupted');
  });

  it('gives empty totals before any case', () => {
    const { summary, listings, sample } = new RunAccumulator().finish();
    expect(summary).toEqual(summarizeBenchmark([]));
    expect(summary.logLoss).toBeNull();
    expect(listings).toEqual(listingsOfCases([]));
    expect(sample.nCases).toBe(0);
  });
});

describe('ListingsAccumulator with the latencies kept elsewhere', () => {
  it('reads them from there and keeps none of its own', () => {
    const kept = [7, 9];
    const listings = new ListingsAccumulator({ latenciesMs: () => kept });
    listings.add(c1, 0);
    listings.add(c4, 1);
    expect(listings.listings().latenciesMs).toEqual([7, 9]);
    expect(listings.listings().answeredModels).toEqual(['m-a', 'm-b']);
  });
});
