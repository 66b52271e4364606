/**
 * What `decidekit view`'s comparison of two runs adds to the comparison page: the
 * per-question deltas and, item by item, the decisions whose correctness changed (fixed or
 * broken) with the case's state and both predicted distributions, filtered by question,
 * workflow and direction, a page at a time.
 */
import type { RunComparison } from '../../core/bench/run-diff.js';
import { CHANGED_PAGE_DECISIONS, type ChangedFilter, type ChangedItem } from '../../core/view/changed-filter.js';
import { formatCount, formatNumber } from '../format.js';
import { escapeHtml } from '../html/html-escape.js';
import { renderTable, type Cell } from '../html/html-page.js';
import { renderQuestionDeltasSection } from '../runs/runs-compare-changes-html.js';
import { renderDistribution } from '../bench/bench-trace.js';

/** B - A per question, as the two-run comparison page of `runs compare` shows it. */
export const renderQuestionDeltas = renderQuestionDeltasSection;

function side(
  v: ChangedItem['decision']['before'],
  answers: readonly string[] | null,
  p: readonly number[] | null,
): string {
  const what =
    v.predicted === null ? `error: ${v.error ?? 'failed'}` : `${v.predicted} (${formatNumber(v.confidence)})`;
  const dist =
    answers === null || p === null ? '' : `<br><span class="dist">${escapeHtml(renderDistribution(answers, p))}</span>`;
  return `${escapeHtml(what)}${dist}`;
}

function row(item: ChangedItem): Cell[] {
  const d = item.decision;
  const fixed = d.after.correct;
  return [
    d.caseId,
    `${d.workflow}/${d.questionId}`,
    fixed ? { text: 'fixed', className: 'ok' } : { text: 'broken', className: 'bad' },
    d.gold,
    { text: side(d.before, item.answers, item.a), html: true },
    { text: side(d.after, item.answers, item.b), html: true },
    item.statePreview ?? '',
  ];
}

function options(
  values: readonly string[],
  chosen: string | undefined,
  words: (v: string) => string = (v) => v,
): string {
  return ['', ...values]
    .map(
      (v) =>
        `<option value="${escapeHtml(v)}"${v === (chosen ?? '') ? ' selected' : ''}>${escapeHtml(v === '' ? 'all' : words(v))}</option>`,
    )
    .join('');
}

export interface ChangedPage {
  readonly comparison: RunComparison;
  readonly filter: ChangedFilter;
  /** 1-based. */
  readonly page: number;
  readonly items: readonly ChangedItem[];
  /** How many changed decisions pass the filter. */
  readonly matching: number;
  /**
   * The query string of another page with the same filter; null when the page is a file
   * (a bundle), which lists its first page and has no filter form.
   */
  readonly pageHref: ((page: number) => string) | null;
  /** The runs in the order the URL names them, kept by the filter form. */
  readonly runs: readonly string[];
}

/** The decisions whose correctness changed, item by item. */
export function renderChangedDecisions(p: ChangedPage): string[] {
  const c = p.comparison;
  const f = p.filter;
  const out = ['<h2 id="changed-title">Decisions whose correctness changed</h2>'];
  out.push(
    `<p class="note">${formatCount(c.changed.length)} of ${formatCount(c.shared)} shared decisions changed correctness: ${formatCount(c.fixed)} fixed (wrong in A, right in B), ${formatCount(c.broken)} broken; ${formatCount(c.predictionsChanged)} changed prediction. Each with the start of its case's state and both predicted distributions.</p>`,
  );
  if (p.pageHref !== null) {
    const questions = [...new Set(c.changed.map((d) => `${d.workflow}/${d.questionId}`))].sort();
    const workflows = [...new Set(c.changed.map((d) => d.workflow))].sort();
    out.push(
      `<form class="filters" method="get" action="#changed-title" id="changed-form">` +
        `<input type="hidden" name="runs" value="${escapeHtml(p.runs.join(','))}">` +
        `<label>question <select name="question" id="c-question">${options(questions, f.question)}</select></label>` +
        `<label>workflow <select name="workflow" id="c-workflow">${options(workflows, f.workflow)}</select></label>` +
        `<label>change <select name="change" id="c-change">${options(['fixed', 'broken'], f.change)}</select></label>` +
        `<button type="submit" id="c-apply">Filter</button></form>`,
    );
  }
  const first = (p.page - 1) * CHANGED_PAGE_DECISIONS;
  const shown = p.items.length;
  out.push(
    `<p class="note" id="changed-count" data-matching="${p.matching}">` +
      (shown === 0
        ? 'No changed decision passes the filters.'
        : `Changed decisions ${formatCount(first + 1)}–${formatCount(first + shown)} of ${formatCount(p.matching)}, in run A's order.`) +
      '</p>',
  );
  out.push(
    renderTable({
      id: 'changed',
      headers: [
        'case',
        'question',
        'change',
        'gold',
        'A: predicted (confidence)',
        'B: predicted (confidence)',
        'state',
      ],
      rows: p.items.map(row),
      rowAttributes: p.items.map(
        (i) => ` data-case="${escapeHtml(i.decision.caseId)}" data-question="${escapeHtml(i.decision.questionId)}"`,
      ),
      scroll: true,
    }),
  );
  const href = p.pageHref;
  if (href !== null) {
    const links: string[] = [];
    if (p.page > 1)
      links.push(`<a href="${escapeHtml(href(p.page - 1))}" rel="prev" id="changed-prev">previous page</a>`);
    if (first + shown < p.matching)
      links.push(`<a href="${escapeHtml(href(p.page + 1))}" rel="next" id="changed-next">next page</a>`);
    if (links.length > 0) out.push(`<p class="filters">${links.join(' ')}</p>`);
  } else if (first + shown < p.matching)
    out.push(
      `<p class="note">The first ${formatCount(shown)} are listed here; <code>decidekit view</code> pages through every one.</p>`,
    );
  return out;
}
