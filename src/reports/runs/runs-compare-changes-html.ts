/**
 * The two-run comparison page's item-by-item sections, as `runs compare A B` prints them in
 * the terminal: B - A per question, and the decisions whose correctness changed (fixed or
 * broken) with both sides' predictions.
 */
import { changedCount, firstChanged, type DecisionView, type RunComparison } from '../../core/bench/run-diff.js';
import { JSON_FLAG } from '../../core/command-hints.js';
import { formatCount, formatNumber, formatPercent, formatSigned } from '../format.js';
import { escapeHtml } from '../html/html-escape.js';
import { renderTable, type Cell } from '../html/html-page.js';
import { describeQuestionBase } from './runs-diff.js';

/** Changed decisions listed on the page at most; the JSON document lists every one. */
export const HTML_CHANGED_ROWS = 2_000;

const signedPp = (v: number | null): string => (v === null ? 'n/a' : `${formatSigned(v * 100, 1)} pp`);

/** B - A per question: decisions, both accuracies and the differences of accuracy, KL and Brier. */
export function renderQuestionDeltasSection(c: RunComparison): string[] {
  const base = describeQuestionBase(c);
  return [
    '<h2 id="question-deltas-title">Per question, B - A</h2>',
    ...(base === null ? [] : [`<p class="note">${escapeHtml(base)}</p>`]),
    renderTable({
      id: 'question-deltas',
      sortable: true,
      headers: [
        'workflow/question',
        'decisions#',
        'A accuracy#',
        'B accuracy#',
        'accuracy B - A#',
        'KL B - A#',
        'Brier B - A#',
      ],
      rows: c.byQuestion.map((q): Cell[] => [
        q.key,
        { text: formatCount(q.total.b), value: q.total.b },
        { text: formatPercent(q.accuracy.a), value: q.accuracy.a },
        { text: formatPercent(q.accuracy.b), value: q.accuracy.b },
        { text: signedPp(q.accuracy.delta), value: q.accuracy.delta },
        { text: formatSigned(q.kl.delta), value: q.kl.delta },
        { text: formatSigned(q.brier.delta), value: q.brier.delta },
      ]),
      scroll: c.byQuestion.length > 20,
    }),
  ];
}

function side(v: DecisionView): Cell {
  if (v.predicted === null) return { text: `error: ${v.error ?? 'failed'}`, className: 'bad' };
  const text = `${v.predicted} (${formatNumber(v.confidence, 2)}) ${v.correct ? '✓' : '✗'}`;
  return { text, className: v.correct ? 'ok' : 'bad' };
}

/** The decisions whose correctness changed, in run A's order, the first HTML_CHANGED_ROWS of them. */
export function renderChangedSection(c: RunComparison): string[] {
  const only =
    c.onlyInA + c.onlyInB > 0 ? `; ${formatCount(c.onlyInA)} only in A, ${formatCount(c.onlyInB)} only in B` : '';
  const count = changedCount(c);
  const out = [
    '<h2 id="changed-title">Decisions whose correctness changed</h2>',
    `<p class="note" id="changed-count">${formatCount(count)} of ${formatCount(c.shared)} shared decisions changed correctness: ${formatCount(c.fixed)} fixed (wrong in A, right in B), ${formatCount(c.broken)} broken; ${formatCount(c.predictionsChanged)} changed prediction${only}.</p>`,
  ];
  if (count === 0) return out;
  const shown = firstChanged(c, HTML_CHANGED_ROWS);
  out.push(
    renderTable({
      id: 'changed',
      sortable: true,
      headers: ['case', 'question', 'change', 'type', 'gold', 'A: predicted (confidence)', 'B: predicted (confidence)'],
      rows: shown.map((d): Cell[] => [
        d.caseId,
        `${d.workflow}/${d.questionId}`,
        d.after.correct ? { text: 'fixed', className: 'ok' } : { text: 'broken', className: 'bad' },
        d.type,
        d.gold,
        side(d.before),
        side(d.after),
      ]),
      rowAttributes: shown.map(
        (d) => ` data-case="${escapeHtml(d.caseId)}" data-question="${escapeHtml(d.questionId)}"`,
      ),
      scroll: shown.length > 20,
    }),
  );
  const rest = count - shown.length;
  if (rest > 0)
    out.push(
      `<p class="note">And ${formatCount(rest)} more (the comparison with <code>${JSON_FLAG}</code> lists every one).</p>`,
    );
  return out;
}
