/**
 * HTML reports of the offline commands: `score` and `compare` (reliability diagram and the
 * metric table per model), `tune` (precision, recall, F1 and error cost against the
 * threshold, default and tuned thresholds marked) and `actions` (the gold→predicted action
 * matrix with costs, per model). Numbers come from the core summaries.
 */
import { recalibratedText } from '../../core/calibration-map.js';
import { describeEceVerdict } from '../ece-verdict.js';
import type { ThresholdMetrics } from '../../core/offline/threshold-tuning.js';
import { actionCost } from '../../core/offline/composed-actions.js';
import { formatCount, formatMs, formatNumber, formatPercent, formatSigned, formatUsd } from '../format.js';
import type { ActionsReport } from './actions-json.js';
import { describeConventions } from '../../core/stats/conventions.js';
import type { Interval } from '../../core/stats/bootstrap.js';
import { conventionNotes, effectiveConventions } from './score-json.js';
import type { ComparedModels, ScoredModel } from '../../core/offline/scored-files.js';
import { decidedCases, formatInterval, formatP, formatSignedInterval } from './score-text.js';
import type { TunedModel } from './tuning-json.js';
import { escapeHtml } from '../html/html-escape.js';
import {
  renderFigure,
  renderHeatTable,
  renderPage,
  renderTable,
  slug,
  type Cell,
  numberCell,
  renderReliabilityTable,
} from '../html/html-page.js';
import { renderLineChart, renderReliabilityChart } from '../html/svg-charts.js';
import { renderRankingSection, type RankedModel } from './ranking-html.js';

/** The models with ranked yes/no decisions, by name. */
function rankedModels(models: readonly ScoredModel[]): RankedModel[] {
  return models.flatMap((m) => (m.stats?.ranking ? [{ name: modelName(m), ranking: m.stats.ranking }] : []));
}

const num = numberCell;
const modelName = (m: ScoredModel): string => m.model ?? m.resultsPath;

function metricTable(models: readonly ScoredModel[]): string {
  return renderTable({
    id: 'metrics-table',
    sortable: models.length > 1,
    headers: [
      'model',
      'accuracy#',
      'Brier#',
      'log loss#',
      'ECE#',
      'mean confidence#',
      'score MAE#',
      '$ / correct#',
      'latency (ms)#',
      'scored#',
      'missing#',
    ],
    rows: models.map((m): Cell[] => {
      const s = m.summary;
      const ci = m.stats?.intervals;
      // The interval shares the number's cell: sorting and data-value stay the number's.
      const withCi = (v: number | null, i: Interval | null | undefined): Cell =>
        i === null || i === undefined
          ? num(v)
          : {
              text: `${escapeHtml(formatNumber(v))}<br><span class="muted dist">${escapeHtml(formatInterval(i))}</span>`,
              value: v,
              html: true,
            };
      return [
        modelName(m),
        withCi(s.accuracy, ci?.accuracy),
        withCi(s.brier, ci?.brier),
        withCi(s.logLoss, ci?.logLoss),
        withCi(s.ece, ci?.ece),
        num(s.meanConfidence),
        num(s.scoreMae),
        num(s.costPerCorrectUsd, formatUsd(s.costPerCorrectUsd)),
        num(s.meanLatencyMs, formatMs(s.meanLatencyMs)),
        num(s.counts.nScored.total, formatCount(s.counts.nScored.total)),
        num(s.counts.nMissing, formatCount(s.counts.nMissing)),
      ];
    }),
  });
}

function reliabilityFigure(models: readonly ScoredModel[]): string {
  const withBins = models.filter((m) => m.summary.reliability.length > 0);
  if (withBins.length === 0) return '<p>No yes_no or choice results: nothing to calibrate.</p>';
  const names = withBins.map(modelName);
  return renderFigure({
    title: 'Reliability diagram',
    note: 'Accuracy against mean confidence per confidence bin (yes_no and choice results); the dashed diagonal is perfect calibration, bars beneath count results per bin.',
    legend: names,
    chart: renderReliabilityChart(
      {
        id: 'reliability',
        title: 'Reliability diagram',
        desc: `Accuracy against mean confidence per confidence bin for ${names.join(', ')}.`,
      },
      withBins.map((m, i) => ({ name: names[i]!, bins: m.summary.reliability })),
    ),
    table: renderReliabilityTable(
      'model',
      withBins.map((m, i) => ({ name: names[i]!, bins: m.summary.reliability })),
    ),
    // Several models' bins make a table too wide for the column beside the chart.
    pair: withBins.length === 1,
  });
}

