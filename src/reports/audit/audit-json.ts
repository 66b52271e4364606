import type { AuditRecord, AuditRun } from '../../core/audit/run.js';

/** The whole audit as one JSON document (numbers unrounded; no key ever reaches it). */
export function renderAuditJson(run: AuditRun): string {
  return `${JSON.stringify(
    {
      kind: 'audit',
      id: run.id,
      createdAt: run.createdAt,
      status: run.status,
      label: run.label,
      durationMs: run.durationMs,
      config: run.config,
      summary: run.summary,
      audits: run.records.map((r) => recordJson(run, r)),
      pending: run.pending.map((i) => ({ transcriptId: i.transcriptId, checkId: i.checkId })),
    },
    null,
    2,
  )}\n`;
}

function recordJson(run: AuditRun, r: AuditRecord) {
  return {
    transcriptId: r.transcriptId,
    checkId: r.checkId,
    question_sha256: r.questionSha256,
    scope: r.scope,
    judgeEndpoint: run.config.judgeEndpoint,
    judgeModel: run.config.judgeModel,
    label: r.label,
    outcome: r.outcome,
    elapsedMs: r.elapsedMs,
    probe: r.probe,
    question: JSON.parse(r.questionJson) as unknown,
    input: r.input,
  };
}

/** `--json` events on stderr: what is asked and what came back, never the evidence or a key. */
export function renderAuditEvent(
  event:
    | {
        readonly type: 'audit_start';
        readonly transcriptId: string;
        readonly checkId: string;
        readonly judge: string;
        readonly probe: boolean;
      }
    | { readonly type: 'audit_result'; readonly record: AuditRecord; readonly saved: boolean },
): string {
  if (event.type === 'audit_start')
    return JSON.stringify({
      type: 'audit_start',
      transcript: event.transcriptId,
      check: event.checkId,
      judge: event.judge,
      probe: event.probe,
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
    probe_choice: r.probe?.kind === 'answered' ? r.probe.answer.choice : null,
    saved: event.saved,
  });
}
