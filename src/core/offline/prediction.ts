/**
 * Predictions and per-decision scores of offline results (docs/scoring.md,
 * "Offline: one decision"). Every command that turns a saved decision into an answer
 * (`score`, `compare`, `tune`, `actions`) goes through these functions.
 */
import type { ChoiceCase, ChoiceDecision, OfflineCase, OfflineDecision, ScoreCase, YesNoCase } from './case.js';
import { argmaxFirst, logLoss } from '../decision-score.js';
import { ExactSum } from '../exact-sum.js';

/** The yes/no threshold nobody chose: predicted yes iff p >= 0.5. */
export const DEFAULT_YES_NO_THRESHOLD = 0.5;

// Log loss is shared with the benchmark: one home in core/decision-score.ts.
export { LOG_LOSS_FLOOR, logLoss } from '../decision-score.js';

export interface YesNoPrediction {
  readonly yes: boolean;
  /** Probability of the predicted answer: p when yes, else 1 - p. */
  readonly confidence: number;
}

/** Predicted yes iff p >= threshold (so p exactly at the threshold is yes). */
export function predictYesNo(probability: number, threshold: number = DEFAULT_YES_NO_THRESHOLD): YesNoPrediction {
  const yes = probability >= threshold;
  return { yes, confidence: yes ? probability : 1 - probability };
}

export interface ChoicePrediction {
  /** Index of the predicted option in the case's options. */
  readonly index: number;
  /** Probability of the predicted option. */
  readonly confidence: number;
}

/** The `picked` option when given, else the most likely one (a tie goes to the option listed first). */
export function predictChoice(decision: ChoiceDecision): ChoicePrediction {
  const index = predictedChoiceIndex(decision.probabilities, decision.pickedIndex ?? -1);
  return { index, confidence: decision.probabilities[index] as number };
}

/** {@link predictChoice} on bare values: `pickedIndex` is -1 when the result gave none. */
export function predictedChoiceIndex(probabilities: readonly number[], pickedIndex: number): number {
  return pickedIndex >= 0 ? pickedIndex : argmaxFirst(probabilities);
}

/** Brier of a yes/no: the two answers {yes: p, no: 1 - p}, so 2(p - y)^2. Range 0..2. */
export function yesNoBrier(probability: number, correct: boolean): number {
  const d = probability - (correct ? 1 : 0);
  return 2 * d * d;
}

/**
 * Brier of a choice: sum over options of (p_k - o_k)^2 with o one-hot on the correct option.
 * The same terms and exact sum as `brierScore` of the Typed Decisions benchmark.
 */
export function choiceBrier(probabilities: readonly number[], correctIndex: number): number {
  const sum = new ExactSum();
  for (let k = 0; k < probabilities.length; k++) {
    const d = (probabilities[k] as number) - (k === correctIndex ? 1 : 0);
    sum.add(d * d);
  }
  return sum.value();
}

/** One saved decision scored against its case. */
export type ScoredOffline =
  | {
      readonly kind: 'yes_no' | 'choice';
      /** The predicted answer equals the correct one. */
      readonly correct: boolean;
      /** Probability of the predicted answer (the ECE input). */
      readonly confidence: number;
      readonly brier: number;
      readonly logLoss: number;
    }
  | { readonly kind: 'score'; readonly absError: number };

/** Scores one decision; the decision must be of the case's kind (loaders guarantee it). */
export function scoreOffline(
  c: OfflineCase,
  decision: OfflineDecision,
  threshold: number = DEFAULT_YES_NO_THRESHOLD,
): ScoredOffline {
  switch (c.kind) {
    case 'yes_no': {
      const p = expectKind(c, decision, 'yes_no').probability;
      const prediction = predictYesNo(p, threshold);
      return {
        kind: 'yes_no',
        correct: prediction.yes === c.correct,
        confidence: prediction.confidence,
        brier: yesNoBrier(p, c.correct),
        logLoss: logLoss(c.correct ? p : 1 - p),
      };
    }
    case 'choice': {
      const d = expectKind(c, decision, 'choice');
      const prediction = predictChoice(d);
      return {
        kind: 'choice',
        correct: prediction.index === c.correctIndex,
        confidence: prediction.confidence,
        brier: choiceBrier(d.probabilities, c.correctIndex),
        logLoss: logLoss(d.probabilities[c.correctIndex] as number),
      };
    }
    case 'score':
      return { kind: 'score', absError: Math.abs(expectKind(c, decision, 'score').value - c.correct) };
    default:
      return assertNever(c);
  }
}

/** The model's answer to a case: a boolean, an option name or a score value. */
export function predictedAnswer(c: YesNoCase, decision: OfflineDecision, threshold?: number): boolean;
export function predictedAnswer(c: ChoiceCase, decision: OfflineDecision): string;
export function predictedAnswer(c: ScoreCase, decision: OfflineDecision): number;
export function predictedAnswer(
  c: OfflineCase,
  decision: OfflineDecision,
  threshold?: number,
): boolean | string | number;
export function predictedAnswer(
  c: OfflineCase,
  decision: OfflineDecision,
  threshold: number = DEFAULT_YES_NO_THRESHOLD,
): boolean | string | number {
  switch (c.kind) {
    case 'yes_no':
      return predictYesNo(expectKind(c, decision, 'yes_no').probability, threshold).yes;
    case 'choice':
      return c.options[predictChoice(expectKind(c, decision, 'choice')).index] as string;
    case 'score':
      return expectKind(c, decision, 'score').value;
    default:
      return assertNever(c);
  }
}

function expectKind<K extends OfflineDecision['kind']>(
  c: OfflineCase,
  d: OfflineDecision,
  kind: K,
): Extract<OfflineDecision, { kind: K }> {
  if (d.kind !== kind) throw new TypeError(`a ${d.kind} decision cannot answer ${c.kind} case ${c.id}`);
  return d as Extract<OfflineDecision, { kind: K }>;
}

function assertNever(x: never): never {
  throw new TypeError(`unexpected case kind: ${JSON.stringify(x)}`);
}
