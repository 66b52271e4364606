/**
 * What the calibration fits and checks: one decision's predicted distribution and its
 * target, with the case it belongs to (folds keep a case's decisions together) and its
 * group (one fit a group).
 */

export interface CalibrationExample {
  /** The case (offline: the case, or its item when it has a `group`); decisions of one case share a fold. */
  readonly caseId: string;
  /** Orders a case's decisions: offline the case id, benchmark workflow/question. */
  readonly decisionKey: string;
  /** The fit group (`all`, a question type or a question). */
  readonly group: string;
  /** Predicted distribution, aligned with the question's answers. */
  readonly p: readonly number[];
  /** Target distribution: one-hot on the correct answer offline, the gold distribution on a benchmark. */
  readonly target: readonly number[];
  /** Index of the correct answer (offline) or the gold label (benchmark). */
  readonly labelIndex: number;
  /** Offline `choice` with a `picked` answer: it stays the prediction. */
  readonly pickedIndex?: number;
}

/** Examples in one canonical order (case, then decision), so a fit does not depend on input order. */
export function canonicalOrder<E extends CalibrationExample>(examples: readonly E[]): E[] {
  return [...examples].sort((a, b) => compare(a.caseId, b.caseId) || compare(a.decisionKey, b.decisionKey));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
