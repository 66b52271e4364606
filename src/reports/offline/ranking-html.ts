/**
 * The ranking section of the offline HTML pages (`score`, `compare`, `tune`): ROC AUC and
 * average precision with their intervals, and the ROC and precision-recall curves as SVG,
 * each chart with its table. Numbers and points come from `core/stats/ranking.ts`.
 */
import type { Ranking } from '../../core/stats/ranking.js';
import { formatCount, formatNumber } from '../format.js';
import { escapeHtml } from '../html/html-escape.js';
import { numberCell as num, renderFigure, renderTable, type Cell } from '../html/html-page.js';
import { renderLineChart } from '../html/svg-charts.js';
import { formatInterval } from './score-text.js';

export interface RankedModel {
  readonly name: string;
  readonly ranking: Ranking;
}

/** The section, or '' when no model has ranked yes/no decisions. */
export function renderRankingSection(models: readonly RankedModel[], id = 'ranking'): string {
  if (models.length === 0) return '';
  const names = models.map((m) => m.name);
  const summary = renderTable({
    id: `${id}-table`,
    headers: ['model', 'yes/no cases#', 'yes#', 'ROC AUC#', '95% interval', 'average precision#', '95% interval'],
    rows: models.map(({ name, ranking: r }): Cell[] => [
      name,
      num(r.positives + r.negatives, formatCount(r.positives + r.negatives)),
      num(r.positives, formatCount(r.positives)),
      num(r.auc),
      formatInterval(r.aucInterval),
      num(r.averagePrecision),
      formatInterval(r.averagePrecisionInterval),
    ]),
  });
  const figure = (kind: 'roc' | 'pr'): string => {
    const withCurve = models.filter((m) => (kind === 'roc' ? m.ranking.roc : m.ranking.precisionRecall).length > 0);
    if (withCurve.length === 0) return '';
    const curveOf = (r: Ranking) => (kind === 'roc' ? r.roc : r.precisionRecall);
    const title = kind === 'roc' ? 'ROC curve' : 'Precision-recall curve';
    const [xLabel, yLabel] = kind === 'roc' ? ['false positive rate', 'true positive rate'] : ['recall', 'precision'];
    const chart = renderLineChart(
      {
        id: `${id}-${kind}`,
        title,
        desc: `${yLabel} against ${xLabel} at each distinct P(yes) of the yes/no cases, for ${withCurve.map((m) => m.name).join(', ')}.`,
      },
      withCurve.map((m) => ({ name: m.name, points: curveOf(m.ranking).map((p) => [p.x, p.y] as const) })),
      {
        xLabel,
        yLabel,
        x: [0, 1],
        yMax: 1,
        formatX: (v) => formatNumber(v, 1),
        formatY: (v) => formatNumber(v, 1),
        markers: [],
      },
    );
    const table = renderTable({
      id: `${id}-${kind}-points`,
      scroll: true,
      headers: ['model', 'threshold (yes iff p ≥ t)#', `${xLabel}#`, `${yLabel}#`],
      rows: withCurve.flatMap((m) =>
        curveOf(m.ranking).map((p): Cell[] => [
          m.name,
          p.threshold === null ? 'none called yes' : num(p.threshold),
          num(p.x),
          num(p.y),
        ]),
      ),
    });
    return renderFigure({
      title,
      note:
        kind === 'roc'
          ? 'Each point calls yes every case with P(yes) at or above a threshold; the area under the curve is the ROC AUC (0.5 is chance).'
          : 'Precision against recall as the threshold falls; average precision sums precision over each step in recall.',
      legend: withCurve.map((m) => m.name),
      chart,
      table,
    });
  };
  return [
    '<h2>Ranking (yes/no)</h2>',
    `<p>How well P(yes) puts the yes cases above the no cases, whatever the threshold: a recalibration changes calibration, not these. Models: ${escapeHtml(names.join(', '))}.</p>`,
    summary,
    figure('roc'),
    figure('pr'),
  ].join('\n');
}
