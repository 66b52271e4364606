import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import type { AskedBy } from '../record-kind.js';
import Database from 'better-sqlite3';
import { passCount, type ProbeRun, type ProbeScope } from '../../core/probe/run.js';
import { DecidekitError } from '../../core/errors.js';
import { insertWithFreshId, refuseEndpointSecrets, resolveRecordId } from '../record-insert.js';
import { openStoreTables, type OpenRunStoreOptions } from '../sqlite-run-store.js';
import type { ProbeHead, ProbeStore } from './probe-store.js';

interface ProbeRow {
  id: string;
  created_at: string;
  endpoint_scheme: string;
  endpoint_host: string;
  endpoint_port: number;
  endpoint_path: string;
  model: string | null;
  dataset_id: string;
  scope: ProbeScope;
  case_count: number;
  seed: number;
  conformance_passed: number | null;
  conformance_failed: number | null;
  robustness_passed: number | null;
  robustness_failed: number | null;
  duration_ms: number;
  run_json: string;
}

/**
 * Opens the probe table of the run store at `path`, over a connection opened as the run
 * store's own (a foreign or newer database is refused unchanged, an older one migrated).
 */
export function openProbeStore(path: string, options: OpenRunStoreOptions = {}): ProbeStore {
  const { db, close } = openStoreTables(path, options);
  return new SqliteProbeStore(db, path, options.randomBytes ?? ((n) => cryptoRandomBytes(n)), close);
}

/** The probe table over a run store's own connection (`openRunStoreConnection`), for reading; closing it closes that connection. */
export function probeStoreOver(db: Database.Database, path: string): ProbeStore {
  return new SqliteProbeStore(
    db,
    path,
    (n) => cryptoRandomBytes(n),
    () => db.close(),
  );
}

class SqliteProbeStore implements ProbeStore {
  private readonly s;

  constructor(
    private readonly db: Database.Database,
    readonly path: string,
    private readonly randomBytes: (n: number) => Uint8Array,
    private readonly closeConnection: () => void,
  ) {
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
      prefix: db.prepare('SELECT id FROM probes WHERE substr(id, 1, length(@p)) = @p ORDER BY id LIMIT 6'),
    };
  }

  saveProbe(run: Omit<ProbeRun, 'id'>): string {
    const c = run.config;
    const e = c.endpoint;
    refuseEndpointSecrets(e, 'cannot store probe: the endpoint carries more than scheme, host, port and path');
    return insertWithFreshId('probe', run.createdAt, this.randomBytes, (id) =>
      this.db
        .transaction(() =>
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
        )
        .immediate(),
    );
  }

  getProbe(id: string): ProbeRun | null {
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

  deleteProbe(id: string): boolean {
    return this.db.transaction(() => this.s.remove.run(id).changes > 0).immediate();
  }

  countProbes(): number {
    return (this.s.count.get() as { n: number }).n;
  }

  listProbes(options: { limit?: number } = {}): ProbeHead[] {
    const rows = this.s.list.all(options.limit ?? -1) as ProbeRow[];
    const pair = (passed: number | null, failed: number | null) =>
      passed === null || failed === null ? null : passCount(passed, failed);
    return rows.map((row) => ({
      kind: 'probe',
      id: row.id,
      createdAt: row.created_at,
      endpoint: {
        scheme: row.endpoint_scheme,
        host: row.endpoint_host,
        port: row.endpoint_port,
        path: row.endpoint_path,
      },
      model: row.model,
      datasetId: row.dataset_id,
      scope: row.scope,
      cases: row.case_count,
      seed: row.seed,
      conformance: pair(row.conformance_passed, row.conformance_failed),
      robustness: pair(row.robustness_passed, row.robustness_failed),
      durationMs: row.duration_ms,
    }));
  }

  resolveProbeId(prefix: string, askedBy?: AskedBy): string {
    return resolveRecordId('probe', prefix, { db: this.db, path: this.path, askedBy }, (p) =>
      (this.s.prefix.all({ p }) as { id: string }[]).map((r) => r.id),
    );
  }

  close(): void {
    this.closeConnection();
  }
}
