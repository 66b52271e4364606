/** Bench runs in SQLite: one `runs` row each, with the run's case set in `run_cases`. */
import type { StoredStatus } from '../../core/run-status.js';
import Database from 'better-sqlite3';
import { isFiltered, type BenchRun, type ReplicaSetAside, type RunConfig } from '../../core/bench/run.js';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import type { RunListings } from '../../core/bench/run-listings.js';
import type { RunStatistics } from '../../core/bench/run-statistics.js';
import type { BenchSummary } from '../../core/bench/summary.js';
import { DecidekitError } from '../../core/errors.js';
import { fingerprintOf } from '../fingerprint.js';
import { refuseUnstorableRun } from '../record-checks.js';
import { createRunId } from '../run-id.js';
import { summarizeRun } from '../run-summary.js';
import type { StoreRuns } from '../store.js';
import type { FinishRunInput, RunCheck, StoredRunHead, StoredRunInfo } from '../stored-run.js';
import type { SqliteCases } from './cases.js';
import { checkRun } from './check.js';
import { isObject, parseStoredJson, STATUSES, storedRunInfo, type RunRow } from './run-rows.js';
import type { RunTables } from './run-tables.js';

export class SqliteRuns implements StoreRuns {
  constructor(
    private readonly tables: RunTables,
    private readonly cases: SqliteCases,
  ) {}

