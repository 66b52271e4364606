import type { QuestionSet } from '../../../core/question.js';

/**
 * A built-in model of the reference server: a pure, deterministic function of the request
 * (the same state and questions always give the same answer). It never sees gold.
 */
export interface DecisionModel {
  readonly name: string;
  /** One line for `/v1/models`, `--help` and the README. */
  readonly description: string;
  /** One distribution per question, aligned with `answersOf(question)`, each summing to 1. */
  answer(state: string | object, questions: QuestionSet): readonly (readonly number[])[];
}
