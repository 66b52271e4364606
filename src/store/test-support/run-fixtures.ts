/** Small hand-made benchmark values for store, report and CLI tests (not built into dist). */
import { scoreCase, type BenchCase, type CaseResult } from '../../core/bench/case-result.js';
import type { RunConfig } from '../../core/bench/run.js';
import type { Question } from '../../core/question.js';

const urgent: Question = { type: 'noul', instructions: 'Is it urgent?' };
const route: Question = {
  type: 'choice',
  instructions: 'Route it',
  options: ['billing', 'shipping', 'other'],
  descriptions: ['money', null, null],
};
const severity: Question = { type: 'score', instructions: 'How bad?', levels: ['low', 'mid', 'high'] };

/** A case of workflow `wf` with three questions (noul, choice, score). */
export function benchCase(id: string, workflow = 'customer_service'): BenchCase {
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

export function runConfig(overrides: Partial<RunConfig> = {}): RunConfig {
  return {
    toolVersion: '0.1.0',
    dataset: {
      id: 'decidekit/typed-decisions-synthetic-sample',
      revision: 'r1',
      split: 'test',
      license: 'Apache-2.0',
      synthetic: true,
      attribution: 'synthetic sample in the Typed Decisions schema (Apache-2.0)',
      url: null,
    },
    caseIds: CASE_IDS,
    questionSet: {
      'customer_service/urgent': 'aaaa',
      'customer_service/route': 'bbbb',
      'customer_service/severity': 'cccc',
    },
    model: 'tiny-decider',
    endpoint: { scheme: 'http', host: '127.0.0.1', port: 8080, path: '/v1/systemone' },
    embeddedServer: null,
    parallel: 2,
    timeoutMs: 10_000,
    retries: 0,
    filters: { limit: null, workflow: null },
    pricePerMtokUsd: 0.25,
    ...overrides,
  };
}
