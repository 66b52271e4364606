/** A stored case read back from its `cases` row and `decisions` rows; a row that breaks the rules is damage. */
import {
  FAILURE_KINDS,
  type CaseResult,
  type Decision,
  type DecisionOutcome,
  type FailureKind,
  type RequestOutcome,
} from '../../core/typed-decisions/case-result.js';
import type { QuestionType } from '../../core/question.js';
import type { SqliteConnection } from './connection.js';
import { isNumberArray, isStringArray, parseStoredJson } from './run-rows.js';

/** What reading rows back needs of a connection (the PostgreSQL adapter reads the same rows). */
export type RowReader = Pick<SqliteConnection, 'path' | 'damaged'>;

/** A `cases` row as read back. */
export interface StoredCaseRow {
  case_id: string;
  workflow: string;
  request_status: 'answered' | 'failed';
  latency_ms: number | null;
  answered_model?: string | null;
  input_tokens: number | null;
  error_kind: string | null;
  error_message: string | null;
}

/** A `decisions` row as read back. */
export interface StoredDecisionRow {
  case_id: string;
  question_id: string;
  type: QuestionType;
  answers_json: string;
  gold_label: string;
  gold_probabilities_json: string;
  status: 'answered' | 'failed';
  predicted: string | null;
  correct: number | null;
  confidence: number | null;
  kl: number | null;
  brier: number | null;
  probabilities_json: string | null;
  error_kind: string | null;
  error_message: string | null;
}

/** The case of a `cases` row with its decisions. */
export function caseOf(conn: RowReader, runId: string, c: StoredCaseRow, decisions: Decision[]): CaseResult {
  let request: RequestOutcome;
  if (c.request_status === 'answered') {
    if (typeof c.latency_ms !== 'number') throw conn.damaged(runId, `case ${c.case_id} has no latency`);
    request = {
      status: 'answered',
      latencyMs: c.latency_ms,
      inputTokens: c.input_tokens,
      ...(c.answered_model ? { model: c.answered_model } : {}),
    };
  } else if (c.request_status === 'failed') {
    if (!FAILURE_KINDS.includes(c.error_kind as FailureKind))
      throw conn.damaged(runId, `case ${c.case_id} has an unknown failure kind ${JSON.stringify(c.error_kind)}`);
    request = {
      status: 'failed',
      failure: { kind: c.error_kind as FailureKind, message: c.error_message ?? '' },
      latencyMs: c.latency_ms,
    };
  } else {
    throw conn.damaged(runId, `case ${c.case_id} has an unknown status ${JSON.stringify(c.request_status)}`);
  }
  return { caseId: c.case_id, workflow: c.workflow, request, decisions };
}

/**
 * The cases of a run from its two row streams, both in the same order (the decisions'
 * grouped by case and in their case's order): each case takes the decisions that follow
 * with its id. `step` reads the next row (where a read error becomes a store error).
 */
export function* mergeCaseRows(
  conn: SqliteConnection,
  runId: string,
  cases: Iterator<StoredCaseRow>,
  decisions: Iterator<StoredDecisionRow>,
  step: <T>(read: () => T) => T,
): Generator<CaseResult> {
  let d = step(() => decisions.next());
  for (;;) {
    const c = step(() => cases.next());
    if (c.done === true) return;
    const caseId = c.value.case_id;
    const own: Decision[] = [];
    while (d.done !== true && d.value.case_id === caseId) {
      own.push(decisionOf(conn, runId, d.value));
      d = step(() => decisions.next());
    }
    yield caseOf(conn, runId, c.value, own);
  }
}

/** The decision of a `decisions` row. */
export function decisionOf(conn: RowReader, runId: string, d: StoredDecisionRow): Decision {
  const json = <T>(text: unknown, what: string, isValid: (v: unknown) => boolean) =>
    parseStoredJson<T>(text, `${what} of case ${d.case_id}`, runId, conn.path, isValid);
  let outcome: DecisionOutcome;
  if (d.status === 'answered') {
    const numbers = [d.confidence, d.kl, d.brier];
    if (
      typeof d.predicted !== 'string' ||
      numbers.some((n) => typeof n !== 'number') ||
      (d.correct !== 0 && d.correct !== 1)
    )
      throw conn.damaged(runId, `case ${d.case_id} question ${d.question_id}: an answered decision lacks its scores`);
    const outOfRange = scoreOutOfRange(d.confidence!, d.kl!, d.brier!);
    if (outOfRange !== null) throw conn.damaged(runId, `case ${d.case_id} question ${d.question_id}: ${outOfRange}`);
    outcome = {
      status: 'answered',
      probabilities: json<number[]>(d.probabilities_json, 'predicted distribution', isNumberArray),
      predicted: d.predicted,
      confidence: d.confidence!,
      correct: d.correct === 1,
      kl: d.kl!,
      brier: d.brier!,
    };
  } else if (d.status === 'failed') {
    if (!FAILURE_KINDS.includes(d.error_kind as FailureKind))
      throw conn.damaged(runId, `case ${d.case_id} question ${d.question_id}: unknown failure kind`);
    outcome = { status: 'failed', failure: { kind: d.error_kind as FailureKind, message: d.error_message ?? '' } };
  } else {
    throw conn.damaged(runId, `case ${d.case_id} question ${d.question_id}: unknown status`);
  }
  return {
    questionId: d.question_id,
    type: d.type,
    answers: json<string[]>(d.answers_json, 'answers', isStringArray),
    gold: {
      label: d.gold_label,
      probabilities: json<number[]>(d.gold_probabilities_json, 'gold distribution', isNumberArray),
    },
    outcome,
  };
}

/**
 * A stored score no scoring could have made, in words naming its JSON key; null when each is
 * in range. Read on, one would break the summaries (a confidence below 0 falls in no
 * calibration bin).
 */
function scoreOutOfRange(confidence: number, kl: number, brier: number): string | null {
  if (!(confidence >= 0 && confidence <= 1)) return `stored confidence ${confidence} is not between 0 and 1`;
  if (!Number.isFinite(kl)) return `stored kl ${kl} is not a finite number`;
  if (!(brier >= 0 && Number.isFinite(brier))) return `stored brier ${brier} is not a finite number of at least 0`;
  return null;
}
