/**
 * `decidekit view`'s audit page: the audit's table (disagreements first, the review
 * candidates), agreement per check with Cohen's kappa, each check's confusion matrix, and
 * the limits every audit report states.
 */
import type { AuditRun } from '../../core/audit/run.js';
import { formatCount, formatPercent } from '../format.js';
import { escapeHtml } from '../html/html-escape.js';
import { renderCards, renderPage, renderTable, type Cell } from '../html/html-page.js';
import {
  AUDIT_LIMITS,
  describeJudge,
  judgeCell,
  kappaText,
  recordsForTable,
  statusWord,
} from '../audit/audit-describe.js';

export function renderAuditPage(run: AuditRun, nav: string): string {
  const s = run.summary;
  const c = s.counts;
  const body = [
    nav,
    `<header><h1>Answer audit ${escapeHtml(run.id)}</h1>`,
    `<p class="meta">${escapeHtml(run.createdAt)} · judge ${escapeHtml(describeJudge(run))} · check set <code>${escapeHtml(run.config.set)}</code> · status ${escapeHtml(run.status)}${run.label === null ? '' : ` · label ${escapeHtml(run.label)}`}</p>`,
    ...(run.pending.length > 0
      ? [
          `<p class="warn"><strong>Unfinished audit:</strong> ${formatCount(run.pending.length)} planned audits were not judged.</p>`,
        ]
      : []),
    '</header><main>',
    renderCards([
      { key: 'audited', label: 'audited', text: formatCount(s.audited), value: s.audited },
      { key: 'disagrees', label: 'disagree (review)', text: formatCount(c.disagrees), value: c.disagrees },
      { key: 'agrees', label: 'agree', text: formatCount(c.agrees), value: c.agrees },
      { key: 'abstained', label: 'abstained', text: formatCount(c.abstained), value: c.abstained },
      { key: 'unavailable', label: 'unavailable', text: formatCount(c.unavailable), value: c.unavailable },
    ]),
    '<h2 id="audits">Audits, disagreements first</h2>',
    renderTable({
      id: 'audit-table',
      sortable: true,
      headers: ['transcript', 'check', 'outcome', 'check says', 'judge'],
      rows: recordsForTable(run).map((r): Cell[] => [
        r.transcriptId,
        r.checkId,
        r.outcome.status === 'disagrees' ? { text: statusWord(r), className: 'bad' } : statusWord(r),
        r.label,
        judgeCell(r),
      ]),
      rowAttributes: recordsForTable(run).map((r) => ` data-status="${r.outcome.status}"`),
      scroll: true,
    }),
    '<p class="note">A disagreement is a review candidate, not a corrected verdict: an audit never changes a score.</p>',
    '<h2 id="agreement">Agreement per check</h2>',
    renderTable({
      id: 'agreement-table',
      headers: ['check', 'audited#', 'agree', 'agreement#', "Cohen's kappa [95%]", 'abstained#', 'unavailable#'],
      rows: s.checks.map((k): Cell[] => [
        k.checkId,
        { text: formatCount(k.audited), value: k.audited },
        `${k.counts.agrees}/${k.compared}`,
        { text: formatPercent(k.agreementRate), value: k.agreementRate },
        kappaText(k.kappa),
        { text: formatCount(k.counts.abstained), value: k.counts.abstained },
        { text: formatCount(k.counts.unavailable), value: k.counts.unavailable },
      ]),
    }),
    ...s.checks.flatMap((k) => [
      `<h3>${escapeHtml(k.checkId)}: confusion matrix (rows: deterministic label, columns: judge)</h3>`,
      renderTable({
        headers: ['label / judge', ...k.confusion.columns.map((col) => `${col}#`)],
        rows: k.confusion.labels.map((label, i): Cell[] => [
          label,
          ...k.confusion.counts[i]!.map((n): Cell => ({ text: formatCount(n), value: n })),
        ]),
      }),
    ]),
    '<h2 id="limits">Limits</h2>',
    `<ul>${AUDIT_LIMITS.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`,
    '</main>',
  ];
  return renderPage({ title: `decidekit view: audit ${run.id}`, body: body.join('\n') });
}
