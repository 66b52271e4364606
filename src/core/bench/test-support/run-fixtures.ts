/**
 * The one fixture set for benchmark runs, shared by core, store, report, CLI tests and the
 * store benchmark (not built into dist): small hand-made cases and answers, the datasets a
 * run names, and `createRunConfig`, the only RunConfig literal. `bench-run-fixture.ts`
 * builds whole runs from these for the report tests.
 */
import { scoreCase, type TypedDecisionsCase, type CaseResult } from '../../typed-decisions/case-result.js';
import type { RunConfig } from '../run.js';
import type { DatasetInfo } from '../../typed-decisions/dataset-info.js';
import type { BenchSummary } from '../summary.js';
import type { Question } from '../../question.js';

export const SAMPLE_DATASET: DatasetInfo = {
  id: 'decidekit/typed-decisions-synthetic-sample',
  revision: 'sample-v1',
  split: 'test',
  license: 'Apache-2.0',
  synthetic: true,
  attribution: 'decidekit synthetic sample (sample-v1, Apache-2.0), in the schema of LocalLLaMA/typed-decisions',
  url: null,
};

export const TYPED_DECISIONS: DatasetInfo = {
  id: 'LocalLLaMA/typed-decisions',
  revision: 'e039ebffcc280174dd354227424fb2b249f191de',
  split: 'test',
  license: 'Apache-2.0',
  synthetic: false,
  attribution: 'Typed Decisions (LocalLLaMA/typed-decisions, revision e039ebf, Apache-2.0)',
  url: 'https://huggingface.co/datasets/LocalLLaMA/typed-decisions',
};

/**
 * A run configuration: model `laya-mini` at `http://decider.internal:8084` on the sample,
 * parallel 4, timeout 30 s, one retry, no price, no cases; `overrides` replace fields.
 */
export function createRunConfig(overrides: Partial<RunConfig> = {}): RunConfig {
  return {
    toolVersion: '0.1.0',
    dataset: SAMPLE_DATASET,
    caseIds: [],
    questionSet: {},
    model: 'laya-mini',
    endpoint: { scheme: 'http', host: 'decider.internal', port: 8084, path: '/v1/systemone' },
    embeddedServer: null,
    parallel: 4,
    timeoutMs: 30_000,
    retries: 1,
    filters: { limit: null, workflow: null },
    pricePerMtokUsd: null,
    ...overrides,
  };
}

const urgent: Question = { type: 'noul', instructions: 'Is it urgent?' };
const route: Question = {
  type: 'choice',
  instructions: 'Route it',
  options: ['billing', 'shipping', 'other'],
  descriptions: ['money', null, null],
};
const severity: Question = { type: 'score', instructions: 'How bad?', levels: ['low', 'mid', 'high'] };

/** A case of workflow `wf` with three questions (noul, choice, score). */
export function benchCase(id: string, workflow = 'customer_service'): TypedDecisionsCase {
  return {
    id,
    workflow,
    state: { ticket: id },
    questions: [
      ['urgent', urgent],
      ['route', route],
      ['severity', severity],
    ],
    gold: [
      { labelIndex: 0, probabilities: [2 / 3, 1 / 3] },
      { labelIndex: 1, probabilities: [0.1, 0.7, 0.2] },
      { labelIndex: 2, probabilities: [0, 1 / 3, 2 / 3] },
    ],
  };
}

/** Answers that get every decision right, with awkward doubles (thirds, tiny values). */
export function rightAnswers(seed = 0): number[][] {
  const e = 1e-17 * (seed + 1);
  return [
    [0.7 + e, 0.3 - e],
    [0.1 / 3, 0.9, 1 / 15],
    [0, 0.1, 0.9],
  ];
}

/** Answers that get every decision wrong. */
export function wrongAnswers(): number[][] {
  return [
    [0.05, 0.95],
    [0.95, 0.05, 0],
    [1, 0, 0],
  ];
}

export function answeredCase(
  id: string,
  predicted: number[][],
  latencyMs = 120.25,
  inputTokens: number | null = 321,
  workflow?: string,
): CaseResult {
  return scoreCase(benchCase(id, workflow), { status: 'answered', latencyMs, inputTokens, predicted });
}

export function failedCase(id: string, latencyMs: number | null = null, workflow?: string): CaseResult {
  return scoreCase(benchCase(id, workflow), {
    status: 'failed',
    failure: { kind: 'timeout', message: 'no answer within 10 s' },
    latencyMs,
  });
}

export const CASE_IDS = [
  'customer_service_000001',
  'customer_service_000002',
  'customer_service_000003',
  'customer_service_000004',
];

/**
 * The store tests' run: the four `CASE_IDS` with `benchCase`'s three questions, model
 * `tiny-decider` at `http://127.0.0.1:8080`, priced at $0.25 per million input tokens.
 */
export function runConfig(overrides: Partial<RunConfig> = {}): RunConfig {
  return createRunConfig({
    dataset: {
      ...SAMPLE_DATASET,
      revision: 'r1',
      attribution: 'synthetic sample in the Typed Decisions schema (Apache-2.0)',
    },
    caseIds: CASE_IDS,
    questionSet: {
      'customer_service/urgent': 'aaaa',
      'customer_service/route': 'bbbb',
      'customer_service/severity': 'cccc',
    },
    model: 'tiny-decider',
    endpoint: { scheme: 'http', host: '127.0.0.1', port: 8080, path: '/v1/systemone' },
    parallel: 2,
    timeoutMs: 10_000,
    retries: 0,
    pricePerMtokUsd: 0.25,
    ...overrides,
  });
}

/** The headline a stored run's head carries, taken field by field from its summary. */
export function headlineOf(s: BenchSummary) {
  return {
    accuracy: s.accuracy,
    kl: s.kl,
    brier: s.brier,
    ece: s.ece,
    meanConfidence: s.meanConfidence,
    total: s.total,
    correct: s.correct,
    errors: s.errors,
    latencyP50Ms: s.latencyMs.p50,
  };
}
