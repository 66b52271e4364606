/**
 * What more than one of a run's per-case accumulators (the summary, the listings, the
 * statistics sample) needs of a case's decisions beyond the decisions themselves, worked out
 * once a decision: its question key and, when answered, its log loss.
 */
import type { CaseResult, Decision } from '../typed-decisions/case-result.js';
import { logLoss } from '../decision-score.js';

export interface CaseFacts {
  /** Per decision, aligned with the case's decisions: `workflow/question`. */
  readonly questionKeys: readonly string[];
  /** Per decision: its log loss against the gold label, or null when it failed. */
  readonly logLosses: readonly (number | null)[];
}

/** The question keys and log losses of a case's decisions. */
export function caseFactsOf(c: CaseResult): CaseFacts {
  const questionKeys: string[] = [];
  const logLosses: (number | null)[] = [];
  for (const d of c.decisions) {
    questionKeys.push(`${c.workflow}/${d.questionId}`);
    logLosses.push(d.outcome.status === 'answered' ? decisionLogLoss(d, d.outcome.probabilities) : null);
  }
  return { questionKeys, logLosses };
}

/** The question keys of a case's decisions (for what needs no log loss). */
export function questionKeysOf(c: CaseResult): Pick<CaseFacts, 'questionKeys'> {
  return { questionKeys: c.decisions.map((d) => `${c.workflow}/${d.questionId}`) };
}

/** Log loss of an answered decision against its gold label (docs/scoring.md). */
function decisionLogLoss(d: Decision, probabilities: readonly number[]): number {
  return logLoss(probabilities[d.answers.indexOf(d.gold.label)] ?? 0);
}
