/** Which decisions of a run `decidekit view`'s trace shows, a page at a time. */
import type { Decision } from '../typed-decisions/case-result.js';

/** Decisions on one page of the trace. */
export const TRACE_PAGE_DECISIONS = 100;

/** Which decisions the trace shows. */
export interface TraceFilter {
  /** `workflow/question`. */
  readonly question?: string;
  readonly workflow?: string;
  /** Wrong or failed decisions only. */
  readonly wrong: boolean;
}

/** One decision of the trace, with its case. */
export interface TraceDecision {
  readonly caseId: string;
  readonly workflow: string;
  readonly decision: Decision;
}
