/** The rows of an audit in SQLite (`audits`, `audit_verdicts`) and the records they hold, both ways. */
import type { StoredStatus } from '../../core/run-status.js';
import type { AuditConfig, AuditItem, AuditRecord, AuditRun, OrderSwapResult } from '../../core/audit/run.js';
import { summarizeAudit } from '../../core/audit/summary.js';
import {
  noVerdictCount,
  type AbstainReason,
  type AuditOutcome,
  type AuditStatus,
  type UnavailableReason,
} from '../../core/audit/verdict.js';
import { DecidekitError } from '../../core/errors.js';
import { assertNever } from '../../core/question.js';
import type { AuditHead } from '../stored-audit.js';

export interface AuditRow {
  id: string;
  created_at: string;
  status: StoredStatus;
  label: string | null;
  judge_scheme: string;
  judge_host: string;
  judge_port: number;
  judge_path: string;
  judge_model: string | null;
  check_set: 'recommended' | 'all';
  order_probe: number;
  config_json: string;
  audited: number | null;
  agrees: number | null;
  disagrees: number | null;
  abstained: number | null;
  unavailable: number | null;
  duration_ms: number | null;
  planned: number;
  finished: number;
}

export interface VerdictRow {
  transcript_id: string;
  check_id: string;
  tags_json: string;
  question_sha256: string;
  scope: 'messages' | 'final_answer';
  question_json: string;
  input_text: string;
  label: string;
  status: 'pending' | AuditStatus;
  reason: string | null;
  message: string | null;
  choice: string | null;
  probabilities_json: string | null;
  elapsed_ms: number | null;
  probe_json: string | null;
}

export function outcomeColumns(outcome: AuditOutcome) {
  switch (outcome.status) {
    case 'agrees':
    case 'disagrees':
    case 'abstained':
      return {
        status: outcome.status,
        reason: outcome.status === 'abstained' ? outcome.reason : null,
        message: null,
        choice: outcome.answer.choice,
        probabilities_json: JSON.stringify(outcome.answer.probabilities),
      };
    case 'unavailable':
      return {
        status: outcome.status,
        reason: outcome.reason,
        message: outcome.message,
        choice: null,
        probabilities_json: null,
      };
    default:
      return assertNever(outcome);
  }
}

function outcomeOf(row: VerdictRow): AuditOutcome {
  const answer = () => ({
    choice: row.choice!,
    probabilities: JSON.parse(row.probabilities_json!) as Record<string, number>,
  });
  switch (row.status) {
    case 'agrees':
    case 'disagrees':
      return { status: row.status, answer: answer() };
    case 'abstained':
      return { status: 'abstained', reason: row.reason as AbstainReason, answer: answer() };
    case 'unavailable':
      return { status: 'unavailable', reason: row.reason as UnavailableReason, message: row.message ?? '' };
    default:
      throw new DecidekitError('store_corrupt', `audit verdict of ${row.transcript_id} has status ${row.status}`);
  }
}

export function itemOf(row: VerdictRow): AuditItem {
  return {
    transcriptId: row.transcript_id,
    tags: JSON.parse(row.tags_json) as string[],
    checkId: row.check_id,
    questionSha256: row.question_sha256,
    scope: row.scope,
    questionJson: row.question_json,
    input: row.input_text,
    label: row.label,
  };
}

/** A finished verdict's row as the record it keeps. */
export function recordOf(row: VerdictRow): AuditRecord {
  return {
    ...itemOf(row),
    outcome: outcomeOf(row),
    elapsedMs: row.elapsed_ms,
    orderSwap: row.probe_json === null ? null : (JSON.parse(row.probe_json) as OrderSwapResult),
  };
}

/** An audit's row, with its counts of planned and finished verdicts, as `runs list` shows it. */
export function auditHeadOf(row: AuditRow): AuditHead {
  const counts =
    row.audited === null
      ? null
      : {
          agrees: row.agrees ?? 0,
          disagrees: row.disagrees ?? 0,
          abstained: row.abstained ?? 0,
          unavailable: row.unavailable ?? 0,
        };
  return {
    kind: 'audit',
    id: row.id,
    createdAt: row.created_at,
    status: row.status,
    label: row.label,
    judgeEndpoint: { scheme: row.judge_scheme, host: row.judge_host, port: row.judge_port, path: row.judge_path },
    judgeModel: row.judge_model,
    set: row.check_set,
    orderProbe: row.order_probe === 1,
    planned: row.planned,
    finished: row.finished,
    counts,
    noVerdict: counts === null ? null : noVerdictCount(counts),
    durationMs: row.duration_ms,
  };
}

/** A stored audit from its row, its parsed configuration and its verdict rows in order. */
export function auditRunOf(row: AuditRow, config: AuditConfig, verdicts: readonly VerdictRow[]): AuditRun {
  const records: AuditRecord[] = [];
  const pending: AuditItem[] = [];
  for (const r of verdicts) {
    if (r.status === 'pending') pending.push(itemOf(r));
    else records.push(recordOf(r));
  }
  return {
    id: row.id,
    createdAt: row.created_at,
    status: row.status,
    label: row.label,
    durationMs: row.duration_ms,
    config,
    records,
    pending,
    summary: summarizeAudit(config.checks, records),
  };
}
