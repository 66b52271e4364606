/**
 * A SQLite store as decidekit wrote it at an older schema version: one run, its cases saved
 * in the order given, the rows a save of that version made written here as SQL.
 */
import Database from 'better-sqlite3';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import { runConfig } from '../../core/bench/test-support/run-fixtures.js';
import { packedCaseDigest } from '../sqlite/case-digest.js';
import { packCaseRows, PACKED_CASE_VALUES, PACKED_DECISION_VALUES } from '../sqlite/case-rows.js';
import { APPLICATION_ID, MIGRATIONS } from '../sqlite/schema.js';

/**
 * Writes the store at `path` at schema `version` with one running run of `caseIds`, holding
 * `cases` (digests from version 6 on, a model from version 4 on); returns the run's id.
 */
export function writeStoreAtVersion(
  path: string,
  version: number,
  caseIds: readonly string[],
  cases: readonly CaseResult[],
): string {
  const config = runConfig({ caseIds: [...caseIds] });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  for (const migration of MIGRATIONS.slice(0, version)) db.exec(migration);
  db.pragma(`user_version = ${version}`);
  db.pragma(`application_id = ${APPLICATION_ID}`);
  const id = `20261130-041512-v${String(version).padStart(2, '0')}`;
  db.prepare(
    `INSERT INTO runs (id, created_at, created_ms, status, fingerprint, tool_version, model, endpoint_scheme, endpoint_host,
      endpoint_port, endpoint_path, dataset_id, dataset_split, dataset_synthetic, case_count, filtered, config_json)
     VALUES (?, '2026-11-30T04:15:12.000Z', 0, 'running', 'f', '0.1.0', 'm', 'http', 'h', 80, '/v1/systemone', 'd', 'test', 0, ?, 0, ?)`,
  ).run(id, caseIds.length, JSON.stringify(config));
  if (version >= 2) {
    const position = db.prepare('INSERT INTO run_cases (run_id, case_id, position) VALUES (?, ?, ?)');
    caseIds.forEach((caseId, i) => position.run(id, caseId, i));
  }
  const caseColumns = ['run_id', 'position', 'case_id', 'workflow', 'request_status', 'latency_ms', 'input_tokens'];
  caseColumns.push('error_kind', 'error_message');
  if (version >= 4) caseColumns.push('answered_model');
  if (version >= 6) caseColumns.push('digest');
  const insertCase = db.prepare(
    `INSERT INTO cases (${caseColumns.join(', ')}) VALUES (${caseColumns.map(() => '?').join(', ')})`,
  );
  // From version 11 on, each decision also holds its case's position.
  const keyed = version >= 11;
  const insertDecision = db.prepare(`INSERT INTO decisions (run_id, case_id, position, question_id, type, answers_json,
    gold_label, gold_probabilities_json, status, predicted, correct, confidence, kl, brier, probabilities_json,
    error_kind, error_message${keyed ? ', case_position' : ''}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?${keyed ? ', ?' : ''})`);
  const save = db.transaction(() => {
    for (const c of cases) {
      const p = packCaseRows([c]);
      const count = c.decisions.length;
      const at = caseIds.indexOf(c.caseId);
      const values: unknown[] = [id, at, ...p.slice(0, 7)];
      if (version >= 4) values.push(p[7]);
      if (version >= 6) values.push(packedCaseDigest(id, p, 0, count));
      insertCase.run(values);
      for (let d = 0; d < count; d++) {
        const from = PACKED_CASE_VALUES + d * PACKED_DECISION_VALUES;
        const values = [id, c.caseId, d, ...p.slice(from, from + PACKED_DECISION_VALUES)];
        insertDecision.run(keyed ? [...values, at] : values);
      }
    }
  });
  save();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return id;
}
