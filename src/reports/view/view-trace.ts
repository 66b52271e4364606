/**
 * The trace of `decidekit view`'s run page, one page of decisions at a time: the server
 * filters (question, workflow, wrong only) and pages it, so a large run's trace is never
 * sent whole. The filters are a plain form and the pages plain links: no script needed.
 */
import { TRACE_PAGE_DECISIONS, type TraceDecision, type TraceFilter } from '../../core/view/trace-filter.js';
import { assertNever } from '../../core/question.js';
import { formatCount, formatNumber } from '../format.js';
import { escapeHtml } from '../html/html-escape.js';
import { renderTable, type Cell } from '../html/html-page.js';
import { renderDistribution } from '../bench/bench-trace.js';

export interface TracePage {
  readonly filter: TraceFilter;
  /** 1-based. */
  readonly page: number;
  readonly decisions: readonly TraceDecision[];
  /** How many decisions pass the filter, from the run's summary. */
  readonly matching: number;
  readonly questions: readonly string[];
  readonly workflows: readonly string[];
}

/** The query string of a trace page (`?question=…&page=2`), read back by the server. */
export function traceQuery(filter: TraceFilter, page: number): string {
  const params = new URLSearchParams();
  if (filter.question !== undefined) params.set('question', filter.question);
  if (filter.workflow !== undefined) params.set('workflow', filter.workflow);
  if (filter.wrong) params.set('wrong', '1');
  if (page > 1) params.set('page', String(page));
  const text = params.toString();
  return `${text === '' ? '?' : `?${text}`}#trace-section`;
}

function row(t: TraceDecision): Cell[] {
  const { decision: d } = t;
  const o = d.outcome;
  const gold = renderDistribution(d.answers, d.gold.probabilities);
  switch (o.status) {
    case 'answered':
      return [
        t.caseId,
        `${t.workflow}/${d.questionId}`,
        o.correct ? { text: '✓', className: 'ok' } : { text: '✗', className: 'bad' },
        o.predicted,
        d.gold.label,
        { text: formatNumber(o.confidence), value: o.confidence },
        { text: formatNumber(o.kl), value: o.kl },
        { text: formatNumber(o.brier), value: o.brier },
        { text: renderDistribution(d.answers, o.probabilities), className: 'dist' },
        { text: gold, className: 'dist' },
      ];
    case 'failed':
      return [
        t.caseId,
        `${t.workflow}/${d.questionId}`,
        { text: '–', className: 'bad' },
        `error: ${o.failure.kind}`,
        d.gold.label,
        { text: 'n/a', value: null },
        { text: 'n/a', value: null },
        { text: 'n/a', value: null },
        '',
        { text: gold, className: 'dist' },
      ];
    default:
      return assertNever(o);
  }
}

function options(values: readonly string[], chosen: string | undefined): string {
  return ['', ...values]
    .map(
      (v) =>
        `<option value="${escapeHtml(v)}"${v === (chosen ?? '') ? ' selected' : ''}>${escapeHtml(v === '' ? 'all' : v)}</option>`,
    )
    .join('');
}

/** The trace section: filters, where the page is, the table and the page links. */
export function renderTracePage(t: TracePage): string[] {
  const first = (t.page - 1) * TRACE_PAGE_DECISIONS;
  const pages = Math.max(1, Math.ceil(t.matching / TRACE_PAGE_DECISIONS));
  const f = t.filter;
  const out = ['<h2 id="trace-section">Trace</h2>'];
  out.push(
    `<form class="filters" method="get" action="#trace-section" id="trace-form">` +
      `<label>question <select name="question" id="t-question">${options(t.questions, f.question)}</select></label>` +
      `<label>workflow <select name="workflow" id="t-workflow">${options(t.workflows, f.workflow)}</select></label>` +
      `<label><input type="checkbox" name="wrong" value="1" id="t-wrong"${f.wrong ? ' checked' : ''}> wrong or failed only</label>` +
      `<button type="submit" id="t-apply">Filter</button></form>`,
  );
  const shown = t.decisions.length;
  out.push(
    `<p class="note" id="trace-count" data-matching="${t.matching}">` +
      (shown === 0 && t.matching > 0
        ? `Page ${formatCount(t.page)} is past the last page (${formatCount(pages)}) of the ${formatCount(t.matching)} decisions that pass the filters: <a href="${escapeHtml(traceQuery(f, pages))}" id="trace-last">go to the last page</a>.`
        : shown === 0
          ? 'No decision passes the filters.'
          : `Decisions ${formatCount(first + 1)}–${formatCount(first + shown)} of ${formatCount(t.matching)} that pass the filters, in run order (page ${formatCount(t.page)} of ${formatCount(pages)}). Failed decisions (–) count as wrong.`) +
      '</p>',
  );
  out.push(
    renderTable({
      id: 'view-trace',
      headers: [
        'case',
        'question',
        '',
        'predicted',
        'gold',
        'confidence#',
        'KL#',
        'Brier#',
        'predicted distribution',
        'gold distribution',
      ],
      rows: t.decisions.map(row),
      scroll: true,
    }),
  );
  const links: string[] = [];
  if (t.page > 1 && t.page <= pages)
    links.push(`<a href="${escapeHtml(traceQuery(f, t.page - 1))}" rel="prev" id="trace-prev">previous page</a>`);
  if (first + shown < t.matching)
    links.push(`<a href="${escapeHtml(traceQuery(f, t.page + 1))}" rel="next" id="trace-next">next page</a>`);
  if (links.length > 0) out.push(`<p class="filters">${links.join(' ')}</p>`);
  return out;
}
