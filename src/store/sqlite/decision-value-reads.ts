/**
 * A run's decisions read flat for `runs export`: one array a decision with its case's values,
 * checked as the case iterator checks its rows (`case-reads.ts`) but without building a case
 * or a decision object, and with a question's answers parsed once however many decisions
 * share them. Both adapters read the same columns and check them here.
 */
import { FAILURE_KINDS, type FailureKind } from '../../core/typed-decisions/case-result.js';
import type { StoredDecisionValues } from '../stored-run.js';
import { answeredScoresProblem, type RowReader } from './case-reads.js';
import { isNumberArray, isStringArray, parseStoredJson, remembered } from './run-rows.js';

/**
 * The columns every adapter selects, in `StoredDecisionValues` order (the two parsed arrays
 * are added after them), with `c` the `cases` row and `d` its `decisions` row.
 */
export const DECISION_VALUE_COLUMNS = `c.case_id, c.workflow, c.request_status, c.latency_ms, c.input_tokens, c.error_kind,
  d.question_id, d.type, d.answers_json, d.gold_label, d.gold_probabilities_json, d.status, d.predicted, d.correct,
  d.confidence, d.kl, d.brier, d.probabilities_json, d.error_kind, d.error_message`;

/** A row as selected by `DECISION_VALUE_COLUMNS`, before its check. */
export type RawDecisionValues = unknown[];

/**
 * Checks raw rows and completes them into `StoredDecisionValues`, remembering the JSON texts
 * it has checked: a question's answers, and gold distributions, repeat across cases, and so
 * do predicted ones where a model answers alike (each text's array handed to every row
 * that has it, read-only).
 */
export function createDecisionValueCheck(
  conn: RowReader,
  runId: string,
): (row: RawDecisionValues) => StoredDecisionValues {
  const answersOf = new Map<string, readonly string[]>();
  const goldChecked = new Map<string, true>();
  const predictedOf = new Map<string, readonly number[]>();
  const failureKinds: ReadonlySet<unknown> = new Set<FailureKind>(FAILURE_KINDS);
  const json = <T>(text: unknown, what: string, caseId: string, isValid: (v: unknown) => boolean) =>
    parseStoredJson<T>(text, `${what} of case ${caseId}`, runId, conn.path, isValid);
  return (row) => {
    const caseId = row[0] as string;
    const requestStatus = row[2];
    if (requestStatus === 'answered') {
      if (typeof row[3] !== 'number') throw conn.damaged(runId, `case ${caseId} has no latency`);
    } else if (requestStatus === 'failed') {
      if (!failureKinds.has(row[5]))
        throw conn.damaged(runId, `case ${caseId} has an unknown failure kind ${JSON.stringify(row[5])}`);
    } else {
      throw conn.damaged(runId, `case ${caseId} has an unknown status ${JSON.stringify(requestStatus)}`);
    }
    const [, , , , , , questionId, , answersJson, , goldJson, status, predicted, correct, confidence, kl, brier] = row;
    let probabilities: readonly number[] | null = null;
    if (status === 'answered') {
      const problem = answeredScoresProblem(predicted, correct, confidence, kl, brier);
      if (problem !== null) throw conn.damaged(runId, `case ${caseId} question ${String(questionId)}: ${problem}`);
      const text = row[17] as string;
      probabilities =
        predictedOf.get(text) ??
        remembered(predictedOf, text, json<number[]>(text, 'predicted distribution', caseId, isNumberArray));
    } else if (status === 'failed') {
      if (!failureKinds.has(row[18]))
        throw conn.damaged(runId, `case ${caseId} question ${String(questionId)}: unknown failure kind`);
    } else {
      throw conn.damaged(runId, `case ${caseId} question ${String(questionId)}: unknown status`);
    }
    const answers =
      answersOf.get(answersJson as string) ??
      remembered(answersOf, answersJson as string, json<string[]>(answersJson, 'answers', caseId, isStringArray));
    if (!goldChecked.has(goldJson as string)) {
      json<number[]>(goldJson, 'gold distribution', caseId, isNumberArray);
      remembered(goldChecked, goldJson as string, true);
    }
    row.push(answers, probabilities);
    return row as unknown as StoredDecisionValues;
  };
}
