/**
 * The SQLite save of a batch of cases (`case-batch.ts`), in one transaction: the in-process
 * `cases.save` and the writer thread (`../writer/`) both run it, so both store the same bytes.
 */
import type { StoredStatus } from '../../core/run-status.js';
import { DecidekitError } from '../../core/errors.js';
import type { SaveProgress } from '../stored-run.js';
import {
  BATCH_CASE_SLOTS,
  BATCH_DECISION_SLOTS,
  batchValue,
  forEachBatchCase,
  type PackedCaseBatch,
} from './case-batch.js';
import { batchCaseDigests } from './case-digest.js';
import type { RunTables } from './run-tables.js';
import { DECISION_ROWS_A_STATEMENT } from './run-statements.js';

/** Commits `batch` to the run `runId` (and the run's duration so far); throws, keeping none of it, when it cannot. */
export function saveCaseBatch(tables: RunTables, runId: string, batch: PackedCaseBatch, progress: SaveProgress): void {
  const { conn, statements } = tables;
  const write = conn.db.transaction(() => {
    const row = statements.status.get(runId) as { status: StoredStatus; duration_ms: number | null } | undefined;
    if (!row) throw conn.unknownRun(runId);
    // A stored run that gets new cases (resume, retry) is running again: its old summary goes.
    if (row.status !== 'running' && batch.kinds.length > 0)
      tables.writeSummary(runId, 'running', row.duration_ms, null);
    const digestOf = batchCaseDigests(runId, batch);
    forEachBatchCase(batch, (at, count) => insertCase(tables, runId, batch, at, digestOf(at, count), count));
    if (progress.durationMs !== undefined) statements.duration.run(progress.durationMs, runId);
  });
  // IMMEDIATE takes the write lock before the first read: a deferred transaction that
  // read first cannot be upgraded once another process has written (WAL), and fails at
  // once with "database is locked" instead of waiting out the busy timeout.
  conn.writing(runId, () => conn.committing(() => write.immediate(), false));
}

/** Inserts the case at `at` of a batch (its digest made), binding its values where they are. */
function insertCase(
  tables: RunTables,
  runId: string,
  b: PackedCaseBatch,
  at: number,
  digest: string,
  count: number,
): void {
  const s = tables.statements;
  const caseId = batchValue(b, at) as string;
  // workflow, request_status, latency_ms, input_tokens, error_kind, error_message, answered_model, replica
  const w = batchValue(b, at + 1);
  const st = batchValue(b, at + 2);
  const l = batchValue(b, at + 3);
  const t = batchValue(b, at + 4);
  const ek = batchValue(b, at + 5);
  const em = batchValue(b, at + 6);
  const m = batchValue(b, at + 7);
  const r = batchValue(b, at + 8);
  const casePosition = s.casePosition.get(runId, caseId) as number | undefined;
  if (casePosition === undefined)
    throw new DecidekitError(
      'invalid_run',
      `cannot save case ${JSON.stringify(caseId)}: it is not in the case set of run ${runId}`,
    );
  if (s.insertNewCase.run(runId, caseId, casePosition, w, st, l, t, ek, em, m, r, digest).changes === 0) {
    // Saved before: a retry replaces it.
    s.deleteCase.run(runId, casePosition);
    s.insertCase.run(runId, caseId, casePosition, w, st, l, t, ek, em, m, r, digest);
  }
  // Its decisions a statement at a time (up to DECISION_ROWS_A_STATEMENT rows each).
  let k = at + BATCH_CASE_SLOTS;
  for (let first = 0; first < count; first += DECISION_ROWS_A_STATEMENT) {
    const rows = Math.min(DECISION_ROWS_A_STATEMENT, count - first);
    const values: (string | number | null)[] = [];
    for (let position = first; position < first + rows; position++) {
      values.push(runId, caseId, casePosition, position);
      for (const end = k + BATCH_DECISION_SLOTS; k < end; k++) values.push(batchValue(b, k));
    }
    s.insertDecisions(rows).run(...values);
  }
}
