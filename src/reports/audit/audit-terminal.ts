import type { AuditRun } from '../../core/audit/run.js';
import type { AuditResultEvent, AuditStartEvent } from '../../core/audit/audit-events.js';
import { describeOutcome, verdictWordOf } from '../../core/audit/verdict.js';
import { createPalette, formatPercent, singleLine, truncate } from '../format.js';
import { renderFittedTable, wrapStyled } from '../text-fit.js';
import { AUDIT_LIMITS, describeJudge, judgeCell, kappaText, recordsForTable, statusWord } from './audit-describe.js';
import { resumeFlag } from '../../core/command-hints.js';

/** `T-001  payment-claim-v1: asking judge ...` when a request starts. */
export function renderAuditStartLine(e: AuditStartEvent): string {
  return e.orderSwap
    ? `  asking again with the options reversed (order probe)`
    : `${singleLine(e.transcriptId)}  ${e.checkId}: asking ${e.judge}`;
}

/** The lines under a transcript id once its audit is done (or shown again from the store). */
export function renderAuditResultLines(e: AuditResultEvent, options: { readonly colour: boolean }): string[] {
  const p = createPalette(options.colour);
  const r = e.record;
  const o = r.outcome;
  const prefix = e.saved ? 'saved audit: ' : '';
  const what =
    o.status === 'agrees'
      ? p.green(`agrees with the check (${r.label}): ${describeOutcome(o)}`)
      : o.status === 'disagrees'
        ? p.red(`DISAGREES: judge ${describeOutcome(o)}, check says ${r.label} (review candidate)`)
        : o.status === 'abstained'
          ? p.yellow(`abstained: ${describeOutcome(o)}`)
          : p.yellow(`unavailable: ${describeOutcome(o)}`);
  // A request's start line already named the transcript; saved and unsent audits name it here.
  const header = e.saved || r.elapsedMs === null ? [`${singleLine(r.transcriptId)}  ${r.checkId}`] : [];
  const lines = [...header, `  ${prefix}${what}`];
  if (r.orderSwap !== null)
    lines.push(
      `  order probe: ${r.orderSwap.kind === 'answered' ? `reversed options -> ${verdictWordOf(r.orderSwap.answer)}` : `unavailable (${r.orderSwap.reason.replace(/_/g, ' ')})`}`,
    );
  return lines;
}

/** The audit table and agreement per check, for the terminal. */
export function renderAuditTerminal(
  run: AuditRun,
  options: { readonly colour: boolean; readonly width?: number },
): string {
  const p = createPalette(options.colour);
  const s = run.summary;
  // On a terminal, lines fit its width; a file or pipe keeps each line whole.
  const width = options.width ?? Infinity;
  const wrap = (text: string, paint: (t: string) => string = (t) => t) => wrapStyled(text, width).map(paint);
  const out: string[] = [
    ...wrap(
      `Audit ${run.id}: ${s.audited} audit${s.audited === 1 ? '' : 's'} by ${describeJudge(run)}, set ${run.config.set}`,
      p.bold,
    ),
    ...wrap(
      `${s.counts.disagrees} disagree, ${s.counts.abstained} abstained, ${s.counts.unavailable} unavailable, ${s.counts.agrees} agree${run.pending.length > 0 ? `; ${run.pending.length} not judged yet (interrupted: ${resumeFlag(run.id)})` : ''}`,
    ),
    '',
  ];
  const rows = recordsForTable(run).map((r) => [
    truncate(singleLine(r.transcriptId), 32),
    r.checkId,
    statusWord(r),
    r.label,
    truncate(singleLine(judgeCell(r)), 70),
  ]);
  out.push(
    ...renderFittedTable(['transcript', 'check', 'outcome', 'check says', 'judge'], rows, width, {
      align: ['left', 'left', 'left', 'left', 'left'],
      styleHeader: p.bold,
    }),
  );
  out.push('', ...wrap('Agreement per check (judge vs deterministic label)', p.bold));
  out.push(
    ...renderFittedTable(
      [
        'check',
        'audited',
        'agree',
        'agreement',
        "Cohen's kappa [95%]",
        ...(run.config.orderProbe ? ['order flips'] : []),
      ],
      s.checks.map((c) => [
        c.checkId,
        String(c.audited),
        `${c.counts.agrees}/${c.compared}`,
        formatPercent(c.agreementRate),
        kappaText(c.kappa),
        ...(c.orderProbe === null
          ? []
          : [
              `${c.orderProbe.flipped.length}/${c.orderProbe.pairs}${c.orderProbe.flipped.length > 0 ? ' ORDER-DEPENDENT' : ''}`,
            ]),
      ]),
      width,
      { styleHeader: p.bold },
    ),
  );
  if (s.injection.compared > 0)
    out.push(
      '',
      ...wrap(
        `Injection cases: ${s.injection.flipped.length} of ${s.injection.compared} flipped the verdict${s.injection.flipped.length > 0 ? ` (${s.injection.flipped.join(', ')})` : ''}.`,
      ),
    );
  out.push('', ...AUDIT_LIMITS.flatMap((l) => wrap(`Limit: ${l}`, p.dim)));
  out.push(
    ...wrap('An audit never changes a score: a disagreement is a review candidate, not a corrected verdict.', p.dim),
  );
  return `${out.join('\n')}\n`;
}
