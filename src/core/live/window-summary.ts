/**
 * The numbers the live monitor shows about its last N decisions: rolling accuracy (errors
 * are misses, as in a benchmark) and the accuracy of the answered ones, ECE and mean
 * confidence (answered decisions only, from the core's calibration), Brier against gold and
 * a ten-bin confidence histogram.
 */
import { binOf, calibrate, CALIBRATION_BINS } from '../calibration.js';
import { exactMean } from '../exact-sum.js';
import type { QuestionType } from '../question.js';

/** One decision as the rolling window keeps it. */
export type WindowDecision =
  | {
      readonly status: 'answered';
      readonly type: QuestionType;
      readonly confidence: number;
      readonly correct: boolean;
      readonly brier: number;
    }
  | { readonly status: 'failed'; readonly type: QuestionType };

export interface WindowSummary {
  /** Decisions in the window, failed ones included. */
  readonly n: number;
  readonly answered: number;
  /** Answered decisions that match gold. */
  readonly correct: number;
  /** Correct over all decisions (a failed one is a miss); null for an empty window. */
  readonly accuracy: number | null;
  /**
   * Correct over answered decisions only; null when none was answered. Beside `accuracy` it
   * tells an outage (failed probes) from a drop in the quality of the answers.
   */
  readonly answeredAccuracy: number | null;
  /** Over answered decisions; null when none was answered. */
  readonly ece: number | null;
  readonly meanConfidence: number | null;
  readonly brier: number | null;
  /** Answered decisions per confidence bin (bin = min(floor(c * 10), 9)). */
  readonly histogram: readonly number[];
}

/** Summarizes a window of decisions; every value is independent of their order. */
export function summarizeWindow(decisions: readonly WindowDecision[]): WindowSummary {
  const answered = decisions.filter(
    (d): d is Extract<WindowDecision, { status: 'answered' }> => d.status === 'answered',
  );
  const histogram = new Array<number>(CALIBRATION_BINS).fill(0);
  for (const d of answered) histogram[binOf(d.confidence)]!++;
  const calibration = calibrate(answered.map((d) => ({ confidence: d.confidence, hit: d.correct })));
  const correct = answered.reduce((n, d) => n + (d.correct ? 1 : 0), 0);
  return {
    n: decisions.length,
    answered: answered.length,
    correct,
    accuracy: decisions.length === 0 ? null : correct / decisions.length,
    answeredAccuracy: answered.length === 0 ? null : correct / answered.length,
    ece: calibration.ece,
    meanConfidence: calibration.meanConfidence,
    brier: exactMean(answered.map((d) => d.brier)),
    histogram,
  };
}

/** The last `size` items of `items` after appending `added` (a rolling window). */
export function slideWindow<T>(items: readonly T[], added: readonly T[], size: number): T[] {
  const all = [...items, ...added];
  return all.length > size ? all.slice(all.length - size) : all;
}