/** The ECE noise floor of each model, the conventions and how to read the intervals. */
function noiseSection(models: readonly ScoredModel[]): string {
  const floors = models.filter((m) => m.stats?.noiseFloor);
  const parts: string[] = ['<h2>Intervals and noise</h2>'];
  if (floors.length > 0)
    parts.push(
      renderTable({
        id: 'noise-table',
        sortable: false,
        headers: [
          'model',
          'ECE#',
          'calibrated model: mean ECE#',
          '95th percentile#',
          'verdict',
          'debiased ECE#',
          'its 95% interval',
        ],
        rows: floors.map((m): Cell[] => {
          const f = m.stats!.noiseFloor!;
          const d = m.stats!.debiasedEce ?? null;
          return [
            modelName(m),
            num(m.summary.ece),
            num(f.mean),
            num(f.p95),
            describeEceVerdict(f),
            num(d?.debiased ?? null),
            formatInterval(d?.interval),
          ];
        }),
      }),
    );
  const c = effectiveConventions(models[0]!);
  const notes = conventionNotes(models).map((n) => ` Note: ${n}.`);
  parts.push(`<p class="note">Conventions: ${escapeHtml(describeConventions(c) + '.' + notes.join(''))}</p>`);
  if (c.bootstrapResamples > 0)
    parts.push(
      '<p class="note">How to read this: [low, high] is a 95% interval from resampling cases (one decision per case offline); differences inside it are noise. The noise floor is the ECE a perfectly calibrated model with the same confidences would show on this many decisions; an ECE at or below its 95th percentile is within noise. See docs/scoring.md, "Intervals and noise".</p>',
    );
  return parts.join('\n');
}

const VERDICTS = { better: 'better', worse: 'worse', within_noise: 'within noise' } as const;

/** The leaderboard and each model against the baseline, paired. */
function pairedSection(c: ComparedModels): string {
  if (c.pairings.length === 0) return '';
  const baseline = c.scored[0]!;
  const parts: string[] = [
    '<h2>Leaderboard by accuracy</h2>',
    renderTable({
      id: 'leaderboard-table',
      sortable: false,
      headers: ['rank#', 'model', 'accuracy#', '95% interval', 'decided', 'tied with the leader'],
      rows: c.leaderboard.map((r): Cell[] => [
        num(r.rank, r.rank === null ? '-' : String(r.rank)),
        modelName(r.row),
        num(r.row.summary.accuracy),
        formatInterval(r.row.stats?.intervals.accuracy),
        decidedCases(r.row),
        r.sameCasesAsLeader ? (r.tiedWithLeader ? 'tied' : '') : 'other cases than the leader',
      ]),
    }),
    `<h2>Against ${escapeHtml(modelName(baseline))} (paired)</h2>`,
  ];
  for (const { index, pairing } of c.pairings) {
    const m = c.scored[index]!;
    const p = pairing.paired;
    const rows = (
      [
        ['accuracy', p.metrics.accuracy],
        ['Brier', p.metrics.brier],
        ['log loss', p.metrics.logLoss],
        ['ECE', p.metrics.ece],
      ] as const
    ).map(([label, d]): Cell[] => [
      label,
      num(d.first),
      num(d.second),
      num(d.difference, formatSigned(d.difference)),
      formatSignedInterval(d.interval),
      d.verdict === null ? 'n/a' : VERDICTS[d.verdict],
    ]);
    parts.push(
      `<h3>${escapeHtml(modelName(m))} − ${escapeHtml(modelName(baseline))}</h3>`,
      renderTable({
        id: `paired-${slug(modelName(m))}`,
        sortable: false,
        headers: ['metric', `${modelName(baseline)}#`, `${modelName(m)}#`, 'difference#', '95% interval', 'verdict'],
        rows,
      }),
      `<p class="note">Paired on ${formatCount(p.cases)} cases both decided. McNemar (accuracy): ${pairing.mcnemar.onlyFirstCorrect} right only for ${escapeHtml(modelName(baseline))}, ${pairing.mcnemar.onlySecondCorrect} only for ${escapeHtml(modelName(m))}; exact p = ${escapeHtml(formatP(pairing.mcnemar.pValue))}.</p>`,
    );
  }
  return parts.join('\n');
}

/** `score --html`: one model. */
export function renderScoreHtml(m: ScoredModel): string {
  const title = `Offline score: ${modelName(m)}`;
  const body = [
    `<header><h1>${escapeHtml(title)}</h1><p class="meta">dataset <code>${escapeHtml(m.datasetPath)}</code> · results <code>${escapeHtml(m.resultsPath)}</code> · yes/no threshold ${formatNumber(m.summary.threshold, 2)}</p>${recalibratedNote(m)}</header><main>`,
    '<h2>Metrics</h2>',
    metricTable([m]),
    '<h2>Calibration</h2>',
    reliabilityFigure([m]),
    noiseSection([m]),
    renderRankingSection(rankedModels([m])),
    '</main>',
  ];
  return renderPage({ title, body: body.join('\n') });
}