  create(input: {
    readonly config: RunConfig;
    readonly label: string | null;
    readonly createdAt: string;
  }): StoredRunHead {
    const { config } = input;
    const { conn, statements } = this.tables;
    refuseUnstorableRun(config);
    const row = runRowOf(config, input);
    const insert = conn.db.transaction((id: string) => {
      statements.insertRun.run({ id, ...row });
      config.caseIds.forEach((caseId, position) => statements.insertPosition.run(id, caseId, position));
    });
    return conn.writing(null, () => {
      for (let attempt = 0; ; attempt++) {
        const id = createRunId(input.createdAt, conn.randomBytes(2));
        try {
          insert.immediate(id);
          return this.head(id)!;
        } catch (err) {
          // Two runs started in the same second drew the same suffix: draw again.
          if (attempt < 8 && err instanceof Database.SqliteError && err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
            continue;
          throw err;
        }
      }
    });
  }

  finish(runId: string, input: FinishRunInput): void {
    if (input.summary.status !== input.status) {
      throw new DecidekitError(
        'invalid_run',
        `cannot finish run ${runId}: status ${input.status} but its summary says ${input.summary.status}`,
      );
    }
    const { conn } = this.tables;
    conn.writing(runId, () =>
      conn.committing(() => this.tables.writeSummary(runId, input.status, input.durationMs, input.summary), true),
    );
  }

  markInterrupted(runId: string): void {
    const { conn, statements } = this.tables;
    const update = conn.db.transaction(() => {
      const row = statements.head.get(runId) as RunRow | undefined;
      if (!row) throw conn.unknownRun(runId);
      if (this.tables.statusOf(row) !== 'running') return;
      const config = this.tables.configOf(row);
      // Summarized case by case: a killed run of any size is marked without loading it whole.
      const summary = summarizeRun(config, this.cases.iterate(runId), { interrupted: true });
      this.tables.writeSummary(runId, 'interrupted', row.duration_ms, summary);
    });
    conn.writing(runId, () => conn.committing(() => update.immediate(), true));
  }

  reopen(runId: string): void {
    this.tables.conn.writing(runId, () => {
      const head = this.head(runId);
      if (!head) throw this.tables.conn.unknownRun(runId);
      this.tables.writeSummary(runId, 'running', head.durationMs, null);
    });
  }

  delete(runId: string): boolean {
    // Cases, decisions and positions go with it (ON DELETE CASCADE, foreign keys on).
    return this.tables.conn.writing(runId, () => this.tables.statements.deleteRun.run(runId).changes > 0);
  }

  head(id: string): StoredRunHead | null {
    return this.tables.conn.reading(() => {
      const row = this.tables.statements.head.get(id) as RunRow | undefined;
      return row ? this.tables.headOf(row) : null;
    }, id);
  }

  get(id: string): BenchRun | null {
    const { conn } = this.tables;
    const read = conn.db.transaction((): BenchRun | null => {
      let cases: CaseResult[] | null = null;
      const info = this.infoOf(id, (config) => {
        cases = this.cases.readAll(id);
        return summarizeRun(config, cases);
      });
      if (info === null) return null;
      return { ...info, cases: cases ?? this.cases.readAll(id) };
    });
    // One read transaction: cases and summary come from the same snapshot.
    return conn.reading(() => read.deferred(), id);
  }

  info(id: string): StoredRunInfo | null {
    const { conn } = this.tables;
    const read = conn.db.transaction(() =>
      // A run still `running` has no stored summary: one is computed case by case.
      this.infoOf(id, (config) => summarizeRun(config, this.cases.iterate(id))),
    );
    return conn.reading(() => read.deferred(), id);
  }

  infoWithStatistics(id: string): { readonly info: StoredRunInfo; readonly statistics: RunStatistics | null } | null {
    const { conn } = this.tables;
    const read = conn.db.transaction(() => {
      const info = this.infoOf(id, (config) => summarizeRun(config, this.cases.iterate(id)));
      return info === null ? null : { info, statistics: this.statistics(id) };
    });
    return conn.reading(() => read.deferred(), id);
  }

  saveStatistics(id: string, statistics: RunStatistics): void {
    const { conn, statements } = this.tables;
    conn.writing(id, () =>
      conn.committing(() => {
        // A run without a stored summary (still running) keeps none.
        statements.saveStatistics.run(JSON.stringify(statistics), id);
      }, true),
    );
  }

  noteSetAside(id: string, note: ReplicaSetAside): void {
    const { conn, statements } = this.tables;
    conn.writing(id, () =>
      conn.committing(() => {
        if (statements.noteSetAside?.run(JSON.stringify(note), id).changes === 0) throw conn.unknownRun(id);
      }, true),
    );
  }

  statistics(id: string): RunStatistics | null {
    const { conn, statements } = this.tables;
    const row = conn.reading(() => statements.statistics.get(id), id) as { statistics_json: string | null } | undefined;
    if (row === undefined) throw conn.unknownRun(id);
    return row.statistics_json === null
      ? null
      : parseStoredJson<RunStatistics>(row.statistics_json, 'statistics', id, conn.path, isObject);
  }

  saveListings(id: string, listings: RunListings): void {
    const { conn, statements } = this.tables;
    conn.writing(id, () =>
      conn.committing(() => {
        // A run without a stored summary (still running) keeps none.
        statements.saveListings?.run(JSON.stringify(listings), id);
      }, true),
    );
  }

  listings(id: string): RunListings | null {
    const { conn, statements } = this.tables;
    const row = conn.reading(() => statements.listings.get(id), id) as { listings_json: string | null } | undefined;
    if (row === undefined) throw conn.unknownRun(id);
    return row.listings_json === null
      ? null
      : parseStoredJson<RunListings>(row.listings_json, 'listings', id, conn.path, isObject);
  }

  /** The run without its cases; `summarizeSaved` gives the summary of a run that has none stored. */
  private infoOf(id: string, summarizeSaved: (config: RunConfig) => BenchSummary): StoredRunInfo | null {
    const { conn, statements } = this.tables;
    const row = statements.head.get(id) as RunRow | undefined;
    if (!row) return null;
    this.tables.statusOf(row);
    const config = this.tables.configOf(row);
    return storedRunInfo(row, config, summarizeSaved, conn.path);
  }

  list(options: { readonly limit?: number } = {}): StoredRunHead[] {
    const limit = options.limit === undefined ? -1 : Math.max(0, Math.floor(options.limit));
    return this.tables.conn.reading(() =>
      (this.tables.statements.list.all(limit) as RunRow[]).map((r) => this.tables.headOf(r)),
    );
  }

  count(): Readonly<Record<StoredStatus, number>> {
    const counts: Record<StoredStatus, number> = { running: 0, complete: 0, incomplete: 0, interrupted: 0 };
    for (const { status, n } of this.tables.conn.reading(
      () => this.tables.statements.statusCounts.all() as { status: string; n: number }[],
    ))
      if (STATUSES.has(status)) counts[status as StoredStatus] += n;
    return counts;
  }

  check(id: string): RunCheck {
    const { conn } = this.tables;
    // One read transaction: a bench writing the run meanwhile is not seen half way (its
    // summary from one moment and its cases from another would look like damage).
    // Ended by a rollback, not a commit: it wrote nothing, and after a damaged page SQLite
    // can refuse the commit of a transaction whose reads all went well.
    return conn.reading(() => {
      conn.db.exec('BEGIN');
      try {
        return checkRun(this.tables, this, this.cases, id);
      } finally {
        if (conn.db.inTransaction) conn.db.exec('ROLLBACK');
      }
    }, id);
  }
}

/** The `runs` row of a new run (without its id). */
function runRowOf(config: RunConfig, input: { readonly label: string | null; readonly createdAt: string }) {
  return {
    created_at: input.createdAt,
    created_ms: Date.parse(input.createdAt),
    label: input.label,
    fingerprint: fingerprintOf(config),
    tool_version: config.toolVersion,
    model: config.model,
    endpoint_scheme: config.endpoint.scheme,
    endpoint_host: config.endpoint.host,
    endpoint_port: config.endpoint.port,
    endpoint_path: config.endpoint.path,
    embedded_model: config.embeddedServer?.model ?? null,
    dataset_id: config.dataset.id,
    dataset_revision: config.dataset.revision,
    dataset_split: config.dataset.split,
    dataset_synthetic: config.dataset.synthetic ? 1 : 0,
    case_count: config.caseIds.length,
    filtered: isFiltered(config) ? 1 : 0,
    // The case ids are the run's `run_cases` rows: an empty list keeps their place (and the
    // keys' order), so this row, rewritten at every saved batch, does not grow with the run.
    config_json: JSON.stringify({ ...config, caseIds: [] }),
  };
}
