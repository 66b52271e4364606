/**
 * Offline scoring domain (formats in docs/file-formats.md): cases with a known correct answer,
 * and one model's saved decisions about them. Loaders check files into these values.
 */
export type OfflineKind = 'yes_no' | 'choice' | 'score';

interface CaseBase {
  readonly id: string;
  readonly prompt?: string;
  /** Set when the case is one field of a grouped item (used by `actions`). */
  readonly group?: string;
  readonly field?: string;
}

export interface YesNoCase extends CaseBase {
  readonly kind: 'yes_no';
  readonly correct: boolean;
}

export interface ChoiceCase extends CaseBase {
  readonly kind: 'choice';
  readonly options: readonly string[];
  readonly correct: string;
  /** Index of `correct` in `options`. */
  readonly correctIndex: number;
}

export interface ScoreCase extends CaseBase {
  readonly kind: 'score';
  readonly scoreMin: number;
  readonly scoreMax: number;
  readonly correct: number;
}

export type OfflineCase = YesNoCase | ChoiceCase | ScoreCase;

export interface YesNoDecision {
  readonly kind: 'yes_no';
  /** P(yes). */
  readonly probability: number;
}

export interface ChoiceDecision {
  readonly kind: 'choice';
  /** Aligned with the case's options. */
  readonly probabilities: readonly number[];
  /** Index of `picked` when the result gave one. */
  readonly pickedIndex?: number;
}

export interface ScoreDecision {
  readonly kind: 'score';
  readonly value: number;
  readonly confidence?: number;
}

export type OfflineDecision = YesNoDecision | ChoiceDecision | ScoreDecision;

/**
 * Largest `cost_usd` and `latency_ms` a result may carry (and largest error cost to tune
 * with). Far above any real decision, and small enough that sums over any file stay finite:
 * a 1e308 on two lines would otherwise overflow to a NaN shown as "n/a".
 */
export const MAX_RESULT_MEASURE = 1e12;

/**
 * Largest magnitude of a score case's `score_min` and `score_max`. A value lies in its range,
 * so an error is at most twice this: the sum of the errors of any file stays finite, where a
 * range near ±1e308 overflowed it to a mean shown as "n/a".
 */
export const MAX_SCORE_BOUND = 1e15;
/** {@link MAX_SCORE_BOUND} as messages write it. */
export const SCORE_BOUND_TEXT = '1e15';

export interface OfflineResult {
  readonly caseId: string;
  readonly model: string;
  readonly decision: OfflineDecision;
  readonly costUsd?: number;
  readonly latencyMs?: number;
}
