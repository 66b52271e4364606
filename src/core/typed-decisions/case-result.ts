import type { QuestionSet, QuestionType } from '../question.js';
import { answersOf } from '../question.js';
import type { GoldAnswer } from '../decision-score.js';
import { scoreDecision } from '../decision-score.js';

/** A Typed Decisions case as checked by a dataset loader (bench, live, probe): one request, several questions. */
export interface TypedDecisionsCase {
  readonly id: string;
  readonly workflow: string;
  /** Sent as-is: a string, or a JSON object/array. */
  readonly state: string | object;
  readonly questions: QuestionSet;
  /** Gold per question, aligned with `questions`. */
  readonly gold: readonly GoldAnswer[];
}

/** Why a request produced no answers. A failed case is data, not an exception. */
export type FailureKind =
  'timeout' | 'transport' | 'http' | 'rate_limited' | 'request_rejected' | 'auth' | 'malformed' | 'too_large';

export const FAILURE_KINDS: readonly FailureKind[] = [
  'timeout',
  'transport',
  'http',
  'rate_limited',
  'request_rejected',
  'auth',
  'malformed',
  'too_large',
];

export interface Failure {
  readonly kind: FailureKind;
  /** Short, secret-free message ("HTTP 500: internal error", "question risk: probabilities sum to 1.3"). */
  readonly message: string;
}

export type RequestOutcome =
  | {
      readonly status: 'answered';
      readonly latencyMs: number;
      readonly inputTokens: number | null;
      /** The model the response said answered (absent when it named none). */
      readonly model?: string;
      /** The replica that answered, shown without credentials (absent for a run on one server). */
      readonly replica?: string;
    }
  | {
      readonly status: 'failed';
      readonly failure: Failure;
      readonly latencyMs: number | null;
      /** The replica that failed it (absent for a run on one server). */
      readonly replica?: string;
    };

export type DecisionOutcome =
  | {
      readonly status: 'answered';
      /** Predicted distribution aligned with `answers`. */
      readonly probabilities: readonly number[];
      readonly predicted: string;
      readonly confidence: number;
      readonly correct: boolean;
      readonly kl: number;
      readonly brier: number;
    }
  | { readonly status: 'failed'; readonly failure: Failure };

export interface Decision {
  readonly questionId: string;
  readonly type: QuestionType;
  readonly answers: readonly string[];
  readonly gold: { readonly label: string; readonly probabilities: readonly number[] };
  readonly outcome: DecisionOutcome;
}

/** The result of one case: its request and one decision per question. */
export interface CaseResult {
  readonly caseId: string;
  readonly workflow: string;
  readonly request: RequestOutcome;
  readonly decisions: readonly Decision[];
}

/**
 * Predicted distributions per question, aligned with the case's questions and with each
 * question's answers (built by the protocol layer: missing -> 0, extra ignored).
 */
export type PredictedAnswers = readonly (readonly number[])[];

/** Scores a case from its answers, or turns every decision into an error row. */
export function scoreCase(
  benchCase: TypedDecisionsCase,
  outcome:
    | {
        readonly status: 'answered';
        readonly latencyMs: number;
        readonly inputTokens: number | null;
        readonly predicted: PredictedAnswers;
        readonly model?: string | null;
      }
    | { readonly status: 'failed'; readonly failure: Failure; readonly latencyMs: number | null },
): CaseResult {
  const decisions: Decision[] = [];
  for (let i = 0; i < benchCase.questions.length; i++) {
    const [questionId, question] = benchCase.questions[i]!;
    const gold = benchCase.gold[i]!;
    const answers = answersOf(question);
    const goldView = { label: answers[gold.labelIndex]!, probabilities: gold.probabilities };
    if (outcome.status === 'failed') {
      decisions.push({
        questionId,
        type: question.type,
        answers,
        gold: goldView,
        outcome: { status: 'failed', failure: outcome.failure },
      });
      continue;
    }
    const probabilities = outcome.predicted[i]!;
    const s = scoreDecision(gold, probabilities);
    decisions.push({
      questionId,
      type: question.type,
      answers,
      gold: goldView,
      outcome: {
        status: 'answered',
        probabilities,
        predicted: answers[s.predictedIndex]!,
        confidence: s.confidence,
        correct: s.correct,
        kl: s.kl,
        brier: s.brier,
      },
    });
  }
  const request: RequestOutcome =
    outcome.status === 'answered'
      ? {
          status: 'answered',
          latencyMs: outcome.latencyMs,
          inputTokens: outcome.inputTokens,
          ...(outcome.model ? { model: outcome.model } : {}),
        }
      : { status: 'failed', failure: outcome.failure, latencyMs: outcome.latencyMs };
  return { caseId: benchCase.id, workflow: benchCase.workflow, request, decisions };
}

/** The models the answered requests said answered them, sorted; empty when none named one. */
export function answeredModelsOf(cases: Iterable<CaseResult>): string[] {
  const names = new Set<string>();
  for (const c of cases)
    if (c.request.status === 'answered' && c.request.model !== undefined) names.add(c.request.model);
  return [...names].sort();
}
