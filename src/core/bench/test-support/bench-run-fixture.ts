/**
 * Small hand-made benchmark runs for report tests, built with the core's own scoreCase and
 * summarizeBenchmark (so every number a report shows comes from the core).
 */
import { statisticsOfRun, type RunStatistics } from '../run-statistics.js';
import { DEFAULT_CONVENTIONS } from '../../stats/conventions.js';
import {
  scoreCase,
  type TypedDecisionsCase,
  type CaseResult,
  type Failure,
  type PredictedAnswers,
} from '../../typed-decisions/case-result.js';
import type { BenchRun, RunConfig } from '../run.js';
import type { DatasetInfo } from '../../typed-decisions/dataset-info.js';
import { summarizeBenchmark, type SummarizeOptions } from '../summary.js';
import type { Question, QuestionSet } from '../../question.js';
import { createRunConfig, SAMPLE_DATASET } from './run-fixtures.js';

export { SAMPLE_DATASET, TYPED_DECISIONS } from './run-fixtures.js';

const needsReview: Question = { type: 'noul', instructions: 'Does this need human review?' };
const action: Question = {
  type: 'choice',
  instructions: 'What should happen next?',
  options: ['close', 'investigate', 'contain'],
  descriptions: ['nothing to do', 'look closer', 'stop it now'],
};
const urgency: Question = {
  type: 'score',
  instructions: 'How urgent is it?',
  levels: ['none', 'low', 'high', 'critical'],
};
const refund: Question = { type: 'noul', instructions: 'Should we refund?' };
const route: Question = {
  type: 'choice',
  instructions: 'Which team?',
  options: ['billing', 'shipping'],
  descriptions: [null, null],
};
const tone: Question = {
  type: 'score',
  instructions: 'How upset is the customer?',
  levels: ['calm', 'annoyed', 'angry'],
};

const SECURITY: QuestionSet = [
  ['needs_review', needsReview],
  ['action', action],
  ['urgency', urgency],
];
const SUPPORT: QuestionSet = [
  ['refund', refund],
  ['route', route],
  ['tone', tone],
];

export type FixtureOutcome =
  | {
      readonly status: 'answered';
      readonly latencyMs: number;
      readonly inputTokens: number | null;
      readonly predicted: PredictedAnswers;
    }
  | { readonly status: 'failed'; readonly failure: Failure; readonly latencyMs: number | null };

export interface FixtureCase {
  readonly benchCase: TypedDecisionsCase;
  readonly outcome: FixtureOutcome;
}

export function createRun(
  items: readonly FixtureCase[],
  options: {
    readonly dataset?: DatasetInfo;
    readonly config?: Partial<RunConfig>;
    readonly summarize?: SummarizeOptions;
    readonly label?: string | null;
    readonly durationMs?: number | null;
  } = {},
): BenchRun {
  const cases: CaseResult[] = items.map((i) => scoreCase(i.benchCase, i.outcome));
  const questionSet: Record<string, string> = {};
  for (const { benchCase } of items)
    for (const [qid] of benchCase.questions) questionSet[`${benchCase.workflow}/${qid}`] = 'q0000000';
  const config: RunConfig = createRunConfig({
    dataset: options.dataset ?? SAMPLE_DATASET,
    caseIds: items.map((i) => i.benchCase.id),
    questionSet,
    ...options.config,
  });
  const summary = summarizeBenchmark(cases, {
    expectedCases: config.caseIds.length,
    ...(config.pricePerMtokUsd === null ? {} : { pricePerMtokUsd: config.pricePerMtokUsd }),
    ...options.summarize,
  });
  return {
    id: 'r-20260101-0001',
    createdAt: '2026-01-01T12:00:00.000Z',
    durationMs: options.durationMs === undefined ? 12_345 : options.durationMs,
    label: options.label === undefined ? null : options.label,
    fingerprint: '0123456789abcdef',
    config,
    summary,
    cases,
  };
}

export function securityCase(
  n: number,
  gold: TypedDecisionsCase['gold'],
  questions: QuestionSet = SECURITY,
): TypedDecisionsCase {
  return {
    id: `security_incidents_${String(n).padStart(6, '0')}`,
    workflow: 'security_incidents',
    state: {
      alert: {
        rule: 'impossible_travel',
        description: 'Login from two countries within 20 minutes',
        evidence: ['ip 203.0.113.7', 'ip 198.51.100.4'],
      },
      principal: { name: `svc-${n}`, type: 'service', privileges: 'admin', mfa_enrolled: false },
    },
    questions,
    gold,
  };
}

export function supportCase(n: number, gold: TypedDecisionsCase['gold']): TypedDecisionsCase {
  return {
    id: `customer_service_${String(n).padStart(6, '0')}`,
    workflow: 'customer_service',
    state: {
      account: { tier: 'pro', tenure_months: 14 },
      thread: [{ role: 'customer', text: 'My parcel never arrived | please help' }],
    },
    questions: SUPPORT,
    gold,
  };
}

