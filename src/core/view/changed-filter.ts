/** Which of two runs' changed decisions `decidekit view`'s comparison lists, a page at a time. */
import type { ChangedDecision } from '../bench/run-diff.js';

/** Changed decisions on one page of a comparison. */
export const CHANGED_PAGE_DECISIONS = 200;

export interface ChangedFilter {
  /** `workflow/question`. */
  readonly question?: string;
  readonly workflow?: string;
  /** Fixed (wrong in A, right in B) or broken (right in A, wrong in B); absent = both. */
  readonly change?: 'fixed' | 'broken';
}

/** A changed decision with what the page shows beside it. */
export interface ChangedItem {
  readonly decision: ChangedDecision;
  /** The start of the case's state, or null when the run's dataset is not at hand. */
  readonly statePreview: string | null;
  /** The question's answers, and each run's predicted distribution (null: the request failed). */
  readonly answers: readonly string[] | null;
  readonly a: readonly number[] | null;
  readonly b: readonly number[] | null;
}

export function passesChanged(d: ChangedDecision, f: ChangedFilter): boolean {
  if (f.workflow !== undefined && d.workflow !== f.workflow) return false;
  if (f.question !== undefined && `${d.workflow}/${d.questionId}` !== f.question) return false;
  if (f.change === 'fixed' && !d.after.correct) return false;
  if (f.change === 'broken' && d.after.correct) return false;
  return true;
}
