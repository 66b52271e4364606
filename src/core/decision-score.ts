import { ExactSum } from './exact-sum.js';

/** Floor for a predicted probability inside KL, so a zero on a gold-positive answer stays finite. */
export const KL_FLOOR = 1e-12;

/** Floor of the probability of the true answer inside log loss, so a 0 stays finite (about 34.5). */
export const LOG_LOSS_FLOOR = 1e-15;

/** -ln(max(p_true, 1e-15)); a certain right answer is +0 (never -0). */
export function logLoss(pTrue: number): number {
  return 0 - Math.log(Math.max(pTrue, LOG_LOSS_FLOOR));
}

/**
 * Index of the most likely answer; a tie goes to the answer listed first.
 * `probabilities` must be non-empty.
 */
export function argmaxFirst(probabilities: readonly number[]): number {
  let best = 0;
  let bestP = probabilities[0] as number;
  for (let i = 1; i < probabilities.length; i++) {
    const p = probabilities[i] as number;
    if (p > bestP) {
      best = i;
      bestP = p;
    }
  }
  return best;
}

/**
 * One sum reused by every call below (each empties it first): scoring runs once a decision,
 * and a new sum each time was two typed arrays a decision for the garbage collector.
 */
const scratch = new ExactSum();

/** KL(gold || predicted) in nats over answers with gold > 0; predicted floored at 1e-12. */
export function klDivergence(gold: readonly number[], predicted: readonly number[]): number {
  const sum = scratch;
  sum.reset();
  for (let i = 0; i < gold.length; i++) {
    const g = gold[i] as number;
    if (g > 0) sum.add(g * Math.log(g / Math.max(predicted[i] ?? 0, KL_FLOOR)));
  }
  return sum.value();
}

/** Brier: sum over answers of (p - g)^2; both arrays aligned, missing entries count as 0. */
export function brierScore(gold: readonly number[], predicted: readonly number[]): number {
  const n = Math.max(gold.length, predicted.length);
  const sum = scratch;
  sum.reset();
  for (let i = 0; i < n; i++) {
    const d = (predicted[i] ?? 0) - (gold[i] ?? 0);
    sum.add(d * d);
  }
  return sum.value();
}

export interface GoldAnswer {
  /** Index of the gold label in the question's answers. */
  readonly labelIndex: number;
  /** Gold distribution aligned with the question's answers. */
  readonly probabilities: readonly number[];
}

export interface ScoredDecision {
  readonly predictedIndex: number;
  readonly confidence: number;
  readonly correct: boolean;
  readonly kl: number;
  readonly brier: number;
}

/**
 * Scores one Typed Decisions decision. `predicted` is the predicted distribution already
 * built in the question's answer order (missing -> 0, no renormalisation).
 */
export function scoreDecision(gold: GoldAnswer, predicted: readonly number[]): ScoredDecision {
  const predictedIndex = argmaxFirst(predicted);
  return {
    predictedIndex,
    confidence: predicted[predictedIndex] as number,
    correct: predictedIndex === gold.labelIndex,
    kl: klDivergence(gold.probabilities, predicted),
    brier: brierScore(gold.probabilities, predicted),
  };
}
