import { jsonDocumentText } from '../../core/safe-text.js';
import type { AuditConfig, AuditRecord, AuditRun, OrderSwapResult } from '../../core/audit/run.js';
import type { AuditSummary, CheckAgreement } from '../../core/audit/summary.js';
import type { AuditOutcome, JudgeAnswer } from '../../core/audit/verdict.js';
import type { AuditEvent } from '../../core/audit/audit-events.js';
import { assertNever } from '../../core/question.js';
import { endpointJson } from '../json-shapes.js';

/** The whole audit as one JSON document (snake_case keys, numbers unrounded; no key ever reaches it). */
export function renderAuditJson(run: AuditRun): string {
  const document = {
    kind: 'audit',
    id: run.id,
    created_at: run.createdAt,
    status: run.status,
    label: run.label,
    duration_ms: run.durationMs,
    config: auditConfigJson(run.config),
    summary: auditSummaryJson(run.summary),
    audits: run.records.map((r) => recordJson(run, r)),
    pending: run.pending.map((i) => ({ transcript_id: i.transcriptId, check_id: i.checkId })),
  };
  return `${jsonDocumentText(document)}\n`;
}

function auditConfigJson(c: AuditConfig) {
  return {
    tool_version: c.toolVersion,
    judge_endpoint: endpointJson(c.judgeEndpoint),
    judge_model: c.judgeModel,
    set: c.set,
    order_probe: c.orderProbe,
    transcripts_file: c.transcriptsFile,
    checks_file: c.checksFile,
    checks: c.checks.map((k) => ({
      id: k.id,
      question_sha256: k.questionSha256,
      scope: k.scope,
      options: [...k.options],
    })),
  };
}

function checkAgreementJson(a: CheckAgreement) {
  return {
    check_id: a.checkId,
    audited: a.audited,
    counts: a.counts,
    agreement_rate: a.agreementRate,
    kappa: a.kappa === null ? null : { kappa: a.kappa.kappa, low: a.kappa.low, high: a.kappa.high },
    confusion: { labels: a.confusion.labels, columns: a.confusion.columns, counts: a.confusion.counts },
    order_probe:
      a.orderProbe === null
        ? null
        : { pairs: a.orderProbe.pairs, flip_rate: a.orderProbe.flipRate, flipped: a.orderProbe.flipped },
  };
}

function auditSummaryJson(s: AuditSummary) {
  return {
    audited: s.audited,
    counts: s.counts,
    unavailable: s.unavailable,
    checks: s.checks.map(checkAgreementJson),
    injection: { compared: s.injection.compared, flipped: s.injection.flipped },
    order_dependent: s.orderDependent,
  };
}

const answerJson = (a: JudgeAnswer) => ({ choice: a.choice, probabilities: a.probabilities });

function outcomeJson(o: AuditOutcome) {
  switch (o.status) {
    case 'agrees':
    case 'disagrees':
      return { status: o.status, answer: answerJson(o.answer) };
    case 'abstained':
      return { status: o.status, reason: o.reason, answer: answerJson(o.answer) };
    case 'unavailable':
      return { status: o.status, reason: o.reason, message: o.message };
    default:
      return assertNever(o);
  }
}

function orderSwapJson(p: OrderSwapResult | null) {
  if (p === null) return null;
  return p.kind === 'answered'
    ? { kind: p.kind, answer: answerJson(p.answer), elapsed_ms: p.elapsedMs }
    : { kind: p.kind, reason: p.reason, message: p.message };
}

function recordJson(run: AuditRun, r: AuditRecord) {
  return {
    transcript_id: r.transcriptId,
    check_id: r.checkId,
    question_sha256: r.questionSha256,
    scope: r.scope,
    judge_endpoint: endpointJson(run.config.judgeEndpoint),
    judge_model: run.config.judgeModel,
    label: r.label,
    outcome: outcomeJson(r.outcome),
    elapsed_ms: r.elapsedMs,
    probe: orderSwapJson(r.orderSwap),
    question: JSON.parse(r.questionJson) as unknown,
    input: r.input,
  };
}

/** `--json` events on stderr: what is asked and what came back, never the evidence or a key. */
export function renderAuditEvent(event: AuditEvent): string {
  if (event.type === 'audit_start')
    return JSON.stringify({
      type: 'audit_start',
      transcript: event.transcriptId,
      check: event.checkId,
      judge: event.judge,
      probe: event.orderSwap,
    });
  const r = event.record;
  const o = r.outcome;
  return JSON.stringify({
    type: 'audit_result',
    transcript: r.transcriptId,
    check: r.checkId,
    question_sha256: r.questionSha256,
    status: o.status,
    reason: o.status === 'abstained' || o.status === 'unavailable' ? o.reason : null,
    choice: o.status === 'unavailable' ? null : o.answer.choice,
    probabilities: o.status === 'unavailable' ? null : o.answer.probabilities,
    label: r.label,
    elapsed_ms: r.elapsedMs,
    probe_choice: r.orderSwap?.kind === 'answered' ? r.orderSwap.answer.choice : null,
    saved: event.saved,
  });
}
