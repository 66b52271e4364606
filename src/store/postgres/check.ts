/**
 * `runs check` in PostgreSQL: a run's records re-checked against its summary
 * (`run-records-check.ts`), its rows against the digest written with them, its case set
 * against its case positions. The server keeps its own pages sound: the store's integrity
 * finding is that every table of the schema is there.
 */
import { checkEachRun, checkStoredRun } from '../run-check.js';
import type { RunCheck, StoreCheck } from '../stored-run.js';
import {
  caseDigest,
  CASE_DIGEST_COLUMNS,
  CASE_REPLICA_COLUMN,
  DECISION_DIGEST_COLUMNS,
} from '../sqlite/case-digest.js';
import { runCheckHead, type RunRow } from '../sqlite/run-rows.js';
import type { PgCases } from './cases.js';
import type { PgConnection, Row } from './connection.js';
import type { PgRuns } from './runs.js';
import { HEAD_SQL } from './runs.js';
import { STORE_TABLES } from './schema.js';

/** What `runs.check` finds for one run (to be called inside one read transaction). */
export function checkPgRun(conn: PgConnection, runs: PgRuns, cases: PgCases, id: string): RunCheck {
  const row = conn.row<RunRow>(HEAD_SQL, [id]);
  if (!row) throw conn.unknownRun(id);
  return checkStoredRun(id, {
    head: runCheckHead(row),
    info: () => runs.info(id)!,
    cases: () => cases.iterate(id),
    changedCases: () => changedCases(conn, id),
    outsideCaseSet: () =>
      conn
        .rows<{ case_id: string }>(
          `SELECT case_id FROM cases WHERE run_id = $1 AND case_id NOT IN (SELECT case_id FROM run_cases WHERE run_id = $1) LIMIT 6`,
          [id],
        )
        .map((r) => r.case_id),
    plannedCount: () => conn.row<{ n: number }>('SELECT count(*) AS n FROM run_cases WHERE run_id = $1', [id])!.n,
    damage: (err) => err,
  });
}

/** Ids of the cases whose rows no longer match the digest written with them. */
function changedCases(conn: PgConnection, id: string): string[] {
  const caseRows = conn.rows(
    `SELECT ${CASE_DIGEST_COLUMNS.join(', ')}, ${CASE_REPLICA_COLUMN}, digest FROM cases WHERE run_id = $1 AND digest IS NOT NULL ORDER BY position`,
    [id],
  );
  const decisionRows = conn.rows(
    `SELECT ${DECISION_DIGEST_COLUMNS.join(', ')} FROM decisions WHERE run_id = $1 ORDER BY case_id, position`,
    [id],
  );
  const byCase = new Map<unknown, Row[]>();
  for (const d of decisionRows) {
    let list = byCase.get(d['case_id']);
    if (!list) byCase.set(d['case_id'], (list = []));
    list.push(d);
  }
  return caseRows
    .filter((c) => caseDigest(c, byCase.get(c['case_id']) ?? []) !== c['digest'])
    .map((c) => String(c['case_id']));
}

/** Every run checked (or only `runIds`), after the schema's tables. */
export function checkPgStore(conn: PgConnection, runs: PgRuns, runIds: readonly string[] | undefined): StoreCheck {
  const present = new Set(
    conn
      .rows<{ name: string }>(
        'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()',
      )
      .map((r) => r.name),
  );
  const missing = STORE_TABLES.filter((t) => !present.has(t));
  const integrity =
    missing.length === 0 ? [] : [`table${missing.length === 1 ? '' : 's'} ${missing.join(', ')} missing`];
  const ids =
    runIds ?? conn.rows<{ id: string }>('SELECT id FROM runs ORDER BY created_ms, id COLLATE "C"').map((r) => r.id);
  return { path: conn.path, integrity, runs: checkEachRun(runs, ids) };
}
