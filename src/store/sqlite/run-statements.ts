/** The SQL of the runs, their cases and decisions. */
import type Database from 'better-sqlite3';
import { CASE_DIGEST_COLUMNS, CASE_REPLICA_COLUMN, DECISION_DIGEST_COLUMNS } from './case-digest.js';
import { HEAD_COLUMNS, LIST_COLUMNS } from './run-rows.js';

/** Every statement the runs and their cases use, prepared once per connection. */
export function prepareRunStatements(db: Database.Database): RunStatements {
  // A version 6 store read in place (read-only) has no statistics column: none kept, then.
  const statisticsColumn =
    (
      db.prepare("SELECT count(*) AS n FROM pragma_table_info('runs') WHERE name = 'statistics_json'").get() as {
        n: number;
      }
    ).n > 0;
  // A store before version 10 read in place has no replica column: read as none, never written.
  const replicaColumn =
    (
      db.prepare("SELECT count(*) AS n FROM pragma_table_info('cases') WHERE name = 'replica'").get() as {
        n: number;
      }
    ).n > 0;
  const replica = replicaColumn ? CASE_REPLICA_COLUMN : `NULL AS ${CASE_REPLICA_COLUMN}`;
  return {
    head: db.prepare(`SELECT ${HEAD_COLUMNS} FROM runs WHERE id = ?`),
    status: db.prepare('SELECT status, duration_ms FROM runs WHERE id = ?'),
    position: db.prepare('SELECT position FROM run_cases WHERE run_id = ? AND case_id = ?'),
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
    deleteDecisions: db.prepare('DELETE FROM decisions WHERE run_id = ? AND case_id = ?'),
    deleteCase: db.prepare('DELETE FROM cases WHERE run_id = ? AND case_id = ?'),
    // Values by position (the order of the packed rows, case-rows.ts): no row objects to make or read.
    insertCase: writable(
      replicaColumn,
      db,
      `INSERT INTO cases (run_id, case_id, position, workflow, request_status, latency_ms,
        input_tokens, error_kind, error_message, answered_model, replica, digest)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // The usual save in one statement: the position comes from the run's case set, and a
    // case saved before (or not in the set) inserts nothing and takes the slow path.
    insertNewCase: writable(
      replicaColumn,
      db,
      `INSERT OR IGNORE INTO cases (run_id, case_id, position, workflow, request_status, latency_ms,
        input_tokens, error_kind, error_message, answered_model, replica, digest)
      SELECT run_id, case_id, position, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM run_cases WHERE run_id = ? AND case_id = ?`,
    ),
    // The digested rows as two streams in the same order, like `cases` and `decisions` below.
    digestCases: db.prepare(
      `SELECT ${CASE_DIGEST_COLUMNS.join(', ')}, ${replica}, digest FROM cases WHERE run_id = ? AND digest IS NOT NULL ORDER BY position, case_id`,
    ),
    digestDecisions: db.prepare(
      `SELECT ${DECISION_DIGEST_COLUMNS.map((c) => `d.${c}`).join(', ')}
      FROM cases c CROSS JOIN decisions d ON d.run_id = c.run_id AND d.case_id = c.case_id
      WHERE c.run_id = ? AND c.digest IS NOT NULL ORDER BY c.position, c.case_id, d.position`,
    ),
    insertDecision: db.prepare(`INSERT INTO decisions (run_id, case_id, position, question_id, type, answers_json,
        gold_label, gold_probabilities_json, status, predicted, correct, confidence, kl, brier, probabilities_json,
        error_kind, error_message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    finish: db.prepare(`UPDATE runs SET status = @status, duration_ms = @duration_ms, summary_json = @summary_json,
        accuracy = @accuracy, kl = @kl, brier = @brier, ece = @ece, mean_confidence = @mean_confidence,
        decisions_total = @decisions_total, decisions_correct = @decisions_correct, errors = @errors,
        latency_p50_ms = @latency_p50_ms${statisticsColumn ? ', statistics_json = NULL' : ''}
      WHERE id = @id`),
    saveStatistics: statisticsColumn
      ? db.prepare('UPDATE runs SET statistics_json = ? WHERE id = ? AND summary_json IS NOT NULL')
      : null,
    statistics: db.prepare(
      `SELECT ${statisticsColumn ? 'statistics_json' : 'NULL AS statistics_json'} FROM runs WHERE id = ?`,
    ),
    // A run's cases and its decisions, two streams in the same order (run order, then case
    // id), merged case by case, read as arrays (`case-reads.ts`): walked along `cases_in_run_order` without a sort (CROSS
    // JOIN keeps the cases the outer loop). A store read in place without it sorts instead.
    cases: db
      .prepare(
        `SELECT case_id, workflow, request_status, latency_ms, input_tokens, error_kind, error_message, answered_model, ${replica} FROM cases WHERE run_id = ? ORDER BY position, case_id`,
      )
      .raw(),
    decisions: db
      .prepare(
        `SELECT d.case_id, d.question_id, d.type, d.answers_json, d.gold_label, d.gold_probabilities_json, d.status,
        d.predicted, d.correct, d.confidence, d.kl, d.brier, d.probabilities_json, d.error_kind, d.error_message
      FROM cases c CROSS JOIN decisions d ON d.run_id = c.run_id AND d.case_id = c.case_id
      WHERE c.run_id = ? ORDER BY c.position, c.case_id, d.position`,
      )
      .raw(),
    savedIds: db.prepare('SELECT case_id, request_status FROM cases WHERE run_id = ?'),
    answeredModels: db.prepare(
      'SELECT DISTINCT answered_model FROM cases WHERE run_id = ? AND answered_model IS NOT NULL ORDER BY answered_model',
    ),
    list: db.prepare(`SELECT ${LIST_COLUMNS} FROM runs ORDER BY created_ms DESC, id DESC LIMIT ?`),
    exactId: db.prepare('SELECT id FROM runs WHERE id = ?'),
  };
}

/** A statement that writes a column a store read in place may lack: null there (nothing is written then). */
function writable(present: boolean, db: Database.Database, sql: string): Database.Statement | null {
  return present ? db.prepare(sql) : null;
}

/**
 * The prepared statements of the runs' tables (`saveStatistics` is null in a version 6 store
 * read in place, the case inserts in a store before version 10 read in place).
 */
export interface RunStatements {
  readonly head: Database.Statement;
  readonly status: Database.Statement;
  readonly position: Database.Statement;
  readonly caseIds: Database.Statement;
  readonly insertPosition: Database.Statement;
  readonly duration: Database.Statement;
  readonly deleteRun: Database.Statement;
  readonly outsideCaseSet: Database.Statement;
  readonly plannedCount: Database.Statement;
  readonly allIds: Database.Statement;
  readonly statusCounts: Database.Statement;
  readonly insertRun: Database.Statement;
  readonly deleteDecisions: Database.Statement;
  readonly deleteCase: Database.Statement;
  readonly insertCase: Database.Statement | null;
  readonly insertNewCase: Database.Statement | null;
  readonly digestCases: Database.Statement;
  readonly digestDecisions: Database.Statement;
  readonly insertDecision: Database.Statement;
  readonly finish: Database.Statement;
  readonly saveStatistics: Database.Statement | null;
  readonly statistics: Database.Statement;
  readonly cases: Database.Statement;
  readonly decisions: Database.Statement;
  readonly savedIds: Database.Statement;
  readonly answeredModels: Database.Statement;
  readonly list: Database.Statement;
  readonly exactId: Database.Statement;
}
