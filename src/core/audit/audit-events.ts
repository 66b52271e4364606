/** What the audit use case says while it runs: a judge request about to be sent, a verdict. */
import type { AuditRecord } from './run.js';

/** A judge request is about to be sent. */
export interface AuditStartEvent {
  readonly transcriptId: string;
  readonly checkId: string;
  /** "judge <model> at <endpoint>" */
  readonly judge: string;
  /** The order swap's second request (options reversed). */
  readonly orderSwap: boolean;
}

/** A verdict is saved (or, on resume, a saved one is reused). */
export interface AuditResultEvent {
  readonly record: AuditRecord;
  /** A verdict saved by an earlier run of this audit, shown again on resume. */
  readonly saved: boolean;
}

/** Either, tagged as its `--json` line is (`audit_start`, `audit_result`). */
export type AuditEvent =
  ({ readonly type: 'audit_start' } & AuditStartEvent) | ({ readonly type: 'audit_result' } & AuditResultEvent);
