import { describe, expect, it } from 'vitest';
import {
  answeredCase,
  createRunConfig,
  failedCase,
  rightAnswers,
  wrongAnswers,
} from '../bench/test-support/run-fixtures.js';
import type { BenchRun, RunConfig } from '../bench/run.js';
import type { CaseResult } from '../typed-decisions/case-result.js';
import { summarizeBenchmark } from '../bench/summary.js';
import {
  DECISION_COLUMNS,
  DECISION_SCHEMA_VERSION,
  decisionRowContextOf,
  decisionRowsOfCase,
  decisionRowsOfRun,
} from './decision-row.js';

function runOf(cases: CaseResult[], config: RunConfig = createRunConfig()): BenchRun {
  return {
    id: 'r1',
    createdAt: '2026-11-30T04:15:12.000Z',
    durationMs: 1,
    label: null,
    fingerprint: 'f00d',
    config,
    summary: summarizeBenchmark(cases),
    cases,
  };
}

describe('decision export schema', () => {
  it('lists every row key once, in the order rows are built, with a type and a meaning', () => {
    const [row] = decisionRowsOfRun(runOf([answeredCase('a', rightAnswers())]));
    expect(DECISION_COLUMNS.map((c) => c.name)).toEqual(Object.keys(row!));
    expect(new Set(DECISION_COLUMNS.map((c) => c.name)).size).toBe(DECISION_COLUMNS.length);
    for (const c of DECISION_COLUMNS) expect(c.meaning.length).toBeGreaterThan(5);
  });

  it('gives every value the declared type, and null only in nullable columns', () => {
    const run = runOf([answeredCase('a', rightAnswers()), failedCase('b'), answeredCase('c', wrongAnswers(), 3, null)]);
    for (const row of decisionRowsOfRun(run)) {
      for (const c of DECISION_COLUMNS) {
        const v = row[c.name];
        if (v === null) {
          expect(c.nullable, c.name).toBe(true);
          continue;
        }
        const expected = { integer: 'number', double: 'number', boolean: 'boolean', string: 'string' }[c.type];
        expect(typeof v, c.name).toBe(expected);
        if (c.type === 'integer') expect(Number.isSafeInteger(v), c.name).toBe(true);
      }
    }
  });

  it('stamps the schema version and the question position', () => {
    const rows = [...decisionRowsOfRun(runOf([answeredCase('a', rightAnswers())]))];
    expect(rows.map((r) => r.schema_version)).toEqual([1, 1, 1]);
    expect(DECISION_SCHEMA_VERSION).toBe(1);
    expect(rows.map((r) => r.question_index)).toEqual([0, 1, 2]);
  });

  it('computes log loss from the probability of the gold label, floored at 1e-15', () => {
    const right = [...decisionRowsOfRun(runOf([answeredCase('a', rightAnswers())]))];
    // urgent: gold label true (index 0), p = 0.7 + 1e-17
    expect(right[0]!.log_loss).toBe(-Math.log(0.7 + 1e-17));
    // route: gold shipping (index 1), p = 0.9
    expect(right[1]!.log_loss).toBe(-Math.log(0.9));
    const wrong = [...decisionRowsOfRun(runOf([answeredCase('a', wrongAnswers())]))];
    // severity: gold high (index 2), predicted [1, 0, 0]: the floor applies
    expect(wrong[2]!.log_loss).toBe(-Math.log(1e-15));
  });

  it('gives score questions 0-based levels and other types null levels', () => {
    const rows = [...decisionRowsOfRun(runOf([answeredCase('a', wrongAnswers()), failedCase('b')]))];
    expect(rows.map((r) => [r.type, r.gold_level, r.predicted_level])).toEqual([
      ['noul', null, null],
      ['choice', null, null],
      ['score', 2, 0],
      ['noul', null, null],
      ['choice', null, null],
      ['score', 2, null],
    ]);
  });

  it('shares a priced request cost over its decisions, so the column sums to the run cost', () => {
    const config = createRunConfig({ pricePerMtokUsd: 2.5 });
    const cases = [
      answeredCase('a', rightAnswers(), 10, 300),
      answeredCase('b', rightAnswers(), 10, null),
      failedCase('c'),
    ];
    const rows = [...decisionRowsOfRun(runOf(cases, config))];
    expect(rows.map((r) => r.cost_usd)).toEqual([
      (300 * 2.5) / 1e6 / 3,
      (300 * 2.5) / 1e6 / 3,
      (300 * 2.5) / 1e6 / 3,
      0,
      0,
      0,
      0,
      0,
      0,
    ]);
    const total = rows.reduce((s, r) => s + r.cost_usd!, 0);
    expect(total).toBeCloseTo(summarizeBenchmark(cases, { pricePerMtokUsd: 2.5 }).cost!.totalUsd, 15);
  });

  it('leaves cost null when the run was not priced', () => {
    const rows = [...decisionRowsOfRun(runOf([answeredCase('a', rightAnswers())]))];
    expect(rows.every((r) => r.cost_usd === null)).toBe(true);
  });

  it('builds a case alone the same as within its run', () => {
    const run = runOf([answeredCase('a', rightAnswers()), failedCase('b')]);
    const ctx = decisionRowContextOf(run);
    expect(run.cases.flatMap((c) => decisionRowsOfCase(ctx, c))).toEqual([...decisionRowsOfRun(run)]);
  });
});

describe('decision rows of a run', () => {
  const run = runOf([
    answeredCase('c1', rightAnswers()),
    failedCase('c2'),
    answeredCase('c3', wrongAnswers()),
    answeredCase('c4', rightAnswers()),
  ]);

  it('are one flat row per decision in run order', () => {
    const rows = [...decisionRowsOfRun(run)];
    expect(rows).toHaveLength(12);
    expect(rows.map((r) => `${r.case_id}/${r.question_id}`).slice(0, 4)).toEqual([
      'c1/urgent',
      'c1/route',
      'c1/severity',
      'c2/urgent',
    ]);
  });

  it('keep distributions exact and aligned with the answers', () => {
    const row = [...decisionRowsOfRun(run)][1]!;
    const decision = run.cases[0]!.decisions[1]!;
    expect(JSON.parse(row.answers)).toEqual(decision.answers);
    expect(JSON.parse(row.gold_distribution)).toEqual(decision.gold.probabilities);
    expect(decision.outcome.status === 'answered' && JSON.parse(row.predicted_distribution!)).toEqual(
      decision.outcome.status === 'answered' && decision.outcome.probabilities,
    );
    expect(row.question_key).toBe('customer_service/route');
  });

  it('mark failed decisions as misses with the error and no prediction', () => {
    const row = [...decisionRowsOfRun(run)][3]!;
    expect(row).toMatchObject({
      status: 'failed',
      correct: false,
      predicted: null,
      confidence: null,
      kl: null,
      log_loss: null,
      predicted_distribution: null,
      error_kind: 'timeout',
      error_message: 'no answer within 10 s',
      input_tokens: null,
    });
  });
});
