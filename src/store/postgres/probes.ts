/** Server probes in PostgreSQL: one `probes` row each, the whole probe kept as JSON beside its counts. */
import type { ProbeRun } from '../../core/probe/run.js';
import { DecidekitError } from '../../core/errors.js';
import { refuseEndpointSecrets } from '../record-checks.js';
import type { StoreProbes } from '../store.js';
import type { ProbeHead } from '../stored-probe.js';
import { probeHeadOf, type ProbeRow } from '../sqlite/probe-rows.js';
import type { PgConnection } from './connection.js';
import { insertWithFreshId } from './record-ids.js';

const INSERT = `INSERT INTO probes (id, created_at, created_ms, tool_version, endpoint_scheme, endpoint_host,
    endpoint_port, endpoint_path, model, dataset_id, scope, case_count, seed, conformance_passed,
    conformance_failed, robustness_passed, robustness_failed, requests, duration_ms, run_json)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`;

export class PgProbes implements StoreProbes {
  constructor(private readonly conn: PgConnection) {}

  save(run: Omit<ProbeRun, 'id'>): string {
    const c = run.config;
    const e = c.endpoint;
    refuseEndpointSecrets(e, 'cannot store probe: the endpoint carries more than scheme, host, port and path');
    const { conn } = this;
    return conn.writing(null, () =>
      insertWithFreshId('probe', run.createdAt, conn.randomBytes, (id) =>
        conn.query(INSERT, [
          id,
          run.createdAt,
          Date.parse(run.createdAt),
          c.toolVersion,
          e.scheme,
          e.host,
          e.port,
          e.path,
          c.model,
          c.dataset.id,
          c.scope,
          c.caseIds.length,
          c.seed,
          run.conformance?.passed ?? null,
          run.conformance?.failed ?? null,
          run.robustness?.passed ?? null,
          run.robustness?.failed ?? null,
          run.requests,
          run.durationMs,
          JSON.stringify({ ...run, id }),
        ]),
      ),
    );
  }

  get(id: string): ProbeRun | null {
    const row = this.conn.reading(() => this.conn.row<ProbeRow>('SELECT * FROM probes WHERE id = $1', [id]));
    if (row === undefined) return null;
    try {
      return JSON.parse(row.run_json) as ProbeRun;
    } catch (err) {
      throw new DecidekitError(
        'store_corrupt',
        `cannot read probe ${row.id}: its record in ${this.conn.path} is not valid JSON`,
        { cause: err },
      );
    }
  }

  delete(id: string): boolean {
    return this.conn.writing(null, () => this.conn.query('DELETE FROM probes WHERE id = $1', [id]).rowCount > 0);
  }

  count(): number {
    return this.conn.reading(() => this.conn.row<{ n: number }>('SELECT count(*) AS n FROM probes')!.n);
  }

  list(options: { limit?: number } = {}): ProbeHead[] {
    const rows = this.conn.reading(() =>
      this.conn.rows<ProbeRow>('SELECT * FROM probes ORDER BY created_ms DESC, id COLLATE "C" DESC LIMIT $1', [
        options.limit === undefined ? null : Math.max(0, Math.floor(options.limit)),
      ]),
    );
    return rows.map(probeHeadOf);
  }
}
