/** Server probes in SQLite: one `probes` row each, the whole probe kept as JSON beside its counts. */
import type { ProbeRun } from '../../core/probe/run.js';
import { DecidekitError } from '../../core/errors.js';
import { refuseEndpointSecrets } from '../record-checks.js';
import type { StoreProbes } from '../store.js';
import type { ProbeHead } from '../stored-probe.js';
import { probeHeadOf, type ProbeRow } from './probe-rows.js';
import type { SqliteConnection } from './connection.js';
import { insertWithFreshId } from './record-ids.js';

export class SqliteProbes implements StoreProbes {
  private readonly s;
  private readonly path: string;

  constructor(private readonly conn: SqliteConnection) {
    const db = conn.db;
    this.path = conn.path;
    this.s = {
      insert: db.prepare(`INSERT INTO probes (id, created_at, created_ms, tool_version, endpoint_scheme, endpoint_host,
          endpoint_port, endpoint_path, model, dataset_id, scope, case_count, seed, conformance_passed,
          conformance_failed, robustness_passed, robustness_failed, requests, duration_ms, run_json)
        VALUES (@id, @created_at, @created_ms, @tool_version, @endpoint_scheme, @endpoint_host, @endpoint_port,
          @endpoint_path, @model, @dataset_id, @scope, @case_count, @seed, @conformance_passed, @conformance_failed,
          @robustness_passed, @robustness_failed, @requests, @duration_ms, @run_json)`),
      get: db.prepare('SELECT * FROM probes WHERE id = ?'),
      list: db.prepare('SELECT * FROM probes ORDER BY created_ms DESC, id DESC LIMIT ?'),
      count: db.prepare('SELECT count(*) AS n FROM probes'),
      remove: db.prepare('DELETE FROM probes WHERE id = ?'),
    };
  }

  save(run: Omit<ProbeRun, 'id'>): string {
    const c = run.config;
    const e = c.endpoint;
    refuseEndpointSecrets(e, 'cannot store probe: the endpoint carries more than scheme, host, port and path');
    return insertWithFreshId('probe', run.createdAt, this.conn.randomBytes, (id) =>
      this.write(() =>
        this.s.insert.run({
          id,
          created_at: run.createdAt,
          created_ms: Date.parse(run.createdAt),
          tool_version: c.toolVersion,
          endpoint_scheme: e.scheme,
          endpoint_host: e.host,
          endpoint_port: e.port,
          endpoint_path: e.path,
          model: c.model,
          dataset_id: c.dataset.id,
          scope: c.scope,
          case_count: c.caseIds.length,
          seed: c.seed,
          conformance_passed: run.conformance?.passed ?? null,
          conformance_failed: run.conformance?.failed ?? null,
          robustness_passed: run.robustness?.passed ?? null,
          robustness_failed: run.robustness?.failed ?? null,
          requests: run.requests,
          duration_ms: run.durationMs,
          run_json: JSON.stringify({ ...run, id }),
        }),
      ),
    );
  }

  get(id: string): ProbeRun | null {
    const row = this.s.get.get(id) as ProbeRow | undefined;
    if (row === undefined) return null;
    try {
      return JSON.parse(row.run_json) as ProbeRun;
    } catch (err) {
      throw new DecidekitError(
        'store_corrupt',
        `cannot read probe ${row.id}: its record in ${this.path} is not valid JSON`,
        {
          cause: err,
        },
      );
    }
  }

  delete(id: string): boolean {
    return this.write(() => this.s.remove.run(id).changes > 0);
  }

  count(): number {
    return (this.s.count.get() as { n: number }).n;
  }

  list(options: { limit?: number } = {}): ProbeHead[] {
    const rows = this.s.list.all(options.limit ?? -1) as ProbeRow[];
    return rows.map(probeHeadOf);
  }

  /** One immediate transaction: takes the write lock at once, committed and synced to disk on return. */
  private write<T>(fn: () => T): T {
    return this.conn.committing(() => this.conn.db.transaction(fn).immediate(), true);
  }
}
