/**
 * Per-question details a benchmark report draws beside the summary: the gold majority
 * rate (how easy a question is) and the gold→predicted confusion matrix of each `choice`
 * and `score` question. Pure counts over the run's decisions; keys are `workflow/question`,
 * sorted, as in `BenchSummary.byQuestion`.
 */
import type { CaseResult } from '../typed-decisions/case-result.js';
import { listingsOfCases } from './run-listings.js';

export interface MajorityRate {
  /** The most common gold label (ties: the first in the question's answer order). */
  readonly label: string;
  /** Decisions whose gold label is `label` / all decisions of the question (failed included, as accuracy counts them). */
  readonly rate: number;
  readonly total: number;
}

/**
 * The accuracy a model would get by always answering each question's most common gold
 * label: 96% accuracy on a question whose majority rate is 95% is not an achievement.
 */
export function majorityRates(cases: Iterable<CaseResult>): Record<string, MajorityRate> {
  return { ...listingsOfCases(cases).majority };
}

export interface ConfusionMatrix {
  /** `workflow/question`. */
  readonly key: string;
  readonly type: 'choice' | 'score';
  /** Row and column labels: the question's answers in order. */
  readonly answers: readonly string[];
  /** counts[gold][predicted], over answered decisions. */
  readonly counts: readonly (readonly number[])[];
  readonly answered: number;
  /** Answered decisions on the diagonal. */
  readonly correct: number;
}

/** One matrix per `choice` and `score` question that has answered decisions, keys sorted. */
export function confusionMatrices(cases: Iterable<CaseResult>): ConfusionMatrix[] {
  return [...listingsOfCases(cases).confusion];
}
