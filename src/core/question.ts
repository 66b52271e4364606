/**
 * A typed question, as checked at the boundary (protocol or dataset loader).
 * Options and levels are arrays: their order is part of the input.
 */
export type Question = NoulQuestion | ChoiceQuestion | ScoreQuestion;
export type QuestionType = Question['type'];

export const QUESTION_TYPES: readonly QuestionType[] = ['noul', 'choice', 'score'];

export interface NoulQuestion {
  readonly type: 'noul';
  readonly instructions: string;
  /** Optional descriptions of the two answers. */
  readonly criteria?: { readonly true?: string; readonly false?: string };
}

export interface ChoiceQuestion {
  readonly type: 'choice';
  readonly instructions: string;
  /** Option names in criteria order (2..255, distinct). */
  readonly options: readonly string[];
  /** Description per option, aligned with `options`; null when the wire had null. */
  readonly descriptions: readonly (string | null)[];
}

export interface ScoreQuestion {
  readonly type: 'score';
  readonly instructions: string;
  /** Level descriptions, lowest first (2..10). Level i is named String(i). */
  readonly levels: readonly string[];
}

/** A request's questions: id -> question, in the order given. */
export type QuestionSet = ReadonlyArray<readonly [id: string, question: Question]>;

/**
 * How far the probabilities of one question's answers may sum from 1 and still count as a
 * distribution: saved data and hosted servers round to a few decimals. One value for gold,
 * predictions, results files and server answers alike.
 */
export const PROBABILITY_SUM_TOLERANCE = 0.01;

const NOUL_ANSWERS: readonly string[] = ['true', 'false'];
const LEVEL_NAMES: readonly (readonly string[])[] = Array.from({ length: 11 }, (_, k) =>
  Array.from({ length: k }, (_, i) => String(i)),
);

/**
 * The answers of a question in their canonical order: `noul` -> true, false;
 * `choice` -> options in criteria order; `score` -> "0".."K-1".
 */
export function answersOf(question: Question): readonly string[] {
  switch (question.type) {
    case 'noul':
      return NOUL_ANSWERS;
    case 'choice':
      return question.options;
    case 'score':
      return LEVEL_NAMES[question.levels.length] ?? question.levels.map((_, i) => String(i));
    default:
      return assertNever(question);
  }
}

export function assertNever(x: never): never {
  throw new Error(`unexpected variant: ${JSON.stringify(x)}`);
}
