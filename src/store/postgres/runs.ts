/** Bench runs in PostgreSQL: one `runs` row each, with the run's case set in `run_cases`. */
import type { StoredStatus } from '../../core/run-status.js';
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
import {
  headOf,
  isConfig,
  isObject,
  parseStoredJson,
  STATUSES,
  storedRunInfo,
  summaryColumns,
  type RunRow,
} from '../sqlite/run-rows.js';
import { StoreDamagedError } from '../store-errors.js';
import type { PgCases } from './cases.js';
import { checkPgRun } from './check.js';
import { UNIQUE_VIOLATION, type PgConnection } from './connection.js';
import { REOPEN_RUN } from './save-cases.js';
import { PgQueryError } from './sync-client.js';

const SAVED_CASES = '(SELECT count(*) FROM cases WHERE cases.run_id = runs.id) AS saved_cases';
export const HEAD_SQL = `SELECT runs.*, ${SAVED_CASES} FROM runs WHERE id = $1`;
/** `runs list` reads neither the configuration nor the summary text: only whether a summary is stored. */
const LIST_SQL = `SELECT id, created_at, status, label, fingerprint, tool_version, model, endpoint_scheme, endpoint_host,
  endpoint_port, endpoint_path, embedded_model, dataset_id, dataset_revision, dataset_split, dataset_synthetic,
  case_count, filtered, '' AS config_json, CASE WHEN summary_json IS NULL THEN NULL ELSE '' END AS summary_json,
  accuracy, kl, brier, ece, mean_confidence, decisions_total, decisions_correct, errors, latency_p50_ms, duration_ms,
  ${SAVED_CASES} FROM runs ORDER BY created_ms DESC, id COLLATE "C" DESC LIMIT $1`;