const GOLD_SECURITY_A: TypedDecisionsCase['gold'] = [
  { labelIndex: 1, probabilities: [0.25, 0.75] },
  { labelIndex: 1, probabilities: [0.2, 0.7, 0.1] },
  // A gold tie (levels 0 and 1); the dataset's label breaks it.
  { labelIndex: 1, probabilities: [0.4, 0.4, 0.15, 0.05] },
];
const GOLD_SECURITY_B: TypedDecisionsCase['gold'] = [
  { labelIndex: 0, probabilities: [0.9, 0.1] },
  { labelIndex: 2, probabilities: [0, 0.2, 0.8] },
  { labelIndex: 3, probabilities: [0, 0.05, 0.25, 0.7] },
];
const GOLD_SUPPORT_A: TypedDecisionsCase['gold'] = [
  { labelIndex: 0, probabilities: [0.6, 0.4] },
  { labelIndex: 1, probabilities: [0.1, 0.9] },
  { labelIndex: 2, probabilities: [0.05, 0.25, 0.7] },
];
const GOLD_SUPPORT_B: TypedDecisionsCase['gold'] = [
  { labelIndex: 1, probabilities: [1 / 3, 2 / 3] },
  { labelIndex: 1, probabilities: [0.15, 0.85] },
  { labelIndex: 0, probabilities: [0.6, 0.3, 0.1] },
];

/**
 * Five cases over two workflows and all three question types: a predicted tie (noul 0.5 ->
 * true), a gold tie, two confident disagreements (>= 0.9), a timeout, and token counts.
 */
export function createMixedRun(options: Parameters<typeof createRun>[1] = {}): BenchRun {
  return createRun(
    [
      {
        benchCase: securityCase(1, GOLD_SECURITY_A),
        outcome: {
          status: 'answered',
          latencyMs: 212.4,
          inputTokens: 1180,
          predicted: [
            [0.611, 0.389],
            [0.1, 0.8, 0.1],
            [0.073, 0.03, 0.434, 0.463],
          ],
        },
      },
      {
        benchCase: securityCase(2, GOLD_SECURITY_B),
        outcome: {
          status: 'answered',
          latencyMs: 340,
          inputTokens: 1204,
          predicted: [
            [0.5, 0.5],
            [0.02, 0.03, 0.95],
            [0, 0.1, 0.3, 0.6],
          ],
        },
      },
      {
        benchCase: securityCase(3, GOLD_SECURITY_B),
        outcome: {
          status: 'failed',
          failure: { kind: 'timeout', message: 'no answer within 30 s' },
          latencyMs: 30_000,
        },
      },
      {
        benchCase: supportCase(1, GOLD_SUPPORT_A),
        outcome: {
          status: 'answered',
          latencyMs: 150.25,
          inputTokens: 640,
          predicted: [
            [0.08, 0.92],
            [0.2, 0.8],
            [0.1, 0.2, 0.7],
          ],
        },
      },
      {
        benchCase: supportCase(2, GOLD_SUPPORT_B),
        outcome: {
          status: 'answered',
          latencyMs: 1520,
          inputTokens: 655,
          predicted: [
            [0.3, 0.7],
            [0.97, 0.03],
            [0.55, 0.35, 0.1],
          ],
        },
      },
    ],
    options,
  );
}

/** A run whose every request failed. */
export function createFailedRun(): BenchRun {
  const failure = (message: string): FixtureOutcome => ({
    status: 'failed',
    failure: { kind: 'transport', message },
    latencyMs: null,
  });
  return createRun([
    { benchCase: securityCase(1, GOLD_SECURITY_A), outcome: failure('connection refused by 127.0.0.1:8084') },
    {
      benchCase: supportCase(1, GOLD_SUPPORT_A),
      outcome: { status: 'failed', failure: { kind: 'http', message: 'HTTP 500: internal error' }, latencyMs: 12 },
    },
  ]);
}

/**
 * `cases` security cases whose every answer is wrong, at distinct confidences, so the
 * disagreement list has a known order: confidence 0.99 - 0.01 * k for decision k.
 */
export function createManyDisagreementsRun(cases: number): BenchRun {
  const items: FixtureCase[] = [];
  let k = 0;
  const next = (): number => 0.99 - 0.01 * k++;
  for (let n = 1; n <= cases; n++) {
    const pNoul = next();
    const pAction = next();
    const pUrgency = next();
    items.push({
      benchCase: securityCase(n, GOLD_SECURITY_B),
      outcome: {
        status: 'answered',
        latencyMs: 100 + n,
        inputTokens: null,
        predicted: [
          [1 - pNoul, pNoul],
          [pAction, 1 - pAction, 0],
          [pUrgency, 1 - pUrgency, 0, 0],
        ],
      },
    });
  }
  return createRun(items);
}

/** The intervals and noise floor of a fixture run under the default conventions (seed 1). */
export function createRunStatistics(run: BenchRun): RunStatistics {
  const s = run.summary;
  return {
    ...statisticsOfRun(run.cases, DEFAULT_CONVENTIONS, {
      intervals: true,
      estimates: { accuracy: s.accuracy, kl: s.kl, brier: s.brier, logLoss: s.logLoss, ece: s.ece },
    }),
    conventionsRecorded: true,
    recomputed: false,
  };
}
