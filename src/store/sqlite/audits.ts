/** Answer audits in SQLite: an `audits` row each, one `audit_verdicts` row per transcript and check. */
import type { RunStatus, StoredStatus } from '../../core/run-status.js';
import type { AuditConfig, AuditItem, AuditRecord, AuditRun } from '../../core/audit/run.js';
import { DecidekitError } from '../../core/errors.js';
import { formatEndpoint } from '../../protocol/wire/endpoint.js';
import { refuseEndpointSecrets } from '../record-checks.js';
import { UnknownRunError } from '../store-errors.js';
import type { StoreAudits } from '../store.js';
import type { AuditHead } from '../stored-audit.js';
import type { SqliteConnection } from './connection.js';
import { insertWithFreshId } from './record-ids.js';
import { auditHeadOf, auditRunOf, outcomeColumns, type AuditRow, type VerdictRow } from './audit-rows.js';

const HEAD_COLUMNS = `audits.*,
  (SELECT count(*) FROM audit_verdicts v WHERE v.audit_id = audits.id) AS planned,
  (SELECT count(*) FROM audit_verdicts v WHERE v.audit_id = audits.id AND v.status <> 'pending') AS finished`;

export class SqliteAudits implements StoreAudits {
  private readonly s;
  private readonly path: string;

  constructor(private readonly conn: SqliteConnection) {
    const db = conn.db;
    this.path = conn.path;
    this.s = {
      head: db.prepare(`SELECT ${HEAD_COLUMNS} FROM audits WHERE id = ?`),
      list: db.prepare(`SELECT ${HEAD_COLUMNS} FROM audits ORDER BY created_ms DESC, id DESC LIMIT ?`),
      statusCounts: db.prepare('SELECT status, count(*) AS n FROM audits GROUP BY status'),
      remove: db.prepare('DELETE FROM audits WHERE id = ?'),
      insert: db.prepare(`INSERT INTO audits (id, created_at, created_ms, status, label, tool_version, judge_scheme,
          judge_host, judge_port, judge_path, judge_model, check_set, order_probe, config_json)
        VALUES (@id, @created_at, @created_ms, 'running', @label, @tool_version, @judge_scheme, @judge_host,
          @judge_port, @judge_path, @judge_model, @check_set, @order_probe, @config_json)`),
      pending:
        db.prepare(`INSERT OR REPLACE INTO audit_verdicts (audit_id, transcript_id, check_id, position, tags_json,
          question_sha256, scope, question_json, input_text, label, judge_endpoint, judge_model, status)
        VALUES (@audit_id, @transcript_id, @check_id, @position, @tags_json, @question_sha256, @scope, @question_json,
          @input_text, @label, @judge_endpoint, @judge_model, 'pending')`),
      record: db.prepare(`UPDATE audit_verdicts SET status = @status, reason = @reason, message = @message,
          choice = @choice, probabilities_json = @probabilities_json, elapsed_ms = @elapsed_ms, probe_json = @probe_json,
          input_text = @input_text
        WHERE audit_id = @audit_id AND transcript_id = @transcript_id AND check_id = @check_id`),
      reopen: db.prepare(
        `UPDATE audits SET status = 'running', summary_json = NULL, config_json = @config_json WHERE id = @id`,
      ),
      finish: db.prepare(`UPDATE audits SET status = @status, duration_ms = @duration_ms, summary_json = @summary_json,
          audited = @audited, agrees = @agrees, disagrees = @disagrees, abstained = @abstained, unavailable = @unavailable
        WHERE id = @id`),
      verdicts: db.prepare(
        'SELECT * FROM audit_verdicts WHERE audit_id = ? ORDER BY position, transcript_id, check_id',
      ),
    };
  }

  create(input: { config: AuditConfig; label: string | null; createdAt: string }): string {
    const c = input.config;
    const e = c.judgeEndpoint;
    refuseEndpointSecrets(e, 'cannot store audit: the judge endpoint carries more than scheme, host, port and path');
    return insertWithFreshId('audit', input.createdAt, this.conn.randomBytes, (id) =>
      this.write(() =>
        this.s.insert.run({
          id,
          created_at: input.createdAt,
          created_ms: Date.parse(input.createdAt),
          label: input.label,
          tool_version: c.toolVersion,
          judge_scheme: e.scheme,
          judge_host: e.host,
          judge_port: e.port,
          judge_path: e.path,
          judge_model: c.judgeModel,
          check_set: c.set,
          order_probe: c.orderProbe ? 1 : 0,
          config_json: JSON.stringify(c),
        }),
      ),
    );
  }