/** A recalibrated model's numbers say so (empty when no map was applied). */
function recalibratedNote(m: ScoredModel): string {
  return m.recalibration === undefined
    ? ''
    : `<p class="meta recalibrated">${escapeHtml(recalibratedText(m.recalibration))}</p>`;
}

/** `compare --html`: several models, in the order shown; the paired comparisons against the first given. */
export function renderCompareHtml(c: ComparedModels, models: readonly ScoredModel[]): string {
  const title = `Offline comparison of ${models.length} models`;
  const body = [
    `<header><h1>${escapeHtml(title)}</h1><p class="meta">dataset <code>${escapeHtml(c.datasetPath)}</code> · ${models.map((m) => `<code>${escapeHtml(m.resultsPath)}</code>`).join(', ')}</p></header><main>`,
    ...models.map(recalibratedNote).filter((n, i, all) => n !== '' && all.indexOf(n) === i),
    '<h2>Metrics</h2>',
    metricTable(models),
    pairedSection(c),
    '<h2>Calibration</h2>',
    reliabilityFigure(models),
    noiseSection(c.scored),
    renderRankingSection(rankedModels(models)),
    '</main>',
  ];
  return renderPage({ title, body: body.join('\n') });
}

/** `tune --html`: the curve comes from the core's `thresholdCurve` over the same points. */
export function renderTuneHtml(t: TunedModel, curve: readonly ThresholdMetrics[]): string {
  const r = t.report;
  const title = `Threshold tuning: ${t.model}`;
  const withCost = r.costs !== null;
  const series = [
    { name: 'precision', points: curve.map((m) => [m.threshold, m.precision] as const) },
    { name: 'recall', points: curve.map((m) => [m.threshold, m.recall] as const) },
    { name: 'F1', points: curve.map((m) => [m.threshold, m.f1] as const) },
    ...(withCost
      ? [{ name: 'error cost per call', points: curve.map((m) => [m.threshold, m.errorCostPerCall ?? 0] as const) }]
      : []),
  ];
  const yMax = Math.max(1, ...curve.map((m) => m.errorCostPerCall ?? 0));
  const markers = [
    { label: 'default', value: r.default.threshold },
    { label: 'tuned', value: r.tuned.threshold },
  ];
  const chart = renderLineChart(
    {
      id: 'tune',
      title: 'Precision, recall and F1 against the threshold',
      desc: `${series.map((s) => s.name).join(', ')} at ${curve.length} thresholds from 0 to 1; the default threshold ${formatNumber(r.default.threshold, 2)} and the tuned threshold ${formatNumber(r.tuned.threshold, 3)} are marked.`,
    },
    series,
    {
      xLabel: 'threshold (yes iff p ≥ t)',
      yLabel: withCost ? 'metric / cost per call' : 'metric',
      x: [0, 1],
      yMax,
      formatX: (v) => formatNumber(v, 2),
      formatY: (v) => formatNumber(v, 1),
      markers,
    },
  );
  const row = (name: string, m: ThresholdMetrics): Cell[] => [
    name,
    num(m.threshold),
    num(m.precision),
    num(m.recall),
    num(m.f1),
    num(m.accuracy),
    ...(withCost ? [num(m.errorCostPerCall)] : []),
    num(m.confusion.tp, formatCount(m.confusion.tp)),
    num(m.confusion.fp, formatCount(m.confusion.fp)),
    num(m.confusion.fn, formatCount(m.confusion.fn)),
    num(m.confusion.tn, formatCount(m.confusion.tn)),
  ];
  const headers = [
    'row',
    'threshold#',
    'precision#',
    'recall#',
    'F1#',
    'accuracy#',
    ...(withCost ? ['error cost / call#'] : []),
    'TP#',
    'FP#',
    'FN#',
    'TN#',
  ];
  const cv = r.crossValidated;
  const body = [
    `<header><h1>${escapeHtml(title)}</h1><p class="meta">dataset <code>${escapeHtml(t.datasetPath)}</code> · results <code>${escapeHtml(t.resultsPath)}</code> · ${formatCount(r.n)} yes_no cases (${formatCount(r.positives)} yes, ${formatCount(r.negatives)} no) · objective ${r.objective === 'f1' ? 'best F1' : 'lowest error cost'}${r.floors.minPrecision > 0 || r.floors.minRecall > 0 ? ` with precision ≥ ${formatNumber(r.floors.minPrecision, 2)}, recall ≥ ${formatNumber(r.floors.minRecall, 2)}` : ''}</p>`,
    r.floorsMet
      ? ''
      : '<p class="warn"><strong>No threshold meets the floors:</strong> the tuned row is the best one regardless.</p>',
    '</header><main><h2>Default and tuned</h2>',
    renderTable({
      id: 'tune-table',
      headers,
      rows: [
        row('default', r.default),
        row('tuned (all data: optimistic)', r.tuned),
        ...(cv === null
          ? []
          : [
              [
                `cross-validated (${cv.k} folds, mean)`,
                { text: '', value: null },
                num(cv.precision.mean),
                num(cv.recall.mean),
                num(cv.f1.mean),
                num(cv.accuracy.mean),
                ...(withCost ? [num(cv.errorCostPerCall?.mean ?? null)] : []),
                '',
                '',
                '',
                '',
              ] as Cell[],
            ]),
      ],
    }),
    cv === null ? `<p class="note">Cross-validation skipped: ${escapeHtml(r.crossValidationSkipped ?? '')}.</p>` : '',
    '<h2>Against the threshold</h2>',
    renderFigure({
      title: 'Precision, recall and F1 against the threshold',
      note: 'Dashed lines mark the default (0.5) and tuned thresholds. The table has every point of the curve.',
      legend: series.map((s) => s.name),
      chart,
      table: renderTable({
        id: 'curve-table',
        sortable: true,
        headers: [
          'threshold#',
          'precision#',
          'recall#',
          'F1#',
          'accuracy#',
          ...(withCost ? ['error cost / call#'] : []),
        ],
        rows: curve.map((m) => row('', m).slice(1, withCost ? 7 : 6)),
        scroll: true,
      }),
      pair: true,
    }),
    renderRankingSection(t.ranking ? [{ name: t.model, ranking: t.ranking }] : []),
    '</main>',
  ];
  return renderPage({ title, body: body.join('\n') });
}

