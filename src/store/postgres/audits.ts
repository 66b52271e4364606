/** Answer audits in PostgreSQL: an `audits` row each, one `audit_verdicts` row per transcript and check. */
import type { RunStatus, StoredStatus } from '../../core/run-status.js';
import type { AuditConfig, AuditItem, AuditRecord, AuditRun } from '../../core/audit/run.js';
import { DecidekitError } from '../../core/errors.js';
import { formatEndpoint } from '../../protocol/wire/endpoint.js';
import { refuseEndpointSecrets } from '../record-checks.js';
import { UnknownRunError } from '../store-errors.js';
import type { StoreAudits } from '../store.js';
import type { AuditHead } from '../stored-audit.js';
import { auditHeadOf, auditRunOf, outcomeColumns, type AuditRow, type VerdictRow } from '../sqlite/audit-rows.js';
import type { PgConnection } from './connection.js';
import { insertWithFreshId } from './record-ids.js';

const HEAD_COLUMNS = `audits.*,
  (SELECT count(*) FROM audit_verdicts v WHERE v.audit_id = audits.id) AS planned,
  (SELECT count(*) FROM audit_verdicts v WHERE v.audit_id = audits.id AND v.status <> 'pending') AS finished`;

const INSERT = `INSERT INTO audits (id, created_at, created_ms, status, label, tool_version, judge_scheme,
    judge_host, judge_port, judge_path, judge_model, check_set, order_probe, config_json)
  VALUES ($1, $2, $3, 'running', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`;
const PENDING = `INSERT INTO audit_verdicts (audit_id, transcript_id, check_id, position, tags_json,
    question_sha256, scope, question_json, input_text, label, judge_endpoint, judge_model, status)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'pending')
  ON CONFLICT (audit_id, transcript_id, check_id) DO UPDATE SET position = EXCLUDED.position,
    tags_json = EXCLUDED.tags_json, question_sha256 = EXCLUDED.question_sha256, scope = EXCLUDED.scope,
    question_json = EXCLUDED.question_json, input_text = EXCLUDED.input_text, label = EXCLUDED.label,
    judge_endpoint = EXCLUDED.judge_endpoint, judge_model = EXCLUDED.judge_model, status = 'pending',
    reason = NULL, message = NULL, choice = NULL, probabilities_json = NULL, elapsed_ms = NULL, probe_json = NULL`;
const RECORD = `UPDATE audit_verdicts SET status = $4, reason = $5, message = $6, choice = $7,
    probabilities_json = $8, elapsed_ms = $9, probe_json = $10, input_text = $11
  WHERE audit_id = $1 AND transcript_id = $2 AND check_id = $3`;
const FINISH = `UPDATE audits SET status = $2, duration_ms = $3, summary_json = $4, audited = $5, agrees = $6,
    disagrees = $7, abstained = $8, unavailable = $9 WHERE id = $1`;

export class PgAudits implements StoreAudits {
  constructor(private readonly conn: PgConnection) {}

  create(input: { config: AuditConfig; label: string | null; createdAt: string }): string {
    const c = input.config;
    const e = c.judgeEndpoint;
    refuseEndpointSecrets(e, 'cannot store audit: the judge endpoint carries more than scheme, host, port and path');
    const { conn } = this;
    return conn.writing(null, () =>
      insertWithFreshId('audit', input.createdAt, conn.randomBytes, (id) =>
        conn.query(INSERT, [
          id,
          input.createdAt,
          Date.parse(input.createdAt),
          input.label,
          c.toolVersion,
          e.scheme,
          e.host,
          e.port,
          e.path,
          c.judgeModel,
          c.set,
          c.orderProbe ? 1 : 0,
          JSON.stringify(c),
        ]),
      ),
    );
  }

  savePending(auditId: string, items: readonly { position: number; item: AuditItem }[]): void {
    const config = this.configOf(auditId);
    const { conn } = this;
    conn.writing(null, () =>
      conn.transaction('write', () => {
        for (const { position, item } of items)
          conn.query(PENDING, [
            auditId,
            item.transcriptId,
            item.checkId,
            position,
            JSON.stringify(item.tags),
            item.questionSha256,
            item.scope,
            item.questionJson,
            item.input,
            item.label,
            formatEndpoint(config.judgeEndpoint),
            config.judgeModel,
          ]);
      }),
    );
  }

