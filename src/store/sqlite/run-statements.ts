/** The SQL of the runs, their cases and decisions. */
import type Database from 'better-sqlite3';
import { CASE_DIGEST_COLUMNS, CASE_REPLICA_COLUMN, DECISION_DIGEST_COLUMNS } from './case-digest.js';
import { HEAD_COLUMNS, LIST_COLUMNS } from './run-rows.js';

/** Every statement the runs and their cases use, prepared once per connection. */
export function prepareRunStatements(db: Database.Database): RunStatements {
  // A version 11 store read in place has no listings table: none kept, never written.
  const listingsTable =
    (
      db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'run_listings'").get() as {
        n: number;
      }
    ).n > 0;
  // A store before version 13 read in place has no set-aside column: read as none, never written.
  const setAsideColumn =
    (
      db.prepare("SELECT count(*) AS n FROM pragma_table_info('runs') WHERE name = 'set_aside_json'").get() as {
        n: number;
      }
    ).n > 0;
  return {
    head: db.prepare(`SELECT ${HEAD_COLUMNS} FROM runs WHERE id = ?`),
    status: db.prepare('SELECT status, duration_ms FROM runs WHERE id = ?'),
    caseIds: db.prepare('SELECT case_id FROM run_cases WHERE run_id = ? ORDER BY position').pluck(),
    insertPosition: db.prepare('INSERT INTO run_cases (run_id, case_id, position) VALUES (?, ?, ?)'),
    duration: db.prepare('UPDATE runs SET duration_ms = ? WHERE id = ?'),
    deleteRun: db.prepare('DELETE FROM runs WHERE id = ?'),
    outsideCaseSet: db.prepare(
      'SELECT case_id FROM cases WHERE run_id = @id AND case_id NOT IN (SELECT case_id FROM run_cases WHERE run_id = @id) LIMIT 6',
    ),
    plannedCount: db.prepare('SELECT count(*) AS n FROM run_cases WHERE run_id = ?'),
    allIds: db.prepare('SELECT id FROM runs ORDER BY created_ms, id'),
    statusCounts: db.prepare('SELECT status, COUNT(*) AS n FROM runs GROUP BY status'),
    insertRun:
      db.prepare(`INSERT INTO runs (id, created_at, created_ms, status, label, fingerprint, tool_version, model,
        endpoint_scheme, endpoint_host, endpoint_port, endpoint_path, embedded_model, dataset_id, dataset_revision,
        dataset_split, dataset_synthetic, case_count, filtered, config_json)
      VALUES (@id, @created_at, @created_ms, 'running', @label, @fingerprint, @tool_version, @model,
        @endpoint_scheme, @endpoint_host, @endpoint_port, @endpoint_path, @embedded_model, @dataset_id, @dataset_revision,
        @dataset_split, @dataset_synthetic, @case_count, @filtered, @config_json)`),
    // A case by its position (its key): its decisions go with it (their foreign key's cascade).
    deleteCase: db.prepare('DELETE FROM cases WHERE run_id = ? AND position = ?'),
    // Values by position (the order of the packed rows, case-rows.ts): no row objects to make or read.
    insertCase: db.prepare(
      `INSERT INTO cases (run_id, case_id, position, workflow, request_status, latency_ms,
        input_tokens, error_kind, error_message, answered_model, replica, digest)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // A case to save: its position from the run's case set (none: not in it), then its row,
    // unless saved before (a retry, which replaces it). Two plain statements cost less than
    // one INSERT … SELECT … RETURNING (about 1 µs a case, BENCHMARKS.md).
    casePosition: db.prepare('SELECT position FROM run_cases WHERE run_id = ? AND case_id = ?').pluck(),
    insertNewCase: db.prepare(
      `INSERT OR IGNORE INTO cases (run_id, case_id, position, workflow, request_status, latency_ms,
        input_tokens, error_kind, error_message, answered_model, replica, digest)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // The digested rows as two streams in run order, like `cases` and `decisions` below; each
    // decision carries its case's position (`case_position`), which pairs it with its case.
    digestCases: db.prepare(
      `SELECT ${CASE_DIGEST_COLUMNS.join(', ')}, ${CASE_REPLICA_COLUMN}, position, digest FROM cases WHERE run_id = ? AND digest IS NOT NULL ORDER BY position`,
    ),
    digestDecisions: db.prepare(
      `SELECT ${DECISION_DIGEST_COLUMNS.map((c) => `d.${c}`).join(', ')}, d.case_position
      FROM cases c CROSS JOIN decisions d ON d.run_id = c.run_id AND d.case_position = c.position
      WHERE c.run_id = ? AND c.digest IS NOT NULL ORDER BY c.position, d.position`,
    ),
    // A case's decisions, `rows` of them in one statement: one step, not one a row (BENCHMARKS.md).
    insertDecisions: preparedByCount((rows) =>
      db.prepare(`INSERT INTO decisions (run_id, case_id, case_position, position, question_id, type,
        answers_json, gold_label, gold_probabilities_json, status, predicted, correct, confidence, kl, brier,
        probabilities_json, error_kind, error_message) VALUES ${Array.from({ length: rows }, () => DECISION_ROW_PARAMETERS).join(', ')}`),
    ),
    finish: db.prepare(`UPDATE runs SET status = @status, duration_ms = @duration_ms, summary_json = @summary_json,
        accuracy = @accuracy, kl = @kl, brier = @brier, ece = @ece, mean_confidence = @mean_confidence,
        decisions_total = @decisions_total, decisions_correct = @decisions_correct, errors = @errors,
        latency_p50_ms = @latency_p50_ms, statistics_json = NULL
      WHERE id = @id`),
    saveStatistics: db.prepare('UPDATE runs SET statistics_json = ? WHERE id = ? AND summary_json IS NOT NULL'),
    statistics: db.prepare('SELECT statistics_json FROM runs WHERE id = ?'),
    noteSetAside: setAsideColumn
      ? db.prepare(
          `UPDATE runs SET set_aside_json = json_insert(coalesce(set_aside_json, '[]'), '$[#]', json(?)) WHERE id = ?`,
        )
      : null,
    // A run's cases and its decisions, two streams in run order, merged case by case, read as
    // arrays (`case-reads.ts`): both walk their tables' keys (the cases' position, the
    // decisions' case position and question index) without a sort. Each decision is named by
    // its case's id as that case's row holds it (CROSS JOIN keeps the cases the outer loop).
    cases: db.prepare(caseRowsSql('')).raw(),
    decisions: db.prepare(decisionRowsSql('')).raw(),
    // The same from a position on (a page of a run's trace), sought along the same keys.
    casesFrom: db.prepare(caseRowsSql('AND position >= ?')).raw(),
    decisionsFrom: db.prepare(decisionRowsSql('AND c.position >= ?')).raw(),
    saveListings: listingsTable
      ? db.prepare(
          'INSERT OR REPLACE INTO run_listings (run_id, listings_json) SELECT id, ? FROM runs WHERE id = ? AND summary_json IS NOT NULL',
        )
      : null,
    dropListings: listingsTable ? db.prepare('DELETE FROM run_listings WHERE run_id = ?') : null,
    listings: listingsTable
      ? db.prepare('SELECT l.listings_json FROM runs r LEFT JOIN run_listings l ON l.run_id = r.id WHERE r.id = ?')
      : db.prepare('SELECT NULL AS listings_json FROM runs WHERE id = ?'),
    savedIds: db.prepare('SELECT case_id, request_status FROM cases WHERE run_id = ?'),
    answeredModels: db.prepare(
      'SELECT DISTINCT answered_model FROM cases WHERE run_id = ? AND answered_model IS NOT NULL ORDER BY answered_model',
    ),
    list: db.prepare(`SELECT ${LIST_COLUMNS} FROM runs ORDER BY created_ms DESC, id DESC LIMIT ?`),
    exactId: db.prepare('SELECT id FROM runs WHERE id = ?'),
  };
}

