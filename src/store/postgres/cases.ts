/** A run's cases in PostgreSQL: saved a batch per transaction, read back in run order a page at a time. */
import type { CaseResult, Decision } from '../../core/typed-decisions/case-result.js';
import type { CaseSource } from '../../core/bench/run.js';
import type { CaseWriter, StoreCases } from '../store.js';
import type { SaveProgress, StoredDecisionValues } from '../stored-run.js';
import { createDecisionValueCheck, DECISION_VALUE_COLUMNS } from '../sqlite/decision-value-reads.js';
import { caseOf, decisionOf, type StoredCaseRow, type StoredDecisionRow } from '../sqlite/case-reads.js';
import { packCaseRows } from '../sqlite/case-rows.js';
import type { PgConnection, Row } from './connection.js';
import { saveCaseSteps } from './save-cases.js';
import { decisionCsvOfValues, type DecisionCsvOptions } from '../decision-csv.js';
import { freshReaderSource, savedIdsOf, type OpenReader } from '../case-source.js';

/** Rows fetched from the cursor per round trip. */
const PAGE_ROWS = 2000;

/** A case's row and its decisions, one row per decision (a case without any gives one row of nulls). */
const CASE_ROWS_SQL = `SELECT c.case_id, c.workflow, c.request_status, c.latency_ms, c.input_tokens, c.error_kind,
    c.error_message, c.answered_model, c.replica, d.question_id AS d_question_id, d.type AS d_type,
    d.answers_json AS d_answers_json, d.gold_label AS d_gold_label, d.gold_probabilities_json AS d_gold_probabilities_json,
    d.status AS d_status, d.predicted AS d_predicted, d.correct AS d_correct, d.confidence AS d_confidence,
    d.kl AS d_kl, d.brier AS d_brier, d.probabilities_json AS d_probabilities_json, d.error_kind AS d_error_kind,
    d.error_message AS d_error_message
  FROM cases c LEFT JOIN decisions d ON d.run_id = c.run_id AND d.case_id = c.case_id
  WHERE c.run_id = $1 AND c.position >= $2 ORDER BY c.position, d.position`;

/** The export read's columns, each under its own name (the cases' and decisions' `error_kind` would collide). */
const DECISION_VALUE_ALIASES = DECISION_VALUE_COLUMNS.split(',').map((_, i) => `v${i}`);
const DECISION_VALUES_SQL = `SELECT ${DECISION_VALUE_COLUMNS.split(',')
  .map((column, i) => `${column.trim()} AS ${DECISION_VALUE_ALIASES[i]!}`)
  .join(', ')}
  FROM cases c JOIN decisions d ON d.run_id = c.run_id AND d.case_id = c.case_id
  WHERE c.run_id = $1 ORDER BY c.position, d.position`;

/** What `source` opens for each iteration: a fresh store to read the cases from. */
export type { OpenReader };

export class PgCases implements StoreCases {
  constructor(
    private readonly conn: PgConnection,
    private readonly openReader: OpenReader,
    private readonly startAsyncWriter: () => Promise<CaseWriter>,
  ) {}

  save(runId: string, results: readonly CaseResult[], progress: SaveProgress = {}): void {
    const { conn } = this;
    const steps = saveCaseSteps(runId, packCaseRows(results), progress, (id) => conn.unknownRun(id));
    conn.writing(runId, () =>
      conn.transaction('write', () => {
        for (let step = steps.next(); step.done !== true;)
          step = steps.next(conn.query(step.value.sql, step.value.params));
      }),
    );
  }

  startWriter(): Promise<CaseWriter> {
    return this.startAsyncWriter();
  }

  /** Every saved case of the run at once, in run order. */
  readAll(runId: string): CaseResult[] {
    return [...this.iterate(runId)];
  }

