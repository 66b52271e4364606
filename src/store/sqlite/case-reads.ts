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
import { isNumberArray, isStringArray, parseStoredJson, remembered } from './run-rows.js';

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
 * kl, brier, probabilities_json, error_kind, error_message`). The SQLite read selects its
 * case's position in place of the case id (`PositionedDecisionRowValues`): the same columns
 * after it, and no id string made a decision.
 */
export type DecisionRowValues = readonly [caseId: string, ...DecisionColumns];

/** A `decisions` row with its case's position first (`SELECT case_position, question_id, …`). */
export type PositionedDecisionRowValues = readonly [casePosition: number, ...DecisionColumns];

/** The columns of a `decisions` row after its case's id or position. */
type DecisionColumns = [
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
 * A `cases` row read as an array with its position after its columns (`SELECT case_id, …,
 * replica, position`), as the SQLite read selects it to pair the case with its decisions.
 */
export type PositionedCaseRowValues = readonly [...CaseRowValues, position: number];

/**
 * The cases of a run from its two row streams, both in run order (the decisions' by their
 * case's position, then their own): each case takes the decisions that carry its position.
 * A decision whose position no case row has is passed over, as the join of the two tables
 * would. Reads straight from the statements' iterators: the caller turns SQLite's failures
 * into the store's words.
 */
export function* mergeCaseRows(
  conn: RowReader,
  runId: string,
  cases: Iterator<PositionedCaseRowValues>,
  decisions: Iterator<PositionedDecisionRowValues>,
): Generator<CaseResult> {
  const read = new DecisionReader(conn, runId);
  let d = decisions.next();
  for (let c = cases.next(); c.done !== true; c = cases.next()) {
    const row = c.value;
    const caseId = row[0];
    const position = row[9];
    const own: Decision[] = [];
    while (d.done !== true && d.value[0] < position) d = decisions.next();
    while (d.done !== true && d.value[0] === position) {
      own.push(read.decision(caseId, d.value));
      d = decisions.next();
    }
    yield caseOfValues(conn, runId, row as unknown as CaseRowValues, own);
  }
}

/**
 * Texts of answers, of gold distributions and of predicted ones already parsed and checked,
 * and their values, one map per kind (so a text checked as one kind is never taken for
 * another). Bounded: a run whose texts all differ empties them now and then.
 */
const parsedAnswers = new Map<string, unknown>();
const parsedGold = new Map<string, unknown>();
const parsedPredicted = new Map<string, unknown>();

/**
 * Makes decisions of `decisions` rows of one run (read as arrays, with their case's id or
 * position first: only the columns after it are read). A run's answers and gold
 * distributions repeat with its questions and cases, and its predicted distributions where
 * a model answers alike: each distinct text is parsed and checked once (the values are
 * read-only).
 */
class DecisionReader {
  constructor(
    private readonly conn: RowReader,
    private readonly runId: string,
  ) {}

  decision(caseId: string, d: DecisionRowValues | PositionedDecisionRowValues): Decision {
    const status = d[6];
    let outcome: DecisionOutcome;
    if (status === 'answered') {
      const predicted = d[7];
      const correct = d[8];
      const confidence = d[9];
      const kl = d[10];
      const brier = d[11];
      const problem = answeredScoresProblem(predicted, correct, confidence, kl, brier);
      if (problem !== null) throw this.conn.damaged(this.runId, `case ${caseId} question ${d[1]}: ${problem}`);
      outcome = {
        status: 'answered',
        probabilities: this.shared(
          parsedPredicted,
          d[12]!,
          'predicted distribution',
          caseId,
          isNumberArray,
        ) as number[],
        predicted: predicted!,
        confidence: confidence!,
        correct: correct === 1,
        kl: kl!,
        brier: brier!,
      };
    } else if (status === 'failed') {
      const errorKind = d[13];
      if (!FAILURE_KINDS.includes(errorKind as FailureKind))
        throw this.conn.damaged(this.runId, `case ${caseId} question ${d[1]}: unknown failure kind`);
      outcome = { status: 'failed', failure: { kind: errorKind as FailureKind, message: d[14] ?? '' } };
    } else {
      throw this.conn.damaged(this.runId, `case ${caseId} question ${d[1]}: unknown status`);
    }
    return {
      questionId: d[1],
      type: d[2],
      answers: this.shared(parsedAnswers, d[3], 'answers', caseId, isStringArray) as string[],
      gold: {
        label: d[4],
        probabilities: this.shared(parsedGold, d[5], 'gold distribution', caseId, isNumberArray) as number[],
      },
      outcome,
    };
  }

  private parsed(text: unknown, what: string, caseId: string, isValid: (v: unknown) => boolean): unknown {
    return parseStoredJson(text, `${what} of case ${caseId}`, this.runId, this.conn.path, isValid);
  }

  private shared(
    parsed: Map<string, unknown>,
    text: string,
    what: string,
    caseId: string,
    isValid: (v: unknown) => boolean,
  ): unknown {
    return parsed.get(text) ?? remembered(parsed, text, this.parsed(text, what, caseId, isValid));
  }
}

/** The decision of a `decisions` row (read as an array). */
export function decisionOfValues(conn: RowReader, runId: string, d: DecisionRowValues): Decision {
  return new DecisionReader(conn, runId).decision(d[0], d);
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
