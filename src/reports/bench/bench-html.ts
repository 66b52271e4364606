/**
 * The HTML report of a benchmark run: headline cards, the reliability diagram, accuracy by
 * type, workflow and question (with each question's gold majority rate), confusion matrices
 * of choice and score questions, the latency histogram, the most confident disagreements
 * and the full trace with filters. Numbers come from `run.summary` and the core's
 * per-question details; every chart has a table with the same numbers.
 */
import {
  casesNotSent,
  appliedCalibrationOf,
  listingsOf,
  type BenchRun,
  type ReportedRun,
} from '../../core/bench/run.js';
import { recalibratedText } from '../../core/calibration-map.js';
import type { CaseResult } from '../../core/typed-decisions/case-result.js';
import type { MetricGroup } from '../../core/bench/summary.js';
import { benchNullReasons, CONFIDENT_THRESHOLD, costPerCorrectNullReason } from '../../core/bench/summary.js';
import type { MajorityRate } from '../../core/bench/question-detail.js';
import { histogramOf } from '../../core/histogram.js';
import { assertNever, QUESTION_TYPES } from '../../core/question.js';
import {
  describeErrorKinds,
  describeFilters,
  describeRunName,
  describeServer,
  describeSettings,
  describeStatus,
  FILTERED_NOTE,
  PRIOR_NOTE,
  TEACHER_NOTE,
} from './bench-describe.js';
import {
  formatCount,
  formatDuration,
  formatLatencyMs,
  formatNumber,
  formatPercent,
  formatRatio,
  formatSigned,
  formatUsd,
  renderStars,
} from '../format.js';
import { escapeHtml } from '../html/html-escape.js';
import {
  renderCards,
  renderFigure,
  renderHeatTable,
  renderPage,
  renderTable,
  slug,
  type Card,
  type Cell,
  breakableCell,
  numberCell,
} from '../html/html-page.js';
import { renderBarChart, renderHistogramChart, renderReliabilityChart } from '../html/svg-charts.js';
import type { HeadlineMetric, RunStatistics } from '../../core/bench/run-statistics.js';
import {
  describeEceNoise,
  describeIntervals,
  describeRunConventions,
  formatInterval,
  intervalOf,
} from './bench-statistics.js';
import { replicasOf, setAsideTexts } from './replica-latency.js';

export interface BenchHtmlOptions {
  /** Show the server host as `<redacted>`. Default false. */
  readonly redactHost?: boolean;
  /** Intervals, ECE noise floor and conventions; absent: the numbers alone. */
  readonly statistics?: RunStatistics | null;
}

/** What a page made around the report adds to it (`decidekit view`); not for the library. */
export interface BenchHtmlPageOptions extends BenchHtmlOptions {
  /** HTML put before the page's header (`decidekit view`'s links to its other pages). */
  readonly nav?: string;
  /**
   * The trace section's HTML, in place of the inline trace (`decidekit view` pages and
   * filters the trace on its side, so a large run's trace is never sent whole).
   */
  readonly traceHtml?: readonly string[];
  /** Another inline script for the page (see `PageOptions.script`). */
  readonly script?: string;
}

/** Rows of the "most confident disagreements" table. */
export const HTML_DISAGREEMENT_ROWS = 20;
/** Decisions in the page's trace table at most (whole cases, in run order). */
export const HTML_TRACE_DECISIONS = 20_000;

const num = numberCell;
const pctCell = (value: number | null): Cell => ({ text: formatPercent(value), value });