  *iterate(runId: string, options: { readonly fromPosition?: number } = {}): Generator<CaseResult> {
    const { conn } = this;
    let current: { row: StoredCaseRow; decisions: Decision[] } | null = null;
    for (const page of cursorPages(conn, runId, CASE_ROWS_SQL, [runId, options.fromPosition ?? 0])) {
      for (const r of page) {
        if (current !== null && current.row.case_id !== r['case_id']) {
          yield caseOf(conn, runId, current.row, current.decisions);
          current = null;
        }
        current ??= { row: r as unknown as StoredCaseRow, decisions: [] };
        if (r['d_question_id'] !== null) current.decisions.push(decisionOf(conn, runId, decisionRowOf(r)));
      }
    }
    if (current !== null) yield caseOf(conn, runId, current.row, current.decisions);
  }

  *decisionValues(runId: string): Generator<StoredDecisionValues> {
    const { conn } = this;
    const check = createDecisionValueCheck(conn, runId);
    for (const page of cursorPages(conn, runId, DECISION_VALUES_SQL, [runId]))
      for (const r of page) yield check(DECISION_VALUE_ALIASES.map((alias) => r[alias]));
  }

  /** The text made from the flat read's checked rows (the server's text is not read faster than its rows). */
  decisionCsv(runId: string, write: (piece: Uint8Array | string) => void, options?: DecisionCsvOptions): boolean {
    for (const piece of decisionCsvOfValues(this.decisionValues(runId), options)) write(piece);
    return true;
  }

  source(runId: string, length: number): CaseSource {
    return freshReaderSource(this.openReader, runId, length);
  }

  savedIds(runId: string, options: { readonly includeFailed?: boolean } = {}): Set<string> {
    return savedIdsOf(this.byOutcome(runId), options.includeFailed);
  }

  byOutcome(runId: string): { readonly answered: Set<string>; readonly failed: Set<string> } {
    const { conn } = this;
    return conn.reading(
      () =>
        conn.transaction('read', () => {
          if (conn.row('SELECT 1 FROM runs WHERE id = $1', [runId]) === undefined) throw conn.unknownRun(runId);
          const answered = new Set<string>();
          const failed = new Set<string>();
          for (const r of conn.rows<{ case_id: string; request_status: string }>(
            'SELECT case_id, request_status FROM cases WHERE run_id = $1',
            [runId],
          ))
            (r.request_status === 'answered' ? answered : failed).add(r.case_id);
          return { answered, failed };
        }),
      runId,
    );
  }
}

function decisionRowOf(r: Row): StoredDecisionRow {
  return {
    case_id: r['case_id'] as string,
    question_id: r['d_question_id'] as string,
    type: r['d_type'] as StoredDecisionRow['type'],
    answers_json: r['d_answers_json'] as string,
    gold_label: r['d_gold_label'] as string,
    gold_probabilities_json: r['d_gold_probabilities_json'] as string,
    status: r['d_status'] as StoredDecisionRow['status'],
    predicted: r['d_predicted'] as string | null,
    correct: r['d_correct'] as number | null,
    confidence: r['d_confidence'] as number | null,
    kl: r['d_kl'] as number | null,
    brier: r['d_brier'] as number | null,
    probabilities_json: r['d_probabilities_json'] as string | null,
    error_kind: r['d_error_kind'] as string | null,
    error_message: r['d_error_message'] as string | null,
  };
}

/**
 * A known run's rows of `sql` a page at a time, through a cursor in a read transaction of its
 * own (or the caller's): the cursor is closed and the transaction ended however the reader stops.
 */
function* cursorPages(conn: PgConnection, runId: string, sql: string, params: readonly unknown[]): Generator<Row[]> {
  if (conn.reading(() => conn.row('SELECT 1 FROM runs WHERE id = $1', [runId]), runId) === undefined)
    throw conn.unknownRun(runId);
  const own = conn.inTransaction ? null : conn.reading(() => conn.beginRead(), runId);
  const cursor = conn.cursorName();
  let open = false;
  try {
    conn.reading(() => conn.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${sql}`, params), runId);
    open = true;
    for (;;) {
      const page = conn.reading(() => conn.rows(`FETCH ${PAGE_ROWS} FROM ${cursor}`), runId);
      yield page;
      if (page.length < PAGE_ROWS) break;
    }
  } finally {
    if (open && own === null) {
      try {
        conn.query(`CLOSE ${cursor}`);
      } catch {
        // The transaction it lived in ended with it.
      }
    }
    own?.end();
  }
}