/** `actions --html`: per model, the gold→predicted action matrix with each cell's unit cost. */
export function renderActionsHtml(r: ActionsReport): string {
  const title = `Composed actions: ${r.comparison.models.length} model${r.comparison.models.length === 1 ? '' : 's'}`;
  const out: string[] = [
    `<header><h1>${escapeHtml(title)}</h1><p class="meta">dataset <code>${escapeHtml(r.datasetPath)}</code> · spec <code>${escapeHtml(r.specPath)}</code> · actions ${escapeHtml(r.spec.actions.join(', '))}; inaction ${escapeHtml(r.spec.inaction ?? 'n/a')} · ${formatCount(r.items.items.length)} items</p></header><main>`,
    '<h2>Models</h2>',
    renderTable({
      id: 'actions-table',
      sortable: true,
      headers: [
        'model',
        'field accuracy#',
        'action accuracy#',
        'cost per item#',
        'total cost#',
        'false inaction#',
        'items#',
        'incomplete#',
        'unanswered#',
      ],
      rows: r.comparison.models.map((m): Cell[] => {
        const e = m.evaluation;
        return [
          m.model,
          num(e.fieldAccuracy),
          num(e.actionAccuracy),
          num(e.meanCostPerItem),
          num(e.totalCost),
          num(e.falseInactionRate, formatPercent(e.falseInactionRate)),
          num(e.items, formatCount(e.items)),
          num(e.incompleteItems, formatCount(e.incompleteItems)),
          num(e.unansweredItems, formatCount(e.unansweredItems)),
        ];
      }),
    }),
    '<h2>Gold → predicted actions</h2><p class="note">Rows are the action the gold answers lead to, columns the one the model’s answers lead to; the outlined diagonal is agreement, each wrong cell shows its unit cost from the spec.</p>',
  ];
  for (const m of r.comparison.models) {
    const e = m.evaluation;
    const labels = [...new Set([...Object.keys(e.agreements), ...e.confusions.flatMap((c) => [c.gold, c.pred])])];
    const counts = labels.map((g, i) =>
      labels.map((p, j) =>
        i === j ? (e.agreements[g] ?? 0) : (e.confusions.find((c) => c.gold === g && c.pred === p)?.count ?? 0),
      ),
    );
    out.push(
      `<figure class="confusion" data-key="${escapeHtml(m.model)}"><figcaption>${escapeHtml(m.model)} <span class="muted">total cost ${formatNumber(e.totalCost)} over ${formatCount(e.items)} items</span></figcaption>` +
        renderHeatTable({
          id: `actions-${slug(m.model)}`,
          labels,
          counts,
          rowTitle: 'gold',
          columnTitle: 'predicted',
          cellNote: (i, j) => (i === j ? null : `cost ${formatNumber(actionCost(r.spec, labels[i]!, labels[j]!), 2)}`),
        }) +
        '</figure>',
    );
  }
  out.push('</main>');
  return renderPage({ title, body: out.join('\n') });
}