/** The headline cards of a run (shared with the comparison page). */
export function benchCards(run: Pick<BenchRun, 'summary'>, statistics: RunStatistics | null = null): Card[] {
  const s = run.summary;
  // An absent number's card says why; else the 95% interval leads its detail line when there is one.
  const reasons = benchNullReasons(s);
  const ci = (metric: HeadlineMetric, rest: string) => {
    const reason = reasons[metric];
    if (reason !== undefined) return `n/a: ${reason}`;
    const text = formatInterval(metric, intervalOf(statistics, metric));
    return text === '' ? rest : `95% ${text} · ${rest}`;
  };
  const noise = describeEceNoise(statistics);
  const cards: Card[] = [
    {
      key: 'accuracy',
      label: 'Accuracy',
      text: formatPercent(s.accuracy),
      value: s.accuracy,
      detail: ci('accuracy', `${formatRatio(s.correct, s.total)} decisions`),
    },
    { key: 'kl', label: 'KL from gold', text: formatNumber(s.kl), value: s.kl, detail: ci('kl', 'lower is better') },
    {
      key: 'brier',
      label: 'Brier',
      text: formatNumber(s.brier),
      value: s.brier,
      detail: ci('brier', '0 best, 2 worst'),
    },
    {
      key: 'logLoss',
      label: 'Log loss',
      text: formatNumber(s.logLoss),
      value: s.logLoss ?? null,
      detail: ci('logLoss', 'of the gold label'),
    },
    {
      key: 'ece',
      label: 'ECE',
      text: formatNumber(s.ece),
      value: s.ece,
      detail: ci('ece', noise ?? `${statistics?.conventions.eceBins ?? 10} confidence bins`),
    },
    {
      key: 'rating',
      label: 'Rating',
      text: s.rating.stars === 0 ? 'n/a' : renderStars(s.rating.stars),
      value: s.rating.stars,
      detail: s.rating.label,
    },
  ];
  if (s.cost !== null)
    cards.push({
      key: 'per_correct_usd',
      label: 'Cost per correct',
      text: formatUsd(s.cost.perCorrectUsd),
      value: s.cost.perCorrectUsd,
      detail: `${formatUsd(s.cost.totalUsd)} in all${s.cost.perCorrectUsd === null ? `; n/a: ${costPerCorrectNullReason(s.cost)}` : ''}`,
    });
  cards.push(
    {
      key: 'answered',
      label: 'Requests answered',
      text: formatRatio(s.requests.answered, s.requests.total),
      value: s.requests.answered,
      detail: s.errors > 0 ? `${formatCount(s.errors)} failed decisions count as misses` : `status ${s.status}`,
    },
    {
      key: 'confident_disagreements',
      label: 'Confident and wrong',
      text: formatCount(s.confidentDisagreements),
      value: s.confidentDisagreements,
      detail: `wrong at ≥ ${formatPercent(CONFIDENT_THRESHOLD, 0)} confidence`,
    },
    {
      key: 'p50',
      label: 'Latency p50',
      text: formatLatencyMs(s.latencyMs.p50),
      value: s.latencyMs.p50,
      detail: `p95 ${formatLatencyMs(s.latencyMs.p95)}`,
    },
  );
  return cards;
}

