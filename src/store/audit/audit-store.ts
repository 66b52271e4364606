import type { EndpointIdentity } from '../../core/endpoint-identity.js';
import type { AskedBy } from '../record-kind.js';
import type { CheckSet } from '../../core/audit/check.js';
import type { AuditConfig, AuditItem, AuditRecord, AuditRun } from '../../core/audit/run.js';
import type { RunStatus, StoredStatus } from '../../core/run-status.js';
import type { AuditStatus } from '../../core/audit/verdict.js';

/** One line of `runs list` for an audit. */
export interface AuditHead {
  readonly kind: 'audit';
  readonly id: string;
  readonly createdAt: string;
  readonly status: StoredStatus;
  readonly label: string | null;
  readonly judgeEndpoint: EndpointIdentity;
  readonly judgeModel: string | null;
  readonly set: CheckSet;
  readonly orderProbe: boolean;
  /** Audits planned (transcript x check). */
  readonly planned: number;
  /** Audits with a verdict (pending ones excluded). */
  readonly finished: number;
  /** Outcome counts of a finished audit run; null while it runs. */
  readonly counts: Readonly<Record<AuditStatus, number>> | null;
  /** Of those, audits without a verdict (abstained + unavailable); null while it runs. */
  readonly noVerdict: number | null;
  readonly durationMs: number | null;
}

/**
 * Where audits are kept: the run store's file, in tables of their own. Every write is
 * committed durably before the call returns, so an audit killed outright re-judges only
 * what was in flight.
 */
export interface AuditStore {
  readonly path: string;
  /** Starts an audit run in status `running`; returns its id (`audit-<date>-<time>-<hex>`). */
  createAudit(input: {
    readonly config: AuditConfig;
    readonly label: string | null;
    readonly createdAt: string;
  }): string;
  /** Checkpoints planned audits as pending (replacing any saved verdict of the same transcript and check). */
  savePending(auditId: string, items: readonly { readonly position: number; readonly item: AuditItem }[]): void;
  /** Saves one verdict; durable when it returns. */
  saveRecord(auditId: string, record: AuditRecord): void;
  /** Removes one audit with its verdicts; false when the store holds no such audit. */
  deleteAudit(auditId: string): boolean;
  /** Records the config a resumed audit continues with and puts it back in `running`. */
  reopenAudit(auditId: string, config: AuditConfig): void;
  finishAudit(auditId: string, input: { readonly status: RunStatus; readonly durationMs: number | null }): void;
  getAudit(id: string): AuditRun | null;
  /** Newest first. */
  listAudits(options?: { readonly limit?: number }): AuditHead[];
  /** How many audits the store holds, by status. */
  countAudits(): Readonly<Record<StoredStatus, number>>;
  /**
   * The full id of the one audit whose id starts with `prefix` (with or without `audit-`); an
   * id of a bench run or another kind of record is named as such (and the command `askedBy`).
   */
  resolveAuditId(prefix: string, askedBy?: AskedBy): string;
  close(): void;
}
