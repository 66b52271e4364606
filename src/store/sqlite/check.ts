/**
 * `runs check` in SQLite: a run's records re-checked against its summary (`run-records-check.ts`),
 * its rows against the digest written with them, its case set against its case positions;
 * and for the whole store SQLite's own `quick_check` first.
 */
import { StoreDamagedError } from '../store-errors.js';
import { checkRunRecords } from '../run-records-check.js';
import type { RunCheck, StoreCheck } from '../stored-run.js';
import type { SqliteCases } from './cases.js';
import { caseDigest } from './case-digest.js';
import { headlineOf, STATUSES, type RunRow } from './run-rows.js';
import type { RunTables } from './run-tables.js';
import type { SqliteRuns } from './runs.js';

/** What `runs.check` finds for one run (to be called inside one read transaction). */
export function checkRun(tables: RunTables, runs: SqliteRuns, cases: SqliteCases, id: string): RunCheck {
  const { conn, statements } = tables;
  const row = statements.head.get(id) as RunRow | undefined;
  if (!row) throw conn.unknownRun(id);
  const base = { id, status: STATUSES.has(row.status) ? row.status : null, savedCases: row.saved_cases };
  try {
    // The cases are read as they are checked (twice: their records, then the summary).
    const info = runs.info(id)!;
    const configured = info.config.caseIds.length;
    const source = { length: row.saved_cases, [Symbol.iterator]: () => cases.iterate(id) };
    const problems = checkRunRecords(
      { ...info, cases: source },
      {
        status: row.status,
        summaryStored: row.summary_json !== null,
        headline: headlineOf(row),
        caseCount: row.case_count,
      },
    );
    problems.push(...changedCases(tables, id));
    const outside = (statements.outsideCaseSet.all({ id }) as { case_id: string }[]).map((r) => r.case_id);
    if (outside.length > 0) problems.push(`saved cases outside the run's case set: ${outside.join(', ')}`);
    const planned = (statements.plannedCount.get(id) as { n: number }).n;
    if (planned !== configured)
      problems.push(`${planned} case positions stored for ${configured} cases in the configuration`);
    return { ...base, problems };
  } catch (err) {
    const damage = conn.readFailure(err, id);
    if (!(damage instanceof StoreDamagedError)) throw damage;
    // The run is named on the line above its problems.
    const ownPrefix = `run ${id}: `;
    return {
      ...base,
      problems: [damage.detail.startsWith(ownPrefix) ? damage.detail.slice(ownPrefix.length) : damage.detail],
    };
  }
}

/** Cases whose rows no longer match the digest written with them. */
function changedCases(tables: RunTables, id: string): string[] {
  const { statements } = tables;
  // Case by case, so a run of any size is checked without holding its rows: the cases and
  // their decisions are two streams in the same order, each case taking the decisions that
  // follow with its id.
  const changed: string[] = [];
  const cases = statements.digestCases.iterate(id) as IterableIterator<Record<string, unknown>>;
  const decisionRows = statements.digestDecisions.iterate(id) as IterableIterator<Record<string, unknown>>;
  try {
    let d = decisionRows.next();
    for (const c of cases) {
      const decisions: Record<string, unknown>[] = [];
      for (; d.done !== true && d.value['case_id'] === c['case_id']; d = decisionRows.next()) decisions.push(d.value);
      if (caseDigest(c, decisions) !== c['digest']) changed.push(String(c['case_id']));
    }
  } finally {
    decisionRows.return?.();
    cases.return?.();
  }
  return changed.length === 0
    ? []
    : [
        `${changed.length} case${changed.length === 1 ? '' : 's'} changed since saved (their stored rows no longer match their digest): ${changed.slice(0, 10).join(', ')}${changed.length > 10 ? ` and ${changed.length - 10} more` : ''}`,
      ];
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
  return { path: conn.path, integrity, runs: ids.map((id) => checkReadable(runs, id)) };
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

function checkReadable(runs: SqliteRuns, id: string): RunCheck {
  try {
    return runs.check(id);
  } catch (err) {
    if (!(err instanceof StoreDamagedError)) throw err;
    return { id, status: null, savedCases: 0, problems: [err.detail] };
  }
}
