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

/**
 * A `cases` row as read back, its columns by position (`SELECT case_id, workflow,
 * request_status, latency_ms, input_tokens, error_kind, error_message, answered_model, replica`):
 * rows read as arrays cost a third less than as objects with named fields.
 */
export type CaseRowValues = readonly [
  caseId: string,
  workflow: string,
  requestStatus: string,
  latencyMs: number | null,
  inputTokens: number | null,
  errorKind: string | null,
  errorMessage: string | null,
  answeredModel: string | null,
  replica: string | null,
];

/**
 * A `decisions` row as read back, by position (`SELECT case_id, question_id, type,
 * answers_json, gold_label, gold_probabilities_json, status, predicted, correct, confidence,
 * kl, brier, probabilities_json, error_kind, error_message`).
 */
export type DecisionRowValues = readonly [
  caseId: string,
  questionId: string,
  type: QuestionType,
  answersJson: string,
  goldLabel: string,
  goldProbabilitiesJson: string,
  status: string,
  predicted: string | null,
  correct: number | null,
  confidence: number | null,
  kl: number | null,
  brier: number | null,
  probabilitiesJson: string | null,
  errorKind: string | null,
  errorMessage: string | null,
];

/** The case of a `cases` row (read as an array) with its decisions. */
export function caseOfValues(conn: RowReader, runId: string, c: CaseRowValues, decisions: Decision[]): CaseResult {
  const [caseId, workflow, status, latencyMs, inputTokens, errorKind, errorMessage, answeredModel, replica] = c;
  const from = replica ? { replica } : {};
  let request: RequestOutcome;
  if (status === 'answered') {
    if (typeof latencyMs !== 'number') throw conn.damaged(runId, `case ${caseId} has no latency`);
    request = {
      status: 'answered',
      latencyMs,
      inputTokens,
      ...(answeredModel ? { model: answeredModel } : {}),
      ...from,
    };
  } else if (status === 'failed') {
    if (!FAILURE_KINDS.includes(errorKind as FailureKind))
      throw conn.damaged(runId, `case ${caseId} has an unknown failure kind ${JSON.stringify(errorKind)}`);
    const failure = { kind: errorKind as FailureKind, message: errorMessage ?? '' };
    request = { status: 'failed', failure, latencyMs, ...from };
  } else {
    throw conn.damaged(runId, `case ${caseId} has an unknown status ${JSON.stringify(status)}`);
  }
  return { caseId, workflow, request, decisions };
}

/**
 * The cases of a run from its two row streams, both in the same order (the decisions'
 * grouped by case and in their case's order): each case takes the decisions that follow
 * with its id. `step` reads the next row (where a read error becomes a store error).
 */
export function* mergeCaseRows(
  conn: RowReader,
  runId: string,
  cases: Iterator<CaseRowValues>,
  decisions: Iterator<DecisionRowValues>,
  step: <T>(read: () => T) => T,
): Generator<CaseResult> {
  let d = step(() => decisions.next());
  for (;;) {
    const c = step(() => cases.next());
    if (c.done === true) return;
    const caseId = c.value[0];
    const own: Decision[] = [];
    while (d.done !== true && d.value[0] === caseId) {
      own.push(decisionOfValues(conn, runId, d.value));
      d = step(() => decisions.next());
    }
    yield caseOfValues(conn, runId, c.value, own);
  }
}

/**
 * Texts of answers and of gold distributions already parsed and checked, and their values,
 * one map per kind (so a text checked as one kind is never taken for the other). Bounded: a
 * run whose texts all differ empties them now and then.
 */
const parsedAnswers = new Map<string, unknown>();
const parsedGold = new Map<string, unknown>();
const PARSED_TEXTS_LIMIT = 4_096;