/** Most `decisions` rows one `insertDecisions` statement writes: a case with more takes several. */
export const DECISION_ROWS_A_STATEMENT = 16;

/** The values of one `decisions` row, in `insertDecisions`' column order. */
const DECISION_ROW_VALUES = 18;
const DECISION_ROW_PARAMETERS = `(${Array.from({ length: DECISION_ROW_VALUES }, () => '?').join(', ')})`;

/** A statement for each count from 1 to `DECISION_ROWS_A_STATEMENT`, prepared when first asked for. */
function preparedByCount(prepare: (rows: number) => Database.Statement): (rows: number) => Database.Statement {
  const byCount: (Database.Statement | undefined)[] = [];
  return (rows) => (byCount[rows] ??= prepare(rows));
}

/** A run's `cases` rows in run order, `where` narrowing them further. */
function caseRowsSql(where: string): string {
  return `SELECT case_id, workflow, request_status, latency_ms, input_tokens, error_kind, error_message, answered_model, ${CASE_REPLICA_COLUMN} FROM cases WHERE run_id = ? ${where} ORDER BY position`;
}

/** The `decisions` rows of those cases in the same order (`where` on the cases, named `c`). */
function decisionRowsSql(where: string): string {
  return `SELECT c.case_id, d.question_id, d.type, d.answers_json, d.gold_label, d.gold_probabilities_json, d.status,
        d.predicted, d.correct, d.confidence, d.kl, d.brier, d.probabilities_json, d.error_kind, d.error_message
      FROM cases c CROSS JOIN decisions d ON d.run_id = c.run_id AND d.case_position = c.position
      WHERE c.run_id = ? ${where} ORDER BY c.position, d.position`;
}

/** The prepared statements of the runs' tables (the listings' and set-asides' writes are null in an older store read in place). */
export interface RunStatements {
  readonly head: Database.Statement;
  readonly noteSetAside: Database.Statement | null;
  readonly status: Database.Statement;
  readonly caseIds: Database.Statement;
  readonly insertPosition: Database.Statement;
  readonly duration: Database.Statement;
  readonly deleteRun: Database.Statement;
  readonly outsideCaseSet: Database.Statement;
  readonly plannedCount: Database.Statement;
  readonly allIds: Database.Statement;
  readonly statusCounts: Database.Statement;
  readonly insertRun: Database.Statement;
  readonly deleteCase: Database.Statement;
  readonly insertCase: Database.Statement;
  readonly casePosition: Database.Statement;
  readonly insertNewCase: Database.Statement;
  readonly digestCases: Database.Statement;
  readonly digestDecisions: Database.Statement;
  /** The statement inserting `rows` decisions (1 to `DECISION_ROWS_A_STATEMENT`). */
  readonly insertDecisions: (rows: number) => Database.Statement;
  readonly finish: Database.Statement;
  readonly saveStatistics: Database.Statement;
  readonly statistics: Database.Statement;
  readonly cases: Database.Statement;
  readonly decisions: Database.Statement;
  readonly casesFrom: Database.Statement;
  readonly decisionsFrom: Database.Statement;
  readonly saveListings: Database.Statement | null;
  readonly dropListings: Database.Statement | null;
  readonly listings: Database.Statement;
  readonly savedIds: Database.Statement;
  readonly answeredModels: Database.Statement;
  readonly list: Database.Statement;
  readonly exactId: Database.Statement;
}