  saveRecord(auditId: string, record: AuditRecord): void {
    const o = outcomeColumns(record.outcome);
    const { rowCount } = this.conn.writing(null, () =>
      this.conn.query(RECORD, [
        auditId,
        record.transcriptId,
        record.checkId,
        o.status,
        o.reason,
        o.message,
        o.choice,
        o.probabilities_json,
        record.elapsedMs,
        record.orderSwap === null ? null : JSON.stringify(record.orderSwap),
        record.input,
      ]),
    );
    if (rowCount !== 1)
      throw new DecidekitError(
        'invalid_run',
        `cannot save audit ${record.transcriptId} / ${record.checkId}: it was never planned`,
      );
  }

  delete(auditId: string): boolean {
    return this.conn.writing(null, () => this.conn.query('DELETE FROM audits WHERE id = $1', [auditId]).rowCount > 0);
  }

  reopen(auditId: string, config: AuditConfig): void {
    this.conn.writing(null, () =>
      this.conn.query(`UPDATE audits SET status = 'running', summary_json = NULL, config_json = $2 WHERE id = $1`, [
        auditId,
        JSON.stringify(config),
      ]),
    );
  }

  finish(auditId: string, input: { status: RunStatus; durationMs: number | null }): void {
    const run = this.get(auditId);
    if (run === null) throw new UnknownRunError(`no audit ${auditId} in ${this.conn.path}`, { id: auditId });
    const c = run.summary.counts;
    this.conn.writing(null, () =>
      this.conn.query(FINISH, [
        auditId,
        input.status,
        input.durationMs,
        JSON.stringify(run.summary),
        run.summary.audited,
        c.agrees,
        c.disagrees,
        c.abstained,
        c.unavailable,
      ]),
    );
  }

  get(id: string): AuditRun | null {
    const { conn } = this;
    return conn.reading(() =>
      conn.transaction('read', () => {
        const row = conn.row<AuditRow>(`SELECT ${HEAD_COLUMNS} FROM audits WHERE id = $1`, [id]);
        if (row === undefined) return null;
        const config = this.parseConfig(row);
        const rows = conn.rows<VerdictRow>(
          'SELECT * FROM audit_verdicts WHERE audit_id = $1 ORDER BY position, transcript_id COLLATE "C", check_id COLLATE "C"',
          [id],
        );
        return auditRunOf(row, config, rows);
      }),
    );
  }

  count(): Readonly<Record<StoredStatus, number>> {
    const counts: Record<StoredStatus, number> = { running: 0, complete: 0, incomplete: 0, interrupted: 0 };
    const rows = this.conn.reading(() =>
      this.conn.rows<{ status: StoredStatus; n: number }>('SELECT status, count(*) AS n FROM audits GROUP BY status'),
    );
    for (const row of rows) counts[row.status] += row.n;
    return counts;
  }

  list(options: { limit?: number } = {}): AuditHead[] {
    const limit = options.limit === undefined ? null : Math.max(0, Math.floor(options.limit));
    const rows = this.conn.reading(() =>
      this.conn.rows<AuditRow>(
        `SELECT ${HEAD_COLUMNS} FROM audits ORDER BY created_ms DESC, id COLLATE "C" DESC LIMIT $1`,
        [limit],
      ),
    );
    return rows.map(auditHeadOf);
  }

  private configOf(auditId: string): AuditConfig {
    const row = this.conn.reading(() =>
      this.conn.row<AuditRow>(`SELECT ${HEAD_COLUMNS} FROM audits WHERE id = $1`, [auditId]),
    );
    if (row === undefined) throw new UnknownRunError(`no audit ${auditId} in ${this.conn.path}`, { id: auditId });
    return this.parseConfig(row);
  }

  private parseConfig(row: AuditRow): AuditConfig {
    try {
      return JSON.parse(row.config_json) as AuditConfig;
    } catch (err) {
      throw new DecidekitError(
        'store_corrupt',
        `cannot read audit ${row.id}: its config in ${this.conn.path} is not valid JSON`,
        { cause: err },
      );
    }
  }
}