const RUN_COLUMNS = [
  'id',
  'created_at',
  'created_ms',
  'label',
  'fingerprint',
  'tool_version',
  'model',
  'endpoint_scheme',
  'endpoint_host',
  'endpoint_port',
  'endpoint_path',
  'embedded_model',
  'dataset_id',
  'dataset_revision',
  'dataset_split',
  'dataset_synthetic',
  'case_count',
  'filtered',
  'config_json',
] as const;
const INSERT_RUN = `INSERT INTO runs (status, ${RUN_COLUMNS.join(', ')})
  VALUES ('running', ${RUN_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;
// What the report listed goes with the summary it was listed with.
const SUMMARY_SQL = `WITH dropped AS (DELETE FROM run_listings WHERE run_id = $1) UPDATE runs SET status = $2, duration_ms = $3, summary_json = $4, accuracy = $5, kl = $6,
  brier = $7, ece = $8, mean_confidence = $9, decisions_total = $10, decisions_correct = $11, errors = $12,
  latency_p50_ms = $13, statistics_json = NULL WHERE id = $1`;

export class PgRuns implements StoreRuns {
  constructor(
    private readonly conn: PgConnection,
    private readonly cases: PgCases,
  ) {}

  create(input: {
    readonly config: RunConfig;
    readonly label: string | null;
    readonly createdAt: string;
  }): StoredRunHead {
    const { conn } = this;
    const { config } = input;
    refuseUnstorableRun(config);
    const values = runValuesOf(config, input);
    return conn.writing(null, () => {
      for (let attempt = 0; ; attempt++) {
        const id = createRunId(input.createdAt, conn.randomBytes(2));
        try {
          conn.transaction('write', () => {
            conn.query(INSERT_RUN, [id, ...values]);
            conn.query(
              `INSERT INTO run_cases (run_id, case_id, position)
                SELECT $1, c.id, c.n - 1 FROM unnest($2::text[]) WITH ORDINALITY AS c(id, n)`,
              [id, config.caseIds],
            );
          });
          return this.head(id)!;
        } catch (err) {
          // Two runs started in the same second drew the same suffix: draw again.
          if (attempt < 8 && err instanceof PgQueryError && err.code === UNIQUE_VIOLATION) continue;
          throw err;
        }
      }
    });
  }

  /** Writes the run's status, duration and summary (inside the caller's transaction). */
  writeSummary(runId: string, status: StoredStatus, durationMs: number | null, summary: BenchSummary): void {
    const c = summaryColumns(summary);
    const { rowCount } = this.conn.query(SUMMARY_SQL, [
      runId,
      status,
      durationMs,
      c.summary_json,
      c.accuracy,
      c.kl,
      c.brier,
      c.ece,
      c.mean_confidence,
      c.decisions_total,
      c.decisions_correct,
      c.errors,
      c.latency_p50_ms,
    ]);
    if (rowCount === 0) throw this.conn.unknownRun(runId);
  }

  finish(runId: string, input: FinishRunInput): void {
    if (input.summary.status !== input.status) {
      throw new DecidekitError(
        'invalid_run',
        `cannot finish run ${runId}: status ${input.status} but its summary says ${input.summary.status}`,
      );
    }
    this.conn.writing(runId, () => this.writeSummary(runId, input.status, input.durationMs, input.summary));
  }

  markInterrupted(runId: string): void {
    const { conn } = this;
    conn.writing(runId, () =>
      conn.transaction('write', () => {
        // Locked: a save to the run waits, so the summary covers every case saved.
        const row = conn.row<RunRow>('SELECT * FROM runs WHERE id = $1 FOR UPDATE', [runId]);
        if (!row) throw conn.unknownRun(runId);
        if (this.statusOf(row) !== 'running') return;
        const config = parseStoredJson<RunConfig>(row.config_json, 'configuration', runId, conn.path, isConfig);
        const summary = summarizeRun(config, this.cases.iterate(runId), { interrupted: true });
        this.writeSummary(runId, 'interrupted', row.duration_ms, summary);
      }),
    );
  }

  reopen(runId: string): void {
    const { conn } = this;
    conn.writing(runId, () => {
      if (conn.query(REOPEN_RUN, [runId]).rowCount === 0) throw conn.unknownRun(runId);
    });
  }

  delete(runId: string): boolean {
    // Cases, decisions and positions go with it (ON DELETE CASCADE).
    return this.conn.writing(runId, () => this.conn.query('DELETE FROM runs WHERE id = $1', [runId]).rowCount > 0);
  }

  head(id: string): StoredRunHead | null {
    return this.conn.reading(() => {
      const row = this.conn.row<RunRow>(HEAD_SQL, [id]);
      return row ? this.headOf(row) : null;
    }, id);
  }

  get(id: string): BenchRun | null {
    return this.readSnapshot(id, () => {
      let cases: CaseResult[] | null = null;
      const info = this.infoOf(id, (config) => {
        cases = this.cases.readAll(id);
        return summarizeRun(config, cases);
      });
      if (info === null) return null;
      return { ...info, cases: cases ?? this.cases.readAll(id) };
    });
  }

  info(id: string): StoredRunInfo | null {
    return this.readSnapshot(id, () => this.infoOf(id, (config) => summarizeRun(config, this.cases.iterate(id))));
  }

  infoWithStatistics(id: string): { readonly info: StoredRunInfo; readonly statistics: RunStatistics | null } | null {
    return this.readSnapshot(id, () => {
      const info = this.infoOf(id, (config) => summarizeRun(config, this.cases.iterate(id)));
      return info === null ? null : { info, statistics: this.statistics(id) };
    });
  }

  saveStatistics(id: string, statistics: RunStatistics): void {
    // A run without a stored summary (still running) keeps none.
    this.conn.writing(id, () =>
      this.conn.query('UPDATE runs SET statistics_json = $2 WHERE id = $1 AND summary_json IS NOT NULL', [
        id,
        JSON.stringify(statistics),
      ]),
    );
  }

  noteSetAside(id: string, note: ReplicaSetAside): void {
    // One statement: notes of two processes at once both land.
    const { rowCount } = this.conn.writing(id, () =>
      this.conn.query(
        `UPDATE runs SET set_aside_json = CASE WHEN set_aside_json IS NULL THEN '[' || $2 || ']'
           ELSE left(set_aside_json, -1) || ',' || $2 || ']' END WHERE id = $1`,
        [id, JSON.stringify(note)],
      ),
    );
    if (rowCount === 0) throw this.conn.unknownRun(id);
  }

  statistics(id: string): RunStatistics | null {
    const { conn } = this;
    const row = conn.reading(
      () => conn.row<{ statistics_json: string | null }>('SELECT statistics_json FROM runs WHERE id = $1', [id]),
      id,
    );
    if (row === undefined) throw conn.unknownRun(id);
    return row.statistics_json === null
      ? null
      : parseStoredJson<RunStatistics>(row.statistics_json, 'statistics', id, conn.path, isObject);
  }

  saveListings(id: string, listings: RunListings): void {
    // A run without a stored summary (still running) keeps none.
    this.conn.writing(id, () =>
      this.conn.query(
        `INSERT INTO run_listings (run_id, listings_json) SELECT id, $2 FROM runs WHERE id = $1 AND summary_json IS NOT NULL
        ON CONFLICT (run_id) DO UPDATE SET listings_json = excluded.listings_json`,
        [id, JSON.stringify(listings)],
      ),
    );
  }

  listings(id: string): RunListings | null {
    const { conn } = this;
    const row = conn.reading(() => {
      // A store before version 4 read in place (read-only) has no listings table: none kept.
      const kept = conn.row<{ t: string | null }>("SELECT to_regclass('run_listings')::text AS t")!.t !== null;
      return conn.row<{ listings_json: string | null }>(
        kept
          ? 'SELECT l.listings_json FROM runs r LEFT JOIN run_listings l ON l.run_id = r.id WHERE r.id = $1'
          : 'SELECT NULL AS listings_json FROM runs WHERE id = $1',
        [id],
      );
    }, id);
    if (row === undefined) throw conn.unknownRun(id);
    return row.listings_json === null
      ? null
      : parseStoredJson<RunListings>(row.listings_json, 'listings', id, conn.path, isObject);
  }

  list(options: { readonly limit?: number } = {}): StoredRunHead[] {
    const limit = options.limit === undefined ? null : Math.max(0, Math.floor(options.limit));
    return this.conn.reading(() =>
      this.conn.transaction('read', () => this.conn.rows<RunRow>(LIST_SQL, [limit]).map((r) => this.headOf(r))),
    );
  }

  count(): Readonly<Record<StoredStatus, number>> {
    const counts: Record<StoredStatus, number> = { running: 0, complete: 0, incomplete: 0, interrupted: 0 };
    const rows = this.conn.reading(() =>
      this.conn.rows<{ status: string; n: number }>('SELECT status, count(*) AS n FROM runs GROUP BY status'),
    );
    for (const { status, n } of rows) if (STATUSES.has(status)) counts[status as StoredStatus] += n;
    return counts;
  }

  check(id: string): RunCheck {
    return this.readSnapshot(id, () => checkPgRun(this.conn, this, this.cases, id));
  }

  statusOf(row: RunRow): StoredStatus {
    if (!STATUSES.has(row.status))
      throw new StoreDamagedError(this.conn.path, `run ${row.id}: unknown status ${JSON.stringify(row.status)}`, {
        runId: row.id,
      });
    return row.status;
  }

  private headOf(row: RunRow): StoredRunHead {
    this.statusOf(row);
    // Only a run that asked for no model needs its answers' models to say which one it got.
    const asked = row.model !== null || row.embedded_model !== null;
    const answered = asked
      ? null
      : this.conn
          .rows<{ answered_model: string }>(
            `SELECT answered_model FROM cases WHERE run_id = $1 AND answered_model IS NOT NULL
              GROUP BY answered_model ORDER BY answered_model COLLATE "C"`,
            [row.id],
          )
          .map((r) => r.answered_model);
    return headOf(row, answered);
  }

  private readSnapshot<T>(id: string, fn: () => T): T {
    return this.conn.reading(() => this.conn.transaction('read', fn), id);
  }

  /** The run without its cases; `summarizeSaved` gives the summary of a run that has none stored. */
  private infoOf(id: string, summarizeSaved: (config: RunConfig) => BenchSummary): StoredRunInfo | null {
    const { conn } = this;
    const row = conn.row<RunRow>('SELECT * FROM runs WHERE id = $1', [id]);
    if (!row) return null;
    this.statusOf(row);
    const config = parseStoredJson<RunConfig>(row.config_json, 'configuration', id, conn.path, isConfig);
    return storedRunInfo(row, config, summarizeSaved, conn.path);
  }
}

/** The `runs` values of a new run after its id, in `RUN_COLUMNS` order. */
function runValuesOf(config: RunConfig, input: { readonly label: string | null; readonly createdAt: string }) {
  return [
    input.createdAt,
    Date.parse(input.createdAt),
    input.label,
    fingerprintOf(config),
    config.toolVersion,
    config.model,
    config.endpoint.scheme,
    config.endpoint.host,
    config.endpoint.port,
    config.endpoint.path,
    config.embeddedServer?.model ?? null,
    config.dataset.id,
    config.dataset.revision,
    config.dataset.split,
    config.dataset.synthetic ? 1 : 0,
    config.caseIds.length,
    isFiltered(config) ? 1 : 0,
    JSON.stringify(config),
  ];
}
