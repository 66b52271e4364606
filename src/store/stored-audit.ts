/** A stored answer audit as `runs list` shows it (see `store.ts` for the audits' part of the store). */
import type { StoredStatus } from '../core/run-status.js';
import type { EndpointIdentity } from '../core/endpoint-identity.js';
import type { CheckSet } from '../core/audit/check.js';
import type { AuditStatus } from '../core/audit/verdict.js';

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
