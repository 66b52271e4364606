/**
 * `calibrate --html`: one section a group with its fit, the held-out metrics before and
 * after (intervals, verdicts) and two reliability diagrams side by side, before and after,
 * with the ECE noise floor. Pure: one self-contained page, no request.
 */
import type { CalibrationRun, GroupCalibration, HeldOutMetrics } from '../../core/calibrate/cross-validate.js';
import type { Calibration } from '../../core/calibration.js';
import type { StatMetric, Interval } from '../../core/stats/bootstrap.js';
import type { EceNoise } from '../../core/stats/noise-floor.js';
import { describeEceVerdict } from '../ece-verdict.js';
import { formatCount, formatNumber, formatSigned } from '../format.js';
import { escapeHtml } from '../html/html-escape.js';
import { numberCell, renderPage, renderTable, slug, type Cell } from '../html/html-page.js';
import { renderReliabilityChart } from '../html/svg-charts.js';
import { fitText } from './calibrate-text.js';

const ROWS: readonly (readonly [string, StatMetric])[] = [
  ['Accuracy', 'accuracy'],
  ['KL', 'kl'],
  ['Brier', 'brier'],
  ['Log loss', 'logLoss'],
  ['ECE', 'ece'],
];
const VERDICT_TEXT = { better: 'better', worse: 'worse', within_noise: 'within noise' } as const;

export function renderCalibrateHtml(run: CalibrationRun): string {
  const r = run.result;
  const title = `Calibration of ${run.model ?? 'the model'}: ${r.method}, by ${r.by}`;
  const body = [
    `<header><h1>${escapeHtml(title)}</h1><p class="meta">fitted on ${escapeHtml(run.fittedOn)} · ${r.cases} cases · held out: ${r.folds} folds by case, seed ${r.seed}</p></header><main>`,
    ...r.groups.map((g) => groupSection(g, r.source === 'bench')),
    ...(r.groups.length > 1
      ? [heldOutSection('all groups together', 'overall', r.overall, r.source === 'bench', '')]
      : []),
    '<p class="muted">Numbers are on held-out folds, before and after the fit; intervals are 95% from resampling cases; a verdict is better or worse only when the paired interval of after − before excludes 0. The map holds the fit on all the data.</p>',
    '</main>',
  ];
  return renderPage({ title, body: body.join('\n') });
}

function groupSection(g: GroupCalibration, withKl: boolean): string {
  const fit = `<p data-fit="${escapeHtml(g.fit.status)}">${escapeHtml(fitText(g))}</p>`;
  return heldOutSection(
    `group ${JSON.stringify(g.key)}: ${g.decisions} decisions, ${g.cases} cases`,
    g.key,
    g.heldOut,
    withKl,
    fit,
  );
}

function heldOutSection(heading: string, key: string, h: HeldOutMetrics, withKl: boolean, fit: string): string {
  const id = slug(`g-${key}`);
  const rows = ROWS.filter(([, m]) => withKl || m !== 'kl').map(([label, m]): Cell[] => {
    const d = h.paired.metrics[m];
    return [
      label,
      numberCell(h.before.estimates[m]),
      intervalText(h.before.intervals[m]),
      numberCell(h.after.estimates[m]),
      intervalText(h.after.intervals[m]),
      numberCell(d.difference, formatSigned(d.difference)),
      intervalText(d.interval, true),
      d.verdict === null ? 'n/a' : VERDICT_TEXT[d.verdict],
    ];
  });
  const table = renderTable({
    id: `${id}-metrics`,
    headers: [
      'held out',
      'before#',
      '95% interval',
      'after#',
      '95% interval',
      'after − before#',
      '95% interval',
      'verdict',
    ],
    rows,
    scroll: true,
  });
  const chart = (side: 'before' | 'after', cal: Calibration, noise: EceNoise | null): string =>
    `<div data-side="${side}">${renderReliabilityChart(
      {
        id: `${id}-${side}`,
        title: `Reliability ${side} (held out)`,
        desc: `Accuracy against mean confidence per bin ${side} the recalibration; ECE ${formatNumber(cal.ece)}.`,
      },
      [{ name: side, bins: cal.bins }],
    )}<p class="muted">${side}: ECE ${formatNumber(cal.ece)} over ${formatCount(cal.n)} decisions; ${noiseText(noise)}</p></div>`;
  return `<section id="${id}"><h2>${escapeHtml(heading)}</h2>${fit}${table}<div class="pair">${chart('before', h.reliabilityBefore, h.noiseBefore)}${chart('after', h.reliabilityAfter, h.noiseAfter)}</div></section>`;
}

function noiseText(n: EceNoise | null): string {
  if (n === null) return 'no noise floor';
  return `${describeEceVerdict(n)} (a calibrated model would show ${formatNumber(n.mean)}, 95th percentile ${formatNumber(n.p95)})`;
}

function intervalText(i: Interval | null, signed = false): string {
  if (i === null) return 'no interval';
  const f = signed ? formatSigned : formatNumber;
  return `[${f(i.low)}, ${f(i.high)}]`;
}
