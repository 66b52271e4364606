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

/**
 * Each `workflow/question` key made once and handed out again: a run asks the same few
 * questions of every case, and one string a key (its hash worked out once) is cheaper for
 * the maps keyed by it than a new string a decision.
 */
export class QuestionKeys {
  readonly #keys = new Map<string, Map<string, string>>();

  of(workflow: string, questionId: string): string {
    let ofWorkflow = this.#keys.get(workflow);
    if (ofWorkflow === undefined) this.#keys.set(workflow, (ofWorkflow = new Map()));
    let key = ofWorkflow.get(questionId);
    if (key === undefined) ofWorkflow.set(questionId, (key = `${workflow}/${questionId}`));
    return key;
  }
}

/** The question keys and log losses of a case's decisions; `keys` gives the keys made before. */
export function caseFactsOf(c: CaseResult, keys?: QuestionKeys): CaseFacts {
  const questionKeys: string[] = [];
  const logLosses: (number | null)[] = [];
  for (const d of c.decisions) {
    questionKeys.push(keys === undefined ? `${c.workflow}/${d.questionId}` : keys.of(c.workflow, d.questionId));
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
