/**
 * The runs' tables over one connection: their statements, and what the runs and the cases
 * both do with them (writing a run's summary, reading a run's head).
 */
import type { StoredStatus } from '../../core/run-status.js';
import type { BenchSummary } from '../../core/bench/summary.js';
import type { RunConfig } from '../../core/bench/run.js';
import { StoreDamagedError } from '../store-errors.js';
import type { StoredRunHead } from '../stored-run.js';
import type { SqliteConnection } from './connection.js';
import { headOf, isConfig, parseStoredJson, STATUSES, summaryColumns, type RunRow } from './run-rows.js';
import { prepareRunStatements, type RunStatements } from './run-statements.js';

export class RunTables {
  readonly statements: RunStatements;

  constructor(readonly conn: SqliteConnection) {
    this.statements = prepareRunStatements(conn.db);
  }

  /**
   * Writes the run's status, duration and summary (null: none, for a run running again),
   * dropping the statistics and listings kept with the summary before.
   */
  writeSummary(runId: string, status: StoredStatus, durationMs: number | null, summary: BenchSummary | null): void {
    const write = this.conn.db.transaction(() => {
      const info = this.statements.finish.run({
        id: runId,
        status,
        duration_ms: durationMs,
        ...summaryColumns(summary),
      });
      if (info.changes === 0) throw this.conn.unknownRun(runId);
      // What the report listed belongs to the summary it was listed with.
      this.statements.dropListings?.run(runId);
    });
    write();
  }

  /** The row's status, refused as damage when it is none of a run's. */
  statusOf(row: RunRow): StoredStatus {
    if (!STATUSES.has(row.status))
      throw new StoreDamagedError(this.conn.path, `run ${row.id}: unknown status ${JSON.stringify(row.status)}`, {
        runId: row.id,
      });
    return row.status;
  }

  headOf(row: RunRow): StoredRunHead {
    this.statusOf(row);
    // Only a run that asked for no model needs its answers' models to say which one it got.
    const asked = row.model !== null || row.embedded_model !== null;
    const answered = asked
      ? null
      : (this.statements.answeredModels.all(row.id) as { answered_model: string }[]).map((r) => r.answered_model);
    return headOf(row, answered);
  }

  /**
   * The run's configuration with its case ids, which are its `run_cases` rows in position
   * order; a run stored before they left the configuration (read in place) has them there.
   */
  configOf(row: RunRow): RunConfig {
    const config = parseStoredJson<RunConfig>(row.config_json, 'configuration', row.id, this.conn.path, isConfig);
    if (config.caseIds.length > 0) return config;
    return { ...config, caseIds: this.statements.caseIds.all(row.id) as string[] };
  }

  /** Throws `unknown_run` when the store holds no run `runId`. */
  refuseUnknown(runId: string): void {
    if (this.conn.reading(() => this.statements.exactId.get(runId), runId) === undefined)
      throw this.conn.unknownRun(runId);
  }
}