  savePending(auditId: string, items: readonly { position: number; item: AuditItem }[]): void {
    const config = this.configOf(auditId);
    this.write(() => {
      for (const { position, item } of items)
        this.s.pending.run({
          audit_id: auditId,
          transcript_id: item.transcriptId,
          check_id: item.checkId,
          position,
          tags_json: JSON.stringify(item.tags),
          question_sha256: item.questionSha256,
          scope: item.scope,
          question_json: item.questionJson,
          input_text: item.input,
          label: item.label,
          judge_endpoint: formatEndpoint(config.judgeEndpoint),
          judge_model: config.judgeModel,
        });
    });
  }

  saveRecord(auditId: string, record: AuditRecord): void {
    const info = this.write(() =>
      this.s.record.run({
        audit_id: auditId,
        transcript_id: record.transcriptId,
        check_id: record.checkId,
        ...outcomeColumns(record.outcome),
        elapsed_ms: record.elapsedMs,
        probe_json: record.orderSwap === null ? null : JSON.stringify(record.orderSwap),
        input_text: record.input,
      }),
    );
    if (info.changes !== 1)
      throw new DecidekitError(
        'invalid_run',
        `cannot save audit ${record.transcriptId} / ${record.checkId}: it was never planned`,
      );
  }

  delete(auditId: string): boolean {
    // Its verdicts go with it (ON DELETE CASCADE, foreign keys on).
    return this.write(() => this.s.remove.run(auditId).changes > 0);
  }

  reopen(auditId: string, config: AuditConfig): void {
    this.write(() => this.s.reopen.run({ id: auditId, config_json: JSON.stringify(config) }));
  }

  finish(auditId: string, input: { status: RunStatus; durationMs: number | null }): void {
    const run = this.get(auditId);
    if (run === null) throw new UnknownRunError(`no audit ${auditId} in ${this.path}`, { id: auditId });
    const c = run.summary.counts;
    this.write(() =>
      this.s.finish.run({
        id: auditId,
        status: input.status,
        duration_ms: input.durationMs,
        summary_json: JSON.stringify(run.summary),
        audited: run.summary.audited,
        ...c,
      }),
    );
  }

  get(id: string): AuditRun | null {
    const row = this.s.head.get(id) as AuditRow | undefined;
    if (row === undefined) return null;
    const config = this.parseConfig(row);
    const rows = this.s.verdicts.all(id) as VerdictRow[];
    return auditRunOf(row, config, rows);
  }

  count(): Readonly<Record<StoredStatus, number>> {
    const counts: Record<StoredStatus, number> = { running: 0, complete: 0, incomplete: 0, interrupted: 0 };
    for (const row of this.s.statusCounts.all() as { status: StoredStatus; n: number }[]) counts[row.status] += row.n;
    return counts;
  }

  list(options: { limit?: number } = {}): AuditHead[] {
    const rows = this.s.list.all(options.limit ?? -1) as AuditRow[];
    return rows.map(auditHeadOf);
  }

  private configOf(auditId: string): AuditConfig {
    const row = this.s.head.get(auditId) as AuditRow | undefined;
    if (row === undefined) throw new UnknownRunError(`no audit ${auditId} in ${this.path}`, { id: auditId });
    return this.parseConfig(row);
  }

  private parseConfig(row: AuditRow): AuditConfig {
    try {
      return JSON.parse(row.config_json) as AuditConfig;
    } catch (err) {
      throw new DecidekitError(
        'store_corrupt',
        `cannot read audit ${row.id}: its config in ${this.path} is not valid JSON`,
        {
          cause: err,
        },
      );
    }
  }

  /** One immediate transaction: takes the write lock at once, committed and synced to disk on return. */
  private write<T>(fn: () => T): T {
    return this.conn.committing(() => this.conn.db.transaction(fn).immediate(), true);
  }
}