/** The decision of a `decisions` row (read as an array). */
export function decisionOfValues(conn: RowReader, runId: string, d: DecisionRowValues): Decision {
  const [caseId, questionId, type, answersJson, goldLabel, goldJson, status, predicted, correct] = d;
  const [, , , , , , , , , confidence, kl, brier, probabilitiesJson, errorKind, errorMessage] = d;
  const json = <T>(text: unknown, what: string, isValid: (v: unknown) => boolean) =>
    parseStoredJson<T>(text, `${what} of case ${caseId}`, runId, conn.path, isValid);
  // A run's answers and gold distributions repeat with its questions and cases: each
  // distinct text is parsed and checked once (the values are read-only).
  const shared = <T>(parsed: Map<string, unknown>, text: string, what: string, isValid: (v: unknown) => boolean): T => {
    const known = parsed.get(text);
    if (known !== undefined) return known as T;
    const value = json<T>(text, what, isValid);
    if (parsed.size >= PARSED_TEXTS_LIMIT) parsed.clear();
    parsed.set(text, value);
    return value;
  };
  let outcome: DecisionOutcome;
  if (status === 'answered') {
    const problem = answeredScoresProblem(predicted, correct, confidence, kl, brier);
    if (problem !== null) throw conn.damaged(runId, `case ${caseId} question ${questionId}: ${problem}`);
    outcome = {
      status: 'answered',
      probabilities: json<number[]>(probabilitiesJson, 'predicted distribution', isNumberArray),
      predicted: predicted!,
      confidence: confidence!,
      correct: correct === 1,
      kl: kl!,
      brier: brier!,
    };
  } else if (status === 'failed') {
    if (!FAILURE_KINDS.includes(errorKind as FailureKind))
      throw conn.damaged(runId, `case ${caseId} question ${questionId}: unknown failure kind`);
    outcome = { status: 'failed', failure: { kind: errorKind as FailureKind, message: errorMessage ?? '' } };
  } else {
    throw conn.damaged(runId, `case ${caseId} question ${questionId}: unknown status`);
  }
  return {
    questionId,
    type,
    answers: shared<string[]>(parsedAnswers, answersJson, 'answers', isStringArray),
    gold: {
      label: goldLabel,
      probabilities: shared<number[]>(parsedGold, goldJson, 'gold distribution', isNumberArray),
    },
    outcome,
  };
}

/** A `cases` row read back with named columns (the PostgreSQL adapter's rows). */
export interface StoredCaseRow {
  case_id: string;
  workflow: string;
  request_status: 'answered' | 'failed';
  latency_ms: number | null;
  answered_model?: string | null;
  replica?: string | null;
  input_tokens: number | null;
  error_kind: string | null;
  error_message: string | null;
}

/** A `decisions` row read back with named columns. */
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

/** `caseOfValues` of a row with named columns. */
export function caseOf(conn: RowReader, runId: string, c: StoredCaseRow, decisions: Decision[]): CaseResult {
  const values: CaseRowValues = [
    c.case_id,
    c.workflow,
    c.request_status,
    c.latency_ms,
    c.input_tokens,
    c.error_kind,
    c.error_message,
    c.answered_model ?? null,
    c.replica ?? null,
  ];
  return caseOfValues(conn, runId, values, decisions);
}

/** `decisionOfValues` of a row with named columns. */
export function decisionOf(conn: RowReader, runId: string, d: StoredDecisionRow): Decision {
  const values: DecisionRowValues = [
    d.case_id,
    d.question_id,
    d.type,
    d.answers_json,
    d.gold_label,
    d.gold_probabilities_json,
    d.status,
    d.predicted,
    d.correct,
    d.confidence,
    d.kl,
    d.brier,
    d.probabilities_json,
    d.error_kind,
    d.error_message,
  ];
  return decisionOfValues(conn, runId, values);
}

/**
 * What is wrong with an answered decision's stored scores, in words naming their JSON keys;
 * null when each is there and in range. Read on, a score no scoring could have made would
 * break the summaries (a confidence below 0 falls in no calibration bin).
 */
export function answeredScoresProblem(
  predicted: unknown,
  correct: unknown,
  confidence: unknown,
  kl: unknown,
  brier: unknown,
): string | null {
  if (
    typeof predicted !== 'string' ||
    typeof confidence !== 'number' ||
    typeof kl !== 'number' ||
    typeof brier !== 'number' ||
    (correct !== 0 && correct !== 1)
  )
    return 'an answered decision lacks its scores';
  if (!(confidence >= 0 && confidence <= 1)) return `stored confidence ${confidence} is not between 0 and 1`;
  if (!Number.isFinite(kl)) return `stored kl ${kl} is not a finite number`;
  if (!(brier >= 0 && Number.isFinite(brier))) return `stored brier ${brier} is not a finite number of at least 0`;
  return null;
}
