/**
 * `decidekit view`'s model page: the model's runs, one table (and chart) per work (same
 * dataset, cases, questions and server), oldest first, each metric with its 95% interval and
 * a mark where it moved beyond noise against the run before.
 */
import type { ModelMatch } from '../../core/view/model-name.js';
import { TREND_METRICS, type TrendChange, type TrendMetric, type TrendPoint } from '../../core/view/model-trend.js';
import type { ViewLinks } from '../../core/view/view-links.js';
import { formatCount, formatNumber, formatPercent } from '../format.js';
import { escapeHtml } from '../html/html-escape.js';
import { renderFigure, renderPage, renderTable, type Cell } from '../html/html-page.js';
import { renderLineChart } from '../html/svg-charts.js';
import { linkOr, renderViewNav } from './view-nav.js';

export interface ModelWork {
  /** What the runs measured: dataset, cases, server. */
  readonly title: string;
  readonly points: readonly TrendPoint[];
}

const LABELS: Readonly<Record<TrendMetric, string>> = { accuracy: 'accuracy', kl: 'KL', brier: 'Brier', ece: 'ECE' };
const format = (m: TrendMetric, v: number | null): string => (m === 'accuracy' ? formatPercent(v) : formatNumber(v));
const MARKS: Readonly<Record<Exclude<TrendChange, null>, string>> = {
  better: ' ▲ better beyond noise',
  worse: ' ▼ worse beyond noise',
  within_noise: '',
};

function metricCell(p: TrendPoint, m: TrendMetric): Cell {
  const i = p.intervals?.[m] ?? null;
  const change = p.changes[m];
  const interval = i === null ? '' : ` [${format(m, i.low)}, ${format(m, i.high)}]`;
  const mark = change === null ? '' : MARKS[change];
  return {
    text: `${format(m, p.values[m])}${interval}${mark}`,
    value: p.values[m],
    ...(change === 'better' ? { className: 'ok' } : change === 'worse' ? { className: 'bad' } : {}),
  };
}

function workSection(work: ModelWork, index: number, links: ViewLinks): string[] {
  const id = `work-${index}`;
  const table = renderTable({
    id: `${id}-table`,
    headers: ['#', 'run', 'created', 'label', 'status', ...TREND_METRICS.map((m) => `${LABELS[m]} [95%]#`)],
    rows: work.points.map((p, i): Cell[] => [
      String(i + 1),
      { text: linkOr(links.run(p.id), p.id), html: true, className: 'nowrap' },
      p.createdAt.slice(0, 16).replace('T', ' '),
      p.label ?? '',
      p.status,
      ...TREND_METRICS.map((m) => metricCell(p, m)),
    ]),
    rowAttributes: work.points.map(
      (p) =>
        ` data-id="${escapeHtml(p.id)}"${TREND_METRICS.map((m) => (p.changes[m] === null ? '' : ` data-${m}="${p.changes[m]}"`)).join('')}`,
    ),
  });
  const out = [`<h2 id="${id}">${escapeHtml(work.title)}</h2>`];
  const points = work.points.flatMap((p, i) =>
    p.values.accuracy === null ? [] : [[i + 1, p.values.accuracy] as const],
  );
  if (points.length >= 2)
    out.push(
      renderFigure({
        title: 'Accuracy run by run',
        chart: renderLineChart(
          {
            id: `${id}-chart`,
            title: 'Accuracy run by run',
            desc: `Accuracy of the ${points.length} runs, oldest first.`,
          },
          [{ name: 'accuracy', points }],
          {
            xLabel: 'run, oldest first',
            yLabel: 'accuracy',
            x: [1, work.points.length],
            yMax: 1,
            formatX: (v) => (Number.isInteger(v) ? formatCount(v) : ''),
            formatY: (v) => formatPercent(v, 0),
            markers: [],
          },
        ),
        table,
      }),
    );
  else out.push(table);
  return out;
}

export function renderModelPage(input: {
  readonly model: string;
  readonly works: readonly ModelWork[];
  readonly links: ViewLinks;
  readonly storePath: string;
}): string {
  const runs = input.works.reduce((n, w) => n + w.points.length, 0);
  const body = [
    renderViewNav(input.links, `Model ${input.model}`, input.storePath),
    `<header><h1>Model ${escapeHtml(input.model)}</h1>`,
    `<p class="meta">${formatCount(runs)} runs on ${formatCount(input.works.length)} kinds of work (same dataset, cases, questions and server), oldest first. ` +
      'A metric is marked ▲ or ▼ when its 95% interval does not overlap the run before’s: a change beyond noise (overlapping intervals may still hide one a paired comparison finds).</p></header><main>',
    ...(input.works.length === 0 ? ['<p class="warn">The store holds no run of this model.</p>'] : []),
    ...input.works.flatMap((w, i) => workSection(w, i, input.links)),
    '</main>',
  ];
  return renderPage({ title: `decidekit view: model ${input.model}`, body: body.join('\n') });
}

/** The links to models, in a list: a model the bundle holds no page for is named without one. */
function modelLinks(models: readonly string[], links: ViewLinks): string {
  return `<ul>${models.map((m) => `<li>${linkOr(links.model(m), m)}</li>`).join('')}</ul>`;
}

/**
 * The page of a model address that names no model (with the close ones, else every model of
 * the store) or the start of several models' names (each of them).
 */
export function renderModelChoicePage(input: {
  readonly asked: string;
  readonly match: Exclude<ModelMatch, { kind: 'one' }>;
  /** Every model of the store, as the list's model column shows them. */
  readonly models: readonly string[];
  readonly links: ViewLinks;
  readonly storePath: string;
}): string {
  const { asked, match, links } = input;
  const quoted = `“${escapeHtml(asked)}”`;
  const body =
    match.kind === 'several'
      ? [
          `<h1>Several models</h1>`,
          `<p class="warn">${quoted} is the start of ${formatCount(match.models.length)} models’ names: choose one.</p>`,
          modelLinks(match.models, links),
        ]
      : [
          `<h1>No such model</h1>`,
          `<p class="warn">The store holds no run of a model named ${quoted}.</p>`,
          ...(match.near.length > 0
            ? ['<p>Did you mean:</p>', modelLinks(match.near, links)]
            : input.models.length > 0
              ? ['<p>The store’s models:</p>', modelLinks(input.models, links)]
              : ['<p>The store holds no run yet.</p>']),
        ];
  return renderPage({
    title: `decidekit view: model ${asked}`,
    body: [
      renderViewNav(links, `Model ${asked}`, input.storePath),
      '<main id="model-choice">',
      ...body,
      '</main>',
    ].join('\n'),
  });
}
