import type { AuditRecord, AuditRun } from '../../core/audit/run.js';
import { verdictWordOf } from '../../core/audit/verdict.js';
import { formatMs, formatPercent, markdownCode, markdownFence, renderMarkdownTable } from '../format.js';
import { formatEndpoint } from '../../protocol/wire/endpoint.js';
import { AUDIT_LIMITS, describeJudge, judgeCell, kappaText, recordsForTable, statusWord } from './audit-describe.js';

/**
 * The audit report: one table first (disagreements first), agreement per check with kappa
 * and the confusion matrix, the order swap and injection counts, the two limits, then the
 * full record per transcript (question hash, scope, judge, probabilities, exact input).
 */
export function renderAuditMarkdown(run: AuditRun): string {
  const s = run.summary;
  const out: string[] = [`# Answer audit ${run.id}`, ''];
  out.push(
    `Judge: ${markdownCode(describeJudge(run))}; check set ${markdownCode(run.config.set)}; ${s.audited} audits: ` +
      `${s.counts.disagrees} disagree, ${s.counts.abstained} abstained, ${s.counts.unavailable} unavailable, ${s.counts.agrees} agree.` +
      (run.pending.length > 0 ? ` ${run.pending.length} not judged yet (the audit was interrupted).` : ''),
    '',
  );
  out.push(
    ...renderMarkdownTable(
      ['transcript', 'check', 'outcome', 'check says', 'judge'],
      recordsForTable(run).map((r) => [r.transcriptId, r.checkId, statusWord(r), r.label, judgeCell(r)]),
      { align: ['left', 'left', 'left', 'left', 'left'] },
    ),
    '',
    'A disagreement is a review candidate, not a corrected verdict: an audit never changes a score.',
    '',
    '## Limits',
    '',
    ...AUDIT_LIMITS.map((l) => `- ${l}`),
    '',
    '## Agreement per check',
    '',
  );
  out.push(
    ...renderMarkdownTable(
      ['check', 'audited', 'agree', 'agreement', "Cohen's kappa [95%]", 'abstained', 'unavailable'],
      s.checks.map((c) => [
        c.checkId,
        String(c.audited),
        `${c.counts.agrees}/${c.compared}`,
        formatPercent(c.agreementRate),
        kappaText(c.kappa),
        String(c.counts.abstained),
        String(c.counts.unavailable),
      ]),
    ),
    '',
    'Kappa counts only audits the judge answered with an option; its interval is the large-sample one (Cohen 1960).',
  );
  for (const c of s.checks) {
    out.push('', `### ${c.checkId}: confusion matrix (rows: deterministic label, columns: judge)`, '');
    out.push(
      ...renderMarkdownTable(
        ['label / judge', ...c.confusion.columns],
        c.confusion.labels.map((l, i) => [l, ...c.confusion.counts[i]!.map(String)]),
      ),
    );
  }
  if (run.config.orderProbe) {
    out.push('', '## Order probe', '', 'Every audit asked again with the options in reverse order.', '');
    out.push(
      ...renderMarkdownTable(
        ['check', 'pairs', 'flips', 'flip rate', 'flipped transcripts'],
        s.checks.map((c) => [
          c.checkId + (s.orderDependent.includes(c.checkId) ? ' (order-dependent)' : ''),
          String(c.orderProbe?.pairs ?? 0),
          String(c.orderProbe?.flipped.length ?? 0),
          formatPercent(c.orderProbe?.flipRate ?? null),
          (c.orderProbe?.flipped ?? []).join(', '),
        ]),
      ),
    );
    if (s.orderDependent.length > 0)
      out.push(
        '',
        `**Order-dependent checks:** ${s.orderDependent.join(', ')}: their answers change with the option order.`,
      );
  }
  if (s.injection.compared > 0)
    out.push(
      '',
      '## Injection cases',
      '',
      `${s.injection.flipped.length} of ${s.injection.compared} transcripts tagged \`injection\` flipped the verdict${s.injection.flipped.length > 0 ? ` (${s.injection.flipped.join(', ')})` : ''}.`,
    );
  out.push('', '## Records', '');
  for (const r of run.records) out.push(...recordSection(run, r));
  return `${out.join('\n')}\n`;
}

function recordSection(run: AuditRun, r: AuditRecord): string[] {
  const e = run.config.judgeEndpoint;
  const o = r.outcome;
  const lines = [
    `### ${r.transcriptId} / ${r.checkId}`,
    '',
    `- outcome: ${statusWord(r)}: ${judgeCell(r)}`,
    `- check says: ${markdownCode(r.label)}`,
    `- question_sha256: ${markdownCode(r.questionSha256)}, scope ${markdownCode(r.scope)}`,
    `- judge: ${markdownCode(formatEndpoint(e))}, model ${markdownCode(run.config.judgeModel ?? 'server default')}, ${formatMs(r.elapsedMs)}`,
  ];
  if (o.status !== 'unavailable')
    lines.push(
      `- probabilities: ${Object.entries(o.answer.probabilities)
        .map(([k, p]) => `${k} ${p.toFixed(3)}`)
        .join(', ')}`,
    );
  if (r.orderSwap !== null)
    lines.push(
      `- order probe: ${r.orderSwap.kind === 'answered' ? `reversed options -> ${markdownCode(verdictWordOf(r.orderSwap.answer))}` : `unavailable (${r.orderSwap.reason})`}`,
    );
  if (r.input !== '') {
    const fence = markdownFence(r.input);
    lines.push('', 'Input sent:', '', `${fence}json`, r.input, fence);
  }
  lines.push('');
  return lines;
}