/** Groups worst first (lowest accuracy; absent accuracy last), then by key. */
export function worstFirst(
  groups: ReadonlyArray<readonly [string, MetricGroup]>,
): Array<readonly [string, MetricGroup]> {
  return [...groups].sort(([ka, a], [kb, b]) => {
    if (a.accuracy !== b.accuracy) return a.accuracy === null ? 1 : b.accuracy === null ? -1 : a.accuracy - b.accuracy;
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

function groupSection(
  id: string,
  title: string,
  name: string,
  groups: ReadonlyArray<readonly [string, MetricGroup]>,
  majority: Readonly<Record<string, MajorityRate>> | null,
): string {
  if (groups.length === 0) return `<h2 id="${id}">${escapeHtml(title)}</h2><p>No decisions.</p>`;
  const sorted = worstFirst(groups);
  const chart = renderBarChart(
    {
      id: `${id}-chart`,
      title,
      desc: `Accuracy per ${name}, worst first${majority === null ? '' : '; a dark tick marks the accuracy of always answering the most common gold label'}. The table below has the same numbers.`,
    },
    sorted.map(([key, g]) => ({ label: key, values: [g.accuracy], reference: majority?.[key]?.rate ?? null })),
    {
      seriesNames: ['accuracy'],
      valueLabel: 'accuracy (share of decisions that agree with gold)',
      referenceLabel: 'majority rate',
    },
  );
  const headers = [
    name,
    'correct#',
    'total#',
    'answered#',
    'accuracy#',
    ...(majority === null ? [] : ['majority label', 'majority rate#']),
    'KL#',
    'Brier#',
    'ECE#',
  ];
  const rows = sorted.map(([key, g]): Cell[] => {
    const m = majority?.[key];
    return [
      key,
      num(g.correct, formatCount(g.correct)),
      num(g.total, formatCount(g.total)),
      num(g.answered, formatCount(g.answered)),
      pctCell(g.accuracy),
      ...(majority === null ? [] : [m?.label ?? 'n/a', pctCell(m?.rate ?? null)]),
      num(g.kl),
      num(g.brier),
      num(g.ece),
    ];
  });
  return `<h2 id="${id}">${escapeHtml(title)}</h2>${renderFigure({
    title: `${title}, worst first`,
    ...(majority === null
      ? {}
      : {
          note: 'The majority rate is the accuracy of always answering the question’s most common gold label: read accuracy against it.',
        }),
    chart,
    table: renderTable({ id: `${id}-table`, sortable: true, headers, rows, scroll: rows.length > 20 }),
  })}`;
}

function dist(answers: readonly string[], probabilities: readonly number[]): string {
  return answers.map((a, i) => `${a} ${formatNumber(probabilities[i] ?? null, 2)}`).join(', ');
}

/** The whole report as one self-contained HTML document. */
export function renderBenchHtml(run: ReportedRun, options: BenchHtmlOptions = {}): string {
  return renderBenchHtmlPage(run, options);
}

/** `renderBenchHtml` with the trace table's rows gathered ahead (`HtmlTraceRows`): then no case is read. */
export function renderBenchHtmlPage(run: ReportedRun, options: BenchHtmlPageOptions, trace?: HtmlTraceRows): string {
  const listings = listingsOf(run);
  const name = describeRunName(run, listings.answeredModels);
  const statistics = options.statistics ?? null;
  const out = [
    ...(options.nav === undefined ? [] : [options.nav]),
    ...headerSection(run, listings, name, options.redactHost === true),
    ...summarySection(run, statistics),
    ...failuresSection(listings),
    ...calibrationSection(run.summary, name),
    ...breakdownSections(run.summary, listings),
    ...confusionSection(listings),
    ...latencySection(run.summary, listings, options.redactHost === true, run.config.replicas),
    ...setAsideTexts(run, options.redactHost === true).map((t) => `<p class="warn">${escapeHtml(t)}</p>`),
    ...disagreementsSection(run.summary, listings),
    ...(options.traceHtml ?? traceSection(run, trace)),
    '</main>',
  ];
  return renderPage({
    title: `Decision benchmark: ${name}`,
    body: out.join('\n'),
    ...(options.script === undefined ? {} : { script: options.script }),
  });
}

type RunListings = ReturnType<typeof listingsOf>;

/** The title, the run's provenance, and the synthetic and filtered warnings. */
function headerSection(run: ReportedRun, listings: RunListings, name: string, redactHost: boolean): string[] {
  const c = run.config;
  const d = c.dataset;
  const out: string[] = [];
  out.push(`<header><h1>Decision benchmark: ${escapeHtml(name)}</h1>`);
  out.push(
    `<p class="meta">Run <code>${escapeHtml(run.id)}</code> · ${escapeHtml(run.createdAt)} · decidekit ${escapeHtml(c.toolVersion)} · fingerprint <code>${escapeHtml(run.fingerprint)}</code><br>` +
      `Answered by ${escapeHtml(describeServer(c, redactHost, undefined, listings.answeredModels))} · ${escapeHtml(describeSettings(c))} · duration ${escapeHtml(formatDuration(run.durationMs))}<br>` +
      `Dataset ${d.url === null ? `<code>${escapeHtml(d.id)}</code>` : `<a href="${escapeHtml(d.url)}">${escapeHtml(d.id)}</a>`}, split <code>${escapeHtml(d.split)}</code>, revision ${d.revision === null ? 'n/a' : `<code>${escapeHtml(d.revision)}</code>`}, license ${escapeHtml(d.license)}. ${escapeHtml(d.attribution)}</p>`,
  );
  if (d.synthetic)
    out.push(
      `<p class="warn"><strong>Synthetic sample — not Typed Decisions scores.</strong> These cases were generated for demos and tests; do not compare these numbers with the dataset card.</p>`,
    );
  const filters = describeFilters(c);
  if (filters !== null)
    out.push(`<p class="warn"><strong>Filtered run</strong> (${escapeHtml(filters)}): ${FILTERED_NOTE}.</p>`);
  const recalibrated = appliedCalibrationOf(run);
  if (recalibrated !== null)
    out.push(`<p class="meta recalibrated">${escapeHtml(`Every number ${recalibratedText(recalibrated)}`)}</p>`);
  const unfinished = unfinishedBanner(run);
  if (unfinished !== null) out.push(unfinished);
  out.push('</header><main>');

  return out;
}

/** The banner of a run that did not finish every case: what is missing and what it does to the numbers. */
function unfinishedBanner(run: ReportedRun): string | null {
  const s = run.summary;
  if (s.status === 'complete') return null;
  const planned = run.config.caseIds.length;
  const notSent = casesNotSent(run);
  const facts = [
    ...(s.requests.failed > 0
      ? [`${formatCount(s.requests.failed)} of ${formatCount(s.requests.total)} requests failed`]
      : []),
    ...(notSent > 0 ? [`${formatCount(notSent)} of ${formatCount(planned)} cases were not sent`] : []),
  ];
  const title = s.status === 'interrupted' ? 'Interrupted run' : 'Incomplete run';
  const effects = [
    ...(s.requests.failed > 0
      ? [
          'every decision of a failed case counts as a miss (the cases and their errors are listed under Failed requests)',
        ]
      : []),
    ...(notSent > 0 ? ['the numbers cover the cases sent only'] : []),
  ];
  const effect = effects.join('; ');
  return `<p class="warn" data-run-status="${s.status}"><strong>${title}:</strong> ${facts.join('; ')}. ${effect.charAt(0).toUpperCase()}${effect.slice(1)}.</p>`;
}

/** Every failed case kept for the report with its error, then how many more there were. */
function failuresSection(listings: RunListings): string[] {
  if (listings.failedCount === 0) return [];
  const listed = listings.failedCases;
  const more = listings.failedCount - listed.length;
  const out = [
    '<h2 id="failures">Failed requests</h2>',
    `<p class="note">${formatCount(listings.failedCount)} failed ${listings.failedCount === 1 ? 'case' : 'cases'}, in run order; every decision of a failed case is an error and counts as a miss.</p>`,
    renderTable({
      id: 'failures-table',
      headers: ['case', 'kind', 'message'],
      rows: listed.map((f): Cell[] => [f.caseId, f.kind, f.message]),
      scroll: listed.length > 20,
    }),
  ];
  if (more > 0) {
    out.push(
      `<p class="note">And ${formatCount(more)} more failed ${more === 1 ? 'case' : 'cases'}. Every failure, by cause:</p>`,
      renderTable({
        id: 'failure-causes-table',
        headers: ['kind', 'message', 'cases#', 'first case'],
        rows: listings.failureCauses.map((c): Cell[] => [
          c.kind,
          c.message,
          num(c.count, formatCount(c.count)),
          c.firstCaseId,
        ]),
      }),
    );
  }
  return out;
}

/** The headline cards, the requests and what the numbers mean, the intervals' conventions. */
function summarySection(run: ReportedRun, st: RunStatistics | null): string[] {
  const s = run.summary;
  const out: string[] = [];
  out.push(renderCards(benchCards(run, st)));
  const kinds = describeErrorKinds(s.errorKinds);
  out.push(
    `<p class="note">Requests: ${formatCount(s.requests.total)} sent, ${formatCount(s.requests.answered)} answered, ${formatCount(s.requests.failed)} failed${kinds === null ? '' : ` (${escapeHtml(kinds)})`} · completion ${formatPercent(s.completionRate)} · status ${escapeHtml(describeStatus(run))} · input tokens ${formatCount(s.inputTokens)}. ` +
      `Gold is the mean of three teacher samples: accuracy is agreement with that teacher. Reference points: a prior scores ${PRIOR_NOTE}, teacher self-agreement ${TEACHER_NOTE}. ECE is top-label${st === null ? ' over ten equal bins' : ''} (not the card’s ECE).</p>`,
  );
  if (st !== null)
    out.push(`<p class="note">${escapeHtml(describeIntervals(st))} ${escapeHtml(describeRunConventions(st))}</p>`);

  return out;
}

/** The reliability diagram and its table. */
function calibrationSection(s: ReportedRun['summary'], name: string): string[] {
  const out: string[] = [];
  out.push('<h2 id="calibration">Calibration</h2>');
  if (s.reliability.length === 0) {
    out.push('<p>No answered decisions: nothing to calibrate.</p>');
  } else {
    const chart = renderReliabilityChart(
      {
        id: 'reliability',
        title: 'Reliability diagram',
        desc: `Accuracy against mean confidence in ${s.reliability.length} non-empty confidence bins, with the diagonal of perfect calibration and the decisions per bin beneath. ECE ${formatNumber(s.ece)}.`,
      },
      [{ name, bins: s.reliability }],
    );
    const table = renderTable({
      id: 'reliability-table',
      headers: ['confidence', 'n#', 'mean confidence#', 'accuracy#', 'gap#'],
      rows: s.reliability.map((b) => [
        `${formatNumber(b.lower, 1)}–${formatNumber(b.upper, 1)}`,
        num(b.n, formatCount(b.n)),
        num(b.meanConfidence),
        num(b.accuracy),
        { text: formatSigned(b.gap), value: b.gap, className: b.gap < 0 ? 'bad' : 'ok' },
      ]),
    });
    out.push(
      renderFigure({
        title: 'Reliability diagram',
        note: `Points below the dashed diagonal are over-confident (red gap). ECE ${formatNumber(s.ece)}, mean confidence ${formatPercent(s.meanConfidence)}. Gap = accuracy − mean confidence; empty bins are left out.`,
        chart,
        table,
        pair: true,
      }),
    );
  }

  return out;
}

/** Accuracy by question type, workflow and question (with each question's majority rate). */
function breakdownSections(s: ReportedRun['summary'], listings: RunListings): string[] {
  const out: string[] = [];
  const majority = listings.majority;
  out.push(
    groupSection(
      'by-type',
      'Accuracy by question type',
      'type',
      QUESTION_TYPES.flatMap((t) => (s.byType[t] ? [[t, s.byType[t]] as const] : [])),
      null,
    ),
  );
  out.push(groupSection('by-workflow', 'Accuracy by workflow', 'workflow', Object.entries(s.byWorkflow), null));
  out.push(
    groupSection('by-question', 'Accuracy by question', 'workflow/question', Object.entries(s.byQuestion), majority),
  );

  return out;
}

/** One confusion matrix per choice and score question. */
function confusionSection(listings: RunListings): string[] {
  const out: string[] = [];
  out.push('<h2 id="confusion">Confusion matrices</h2>');
  const matrices = listings.confusion;
  if (matrices.length === 0) out.push('<p>No answered choice or score decisions.</p>');
  else
    out.push(
      '<p class="note">Rows are gold labels, columns predicted answers (answered decisions only); shade is the share of the row, the outlined diagonal is agreement.</p>',
    );
  for (const m of matrices) {
    out.push(
      `<figure class="confusion" data-key="${escapeHtml(m.key)}"><figcaption>${escapeHtml(m.key)} (${m.type}) <span class="muted">${formatRatio(m.correct, m.answered)} on the diagonal</span></figcaption>` +
        renderHeatTable({
          id: `confusion-${slug(m.key)}`,
          labels: m.answers,
          counts: m.counts,
          rowTitle: 'gold',
          columnTitle: 'predicted',
        }) +
        '</figure>',
    );
  }

  return out;
}

/** The latency histogram with p50 and p95, and its table. */
function latencySection(
  s: ReportedRun['summary'],
  listings: RunListings,
  redactHost: boolean,
  replicaUrls: readonly string[] | undefined,
): string[] {
  const out: string[] = [];
  out.push('<h2 id="latency">Latency</h2>');
  const latencies = listings.latenciesMs;
  if (latencies.length === 0) {
    out.push('<p>No answered requests.</p>');
  } else {
    const bins = histogramOf(latencies);
    const markers = [
      ...(s.latencyMs.p50 === null ? [] : [{ label: 'p50', value: s.latencyMs.p50 }]),
      ...(s.latencyMs.p95 === null ? [] : [{ label: 'p95', value: s.latencyMs.p95 }]),
    ];
    const chart = renderHistogramChart(
      {
        id: 'latency',
        title: 'Latency per answered request',
        desc: `Histogram of ${formatCount(latencies.length)} request latencies in ${bins.length} bins; p50 ${formatLatencyMs(s.latencyMs.p50)}, p95 ${formatLatencyMs(s.latencyMs.p95)}.`,
      },
      bins,
      [{ name: 'requests', counts: bins.map((b) => b.n) }],
      {
        xLabel: 'latency (ms)',
        format: (v) => formatNumber(v, v >= 100 || Number.isInteger(v) ? 0 : 1),
        formatMarker: formatLatencyMs,
        markers,
      },
    );
    const table = renderTable({
      id: 'latency-table',
      headers: ['latency (ms)', 'requests#'],
      rows: [
        ...bins.map((b): Cell[] => [
          `${formatNumber(b.lower, 1)}–${formatNumber(b.upper, 1)}`,
          num(b.n, formatCount(b.n)),
        ]),
        ...(['p50', 'p95', 'mean'] as const).map((k): Cell[] => [
          { text: k, className: 'muted' },
          num(s.latencyMs[k], formatLatencyMs(s.latencyMs[k])),
        ]),
      ],
      scroll: true,
    });
    out.push(
      renderFigure({
        title: 'Latency per answered request',
        note: `n = ${formatCount(s.latencyMs.n)}; dashed lines mark p50 and p95.`,
        chart,
        table,
        pair: true,
      }),
    );
  }
  const replicas = replicasOf(s, replicaUrls, redactHost);
  if (replicas.length > 0)
    out.push(
      renderTable({
        id: 'replica-latency',
        headers: ['replica', 'requests#', 'failed#', 'p50#', 'p95#'],
        rows: replicas.map(([name, r]): Cell[] => [
          name,
          num(r.requests, formatCount(r.requests)),
          num(r.failed, formatCount(r.failed)),
          num(r.latencyMs.p50, formatLatencyMs(r.latencyMs.p50)),
          num(r.latencyMs.p95, formatLatencyMs(r.latencyMs.p95)),
        ]),
        scroll: true,
      }),
    );
  return out;
}

/** The most confident wrong answers. */
function disagreementsSection(s: ReportedRun['summary'], listings: RunListings): string[] {
  const out: string[] = [];
  out.push('<h2 id="disagreements">Most confident disagreements</h2>');
  const wrong = listings.disagreements;
  if (wrong.length === 0) {
    out.push(
      `<p>${s.answered === 0 ? 'No answered decisions.' : 'None: every answered decision agrees with gold.'}</p>`,
    );
  } else {
    out.push(
      renderTable({
        id: 'disagreements-table',
        sortable: true,
        headers: [
          'case',
          'question',
          'type',
          'predicted',
          'confidence#',
          'gold',
          'gold p(predicted)#',
          'KL#',
          'Brier#',
        ],
        rows: wrong.slice(0, HTML_DISAGREEMENT_ROWS).map(({ caseId, decision, outcome }): Cell[] => [
          // Long ids break at their separators, so the table fits the page's column.
          breakableCell(caseId),
          breakableCell(decision.questionId),
          decision.type,
          breakableCell(outcome.predicted),
          num(outcome.confidence),
          decision.gold.label,
          num(decision.gold.probabilities[decision.answers.indexOf(outcome.predicted)] ?? null),
          num(outcome.kl),
          num(outcome.brier),
        ]),
      }),
    );
    if (listings.disagreementCount > HTML_DISAGREEMENT_ROWS)
      out.push(
        `<p class="note">and ${formatCount(listings.disagreementCount - HTML_DISAGREEMENT_ROWS)} more (filter the trace below).</p>`,
      );
  }

  return out;
}

/** Every decision (up to HTML_TRACE_DECISIONS, whole cases) with filters. */
function traceSection(run: ReportedRun, trace: HtmlTraceRows | undefined): string[] {
  const s = run.summary;
  const out: string[] = [];
  out.push('<h2 id="trace-section">Trace</h2>');
  if (run.cases.length === 0) {
    out.push('<p>No cases were sent.</p>');
    return out;
  }
  const questions = Object.keys(s.byQuestion);
  const workflows = Object.keys(s.byWorkflow);
  out.push(
    `<div class="filters" id="trace-filters" hidden>` +
      `<label><input type="checkbox" id="f-wrong"> wrong only</label>` +
      `<label><input type="checkbox" id="f-confident"> confident and wrong (≥ ${formatPercent(CONFIDENT_THRESHOLD, 0)})</label>` +
      `<label>question <select id="f-question"><option value="">all</option>${questions.map((q) => `<option>${escapeHtml(q)}</option>`).join('')}</select></label>` +
      `<label>workflow <select id="f-workflow"><option value="">all</option>${workflows.map((w) => `<option>${escapeHtml(w)}</option>`).join('')}</select></label>` +
      `<span id="trace-count" class="muted" aria-live="polite"></span></div>`,
  );
  const { rows, attributes, casesShown } = trace ?? HtmlTraceRows.of(run.cases);
  out.push(
    casesShown < run.cases.length
      ? `<p class="note">The decisions of the first ${formatCount(casesShown)} of ${formatCount(run.cases.length)} cases (${formatCount(rows.length)} of ${formatCount(s.total)} decisions) with the predicted and gold distributions; every decision is in the run's JSON and Markdown reports and in <code>decidekit runs export</code>. Failed decisions (–) count as wrong. Click a header to sort.</p>`
      : `<p class="note">Every decision (${formatCount(s.total)} in ${formatCount(run.cases.length)} cases) with the predicted and gold distributions; failed decisions (–) count as wrong. Click a header to sort.</p>`,
  );
  out.push(
    renderTable({
      id: 'trace',
      sortable: true,
      headers: [
        'case',
        'question',
        '',
        'predicted',
        'gold',
        'confidence',
        'KL',
        'Brier',
        'predicted distribution',
        'gold distribution',
      ],
      rows,
      rowAttributes: attributes,
      scroll: true,
    }),
  );
  return out;
}

/**
 * The page's trace rows and their filter attributes, fed one case at a time in run order:
 * whole cases until HTML_TRACE_DECISIONS is reached, the cases after that are passed over.
 */
export class HtmlTraceRows {
  readonly rows: Cell[][] = [];
  readonly attributes: string[] = [];
  casesShown = 0;

  /** The rows of the cases given, read until the table is full. */
  static of(cases: ReportedRun['cases']): HtmlTraceRows {
    const trace = new HtmlTraceRows();
    for (const k of cases) {
      if (trace.full) break;
      trace.add(k);
    }
    return trace;
  }

  /** True once the table holds HTML_TRACE_DECISIONS or more: a page of every decision of a huge run would be too big for a browser to sort. */
  get full(): boolean {
    return this.rows.length >= HTML_TRACE_DECISIONS;
  }

  add(k: CaseResult): void {
    if (this.full) return;
    const { rows, attributes } = this;
    this.casesShown++;
    for (const dec of k.decisions) {
      const o = dec.outcome;
      const q = `${k.workflow}/${dec.questionId}`;
      const gold = dist(dec.answers, dec.gold.probabilities);
      switch (o.status) {
        case 'answered': {
          const confidentWrong = !o.correct && o.confidence >= CONFIDENT_THRESHOLD;
          attributes.push(
            ` data-q="${escapeHtml(q)}" data-ok="${o.correct ? 1 : 0}"${confidentWrong ? ' data-cw' : ''}`,
          );
          rows.push([
            k.caseId,
            dec.questionId,
            o.correct ? { text: '✓', className: 'ok' } : { text: '✗', className: 'bad' },
            o.predicted,
            dec.gold.label,
            formatNumber(o.confidence),
            formatNumber(o.kl),
            formatNumber(o.brier),
            dist(dec.answers, o.probabilities),
            gold,
          ]);
          break;
        }
        case 'failed':
          attributes.push(` data-q="${escapeHtml(q)}" data-ok="f"`);
          rows.push([
            k.caseId,
            dec.questionId,
            { text: '–', className: 'bad' },
            `error: ${o.failure.kind}`,
            dec.gold.label,
            'n/a',
            'n/a',
            'n/a',
            '',
            gold,
          ]);
          break;
        default:
          assertNever(o);
      }
    }
  }
}
