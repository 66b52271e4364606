/**
 * `runs check` in SQLite: a run's records re-checked against its summary (`run-records-check.ts`),
 * its rows against the digest written with them, its case set against its case positions;
 * and for the whole store SQLite's own `quick_check` first.
 */
import { StoreDamagedError } from '../store-errors.js';
import { checkEachRun, checkStoredRun } from '../run-check.js';
import type { RunCheck, StoreCheck } from '../stored-run.js';
import type { SqliteCases } from './cases.js';
import { caseDigest } from './case-digest.js';
import { runCheckHead, type RunRow } from './run-rows.js';
import type { RunTables } from './run-tables.js';
import type { SqliteRuns } from './runs.js';

/** What `runs.check` finds for one run (to be called inside one read transaction). */
export function checkRun(tables: RunTables, runs: SqliteRuns, cases: SqliteCases, id: string): RunCheck {
  const { conn, statements } = tables;
  const row = statements.head.get(id) as RunRow | undefined;
  if (!row) throw conn.unknownRun(id);
  return checkStoredRun(id, {
    head: runCheckHead(row),
    info: () => runs.info(id)!,
    cases: () => cases.iterate(id),
    changedCases: () => changedCases(tables, id),
    outsideCaseSet: () => (statements.outsideCaseSet.all({ id }) as { case_id: string }[]).map((r) => r.case_id),
    plannedCount: () => (statements.plannedCount.get(id) as { n: number }).n,
    damage: (err) => conn.readFailure(err, id),
  });
}

/** Ids of the cases whose rows no longer match the digest written with them. */
function changedCases(tables: RunTables, id: string): string[] {
  const { statements } = tables;
  // Case by case, so a run of any size is checked without holding its rows: the cases and
  // their decisions are two streams in run order, each case taking the decisions that
  // follow with its position.
  const changed: string[] = [];
  const cases = statements.digestCases.iterate(id) as IterableIterator<Record<string, unknown>>;
  const decisionRows = statements.digestDecisions.iterate(id) as IterableIterator<Record<string, unknown>>;
  try {
    let d = decisionRows.next();
    for (const c of cases) {
      const decisions: Record<string, unknown>[] = [];
      for (; d.done !== true && d.value['case_position'] === c['position']; d = decisionRows.next())
        decisions.push(d.value);
      if (caseDigest(c, decisions) !== c['digest']) changed.push(String(c['case_id']));
    }
  } finally {
    decisionRows.return?.();
    cases.return?.();
  }
  return changed;
}

/**
 * `PRAGMA quick_check` and `runs.check` for every stored run (or only `runIds`). Damage that
 * stops SQLite's own check is its finding, and each run is still checked: a run whose
 * records cannot be read has that as its problem.
 */
export function checkStore(tables: RunTables, runs: SqliteRuns, runIds: readonly string[] | undefined): StoreCheck {
  const { conn, statements } = tables;
  let integrity: string[];
  try {
    integrity = conn.reading(() =>
      findingsOf((conn.db.pragma('quick_check') as { quick_check: string }[]).map((r) => r.quick_check)),
    );
  } catch (err) {
    if (!(err instanceof StoreDamagedError)) throw err;
    integrity = [err.detail];
  }
  const ids = runIds ?? conn.reading(() => (statements.allIds.all() as { id: string }[]).map((r) => r.id));
  return { path: conn.path, integrity, runs: checkEachRun(runs, ids) };
}

/**
 * SQLite's check as one finding an entry: a row of `quick_check` may hold many findings
 * joined by newlines, under a heading naming the database (not a finding itself).
 */
function findingsOf(rows: readonly string[]): string[] {
  return rows
    .flatMap((row) => row.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '' && line !== 'ok' && !/^\*\*\* in database \S+ \*\*\*$/.test(line));
}
