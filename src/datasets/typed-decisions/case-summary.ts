import type { TypedDecisionsCase } from '../../core/typed-decisions/case-result.js';
import { QUESTION_TYPES, type QuestionType } from '../../core/question.js';

/** What a dataset holds, for `dataset info`. */
export interface CaseSummary {
  readonly cases: number;
  readonly decisions: number;
  /** Cases per workflow, keys sorted. */
  readonly casesByWorkflow: Readonly<Record<string, number>>;
  /** Decisions per question type, in noul, choice, score order; types absent from the data are left out. */
  readonly decisionsByType: Readonly<Partial<Record<QuestionType, number>>>;
}

export function summarizeCases(cases: readonly TypedDecisionsCase[]): CaseSummary {
  const byWorkflow = new Map<string, number>();
  const byType = new Map<QuestionType, number>();
  let decisions = 0;
  for (const c of cases) {
    byWorkflow.set(c.workflow, (byWorkflow.get(c.workflow) ?? 0) + 1);
    for (const [, q] of c.questions) {
      decisions++;
      byType.set(q.type, (byType.get(q.type) ?? 0) + 1);
    }
  }
  const casesByWorkflow: Record<string, number> = {};
  for (const w of [...byWorkflow.keys()].sort()) casesByWorkflow[w] = byWorkflow.get(w)!;
  const decisionsByType: Partial<Record<QuestionType, number>> = {};
  for (const t of QUESTION_TYPES) {
    const n = byType.get(t);
    if (n !== undefined) decisionsByType[t] = n;
  }
  return { cases: cases.length, decisions, casesByWorkflow, decisionsByType };
}
