/**
 * The HTML comparison of two or more benchmark runs: the headline table, reliability
 * diagrams, accuracy by question and latency histograms overlaid per run, and scatter
 * plots of accuracy against p50 latency and against cost per correct decision with the
 * Pareto front drawn. Numbers come from each run's summary; the front from `paretoFront`.
 */
import { listingsOf, type ReportedRun } from '../../core/bench/run.js';
import type { RunListings } from '../../core/bench/run-listings.js';
import { histogramOf } from '../../core/histogram.js';
import { paretoFront } from '../../core/pareto.js';
import { describeFilters, describeRunName, describeServer } from '../bench/bench-describe.js';
import { formatCount, formatLatencyMs, formatNumber, formatPercent, formatSigned, formatUsd } from '../format.js';
import { escapeHtml } from '../html/html-escape.js';
import {
  renderFigure,
  renderPage,
  renderTable,
  type Cell,
  numberCell,
  renderReliabilityTable,
} from '../html/html-page.js';
import {
  renderBarChart,
  renderHistogramChart,
  renderReliabilityChart,
  renderScatterChart,
} from '../html/svg-charts.js';
import type { LeaderboardRow } from '../../core/bench/leaderboard.js';
import { HEADLINE_METRICS, type HeadlineMetric } from '../../core/bench/run-statistics.js';
import { isSameWork, workDifferences } from '../../core/bench/run-work.js';
import { describeConventions, type Conventions } from '../../core/stats/conventions.js';
import { formatInterval, formatMetric } from '../bench/bench-statistics.js';
import type { RunComparison } from '../../core/bench/run-diff.js';
import { describeHeadlineBase, describePairedReading, describePValue } from './runs-diff.js';
import { INTERVALS_OFF, PRICE_FLAG } from '../../core/command-hints.js';
import { renderChangedSection, renderQuestionDeltasSection } from './runs-compare-changes-html.js';

export interface RunsCompareHtmlOptions {
  readonly redactHost?: boolean;
  /** The runs ranked by accuracy with intervals and ties (what `runs compare A B C` prints). */
  readonly leaderboard?: { readonly rows: readonly LeaderboardRow[]; readonly conventions: Conventions };
  /** Two runs: the second against the first, paired (what `runs compare A B` prints). */
  readonly paired?: RunComparison;
  /** HTML put before the page's header (`decidekit view`'s links to its other pages). */
  readonly nav?: string;
  /**
   * Sections put at the end of the page. Default: with `paired`, the per-question deltas and
   * the decisions whose correctness changed (`decidekit view` puts its paged, filtered lists).
   */
  readonly moreSections?: readonly string[];
}

const num = numberCell;

/** Names that tell runs apart: the run's label or model, with its id when two runs share a name. */
export function runNames(runs: readonly ReportedRun[], listings: readonly RunListings[]): string[] {
  const names = runs.map((r, i) => describeRunName(r, listings[i]!.answeredModels));
  return names.map((n, i) => (names.filter((m) => m === n).length > 1 ? `${n} · ${runs[i]!.id}` : n));
}

export function renderRunsCompareHtml(runs: readonly ReportedRun[], options: RunsCompareHtmlOptions = {}): string {
  // One pass over each run's cases (read from the store for a stored run) for everything below.
  const listings = runs.map(listingsOf);
  const names = runNames(runs, listings);
  const out: string[] = options.nav === undefined ? [] : [options.nav];
  out.push(...headerSection(runs, names, options));
  out.push(...headlineSections(runs, names, options));
  out.push(...calibrationSection(runs, names));
  out.push(...byQuestionSection(runs, names));
  out.push(...latencySection(runs, names, listings));
  out.push(...tradeOffSections(runs, names));
  out.push(...(options.moreSections ?? itemByItemSections(options.paired)));
  out.push('</main>');
  return renderPage({ title: `Comparison of ${runs.length} benchmark runs`, body: out.join('\n') });
}

/** What the terminal prints after the headline of two runs: per-question deltas and the changed decisions. */
function itemByItemSections(paired: RunComparison | undefined): string[] {
  return paired === undefined ? [] : [...renderQuestionDeltasSection(paired), ...renderChangedSection(paired)];
}

/** The title, each run's provenance, and the different-work and filtered warnings. */
function headerSection(
  runs: readonly ReportedRun[],
  names: readonly string[],
  options: RunsCompareHtmlOptions,
): string[] {
  const out: string[] = [];
  out.push(`<header><h1>Comparison of ${runs.length} benchmark runs</h1>`);
  out.push(
    `<p class="meta">${runs.map((r, i) => `<span class="swatch s${i % 6}" aria-hidden="true">■</span> ${escapeHtml(names[i]!)}: run <code>${escapeHtml(r.id)}</code>, ${escapeHtml(r.createdAt)}, ${escapeHtml(describeServer(r.config, options.redactHost === true))}, ${escapeHtml(r.config.dataset.id)}`).join('<br>')}</p>`,
  );
  if (!runs.every((r) => isSameWork(runs[0]!.config, r.config))) {
    const [first, ...rest] = names;
    const reasons = runs.slice(1).flatMap((r, i) =>
      workDifferences(runs[0]!.config, r.config, {
        was: first!,
        now: rest[i]!,
        onlyInWas: `only in ${first!}`,
        onlyInNow: `only in ${rest[i]!}`,
      }),
    );
    out.push(
      `<p class="warn"><strong>Different work:</strong> these runs differ (${escapeHtml(reasons.join('; '))}); compare with care.</p>`,
    );
  }
  const filtered = runs.flatMap((r, i) => (describeFilters(r.config) === null ? [] : [names[i]!]));
  if (filtered.length > 0)
    out.push(`<p class="warn"><strong>Filtered runs:</strong> ${escapeHtml(filtered.join(', '))}.</p>`);
  out.push('</header><main>');
  return out;
}

/** The paired comparison or the leaderboard when given, then each run's headline numbers. */
function headlineSections(
  runs: readonly ReportedRun[],
  names: readonly string[],
  options: RunsCompareHtmlOptions,
): string[] {
  const out: string[] = [];
  if (options.paired !== undefined) out.push(renderPairedSection(names, options.paired));
  if (options.leaderboard !== undefined) out.push(renderLeaderboardSection(runs, names, options.leaderboard));
  out.push('<h2 id="headline">Headline</h2>');
  out.push(
    renderTable({
      id: 'runs-table',
      sortable: true,
      headers: [
        'run',
        'id',
        'decisions#',
        'accuracy#',
        'KL#',
        'Brier#',
        'ECE#',
        'p50 (ms)#',
        'p95 (ms)#',
        'cost per correct#',
        'errors#',
      ],
      rows: runs.map((r, i): Cell[] => {
        const s = r.summary;
        return [
          names[i]!,
          r.id,
          num(s.total, formatCount(s.total)),
          num(s.accuracy, formatPercent(s.accuracy)),
          num(s.kl),
          num(s.brier),
          num(s.ece),
          num(s.latencyMs.p50, formatLatencyMs(s.latencyMs.p50)),
          num(s.latencyMs.p95, formatLatencyMs(s.latencyMs.p95)),
          num(s.cost?.perCorrectUsd ?? null, formatUsd(s.cost?.perCorrectUsd ?? null)),
          num(s.errors, formatCount(s.errors)),
        ];
      }),
    }),
  );
  return out;
}

/** The runs' reliability diagrams overlaid. */
function calibrationSection(runs: readonly ReportedRun[], names: readonly string[]): string[] {
  const out: string[] = [];
  out.push('<h2 id="calibration">Calibration</h2>');
  out.push(
    renderFigure({
      title: 'Reliability diagrams',
      note: 'One line per run; the dashed diagonal is perfect calibration. Bars beneath: decisions per confidence bin, per run.',
      legend: names,
      chart: renderReliabilityChart(
        {
          id: 'reliability',
          title: 'Reliability diagrams',
          desc: `Accuracy against mean confidence per confidence bin for ${runs.length} runs, with the diagonal and the decisions per bin beneath.`,
        },
        runs.map((r, i) => ({ name: names[i]!, bins: r.summary.reliability })),
      ),
      table: renderReliabilityTable(
        'run',
        runs.map((r, i) => ({ name: names[i]!, bins: r.summary.reliability })),
      ),
    }),
  );
  return out;
}

/** Accuracy by question, one bar per run. */
function byQuestionSection(runs: readonly ReportedRun[], names: readonly string[]): string[] {
  const out: string[] = [];
  out.push('<h2 id="by-question">Accuracy by question</h2>');
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r.summary.byQuestion)))].sort();
  if (keys.length === 0) out.push('<p>No decisions.</p>');
  else
    out.push(
      renderFigure({
        title: 'Accuracy by question',
        legend: names,
        chart: renderBarChart(
          {
            id: 'by-question-chart',
            title: 'Accuracy by question',
            desc: `Accuracy per question, one bar per run, for ${keys.length} questions.`,
          },
          keys.map((k) => ({ label: k, values: runs.map((r) => r.summary.byQuestion[k]?.accuracy ?? null) })),
          { seriesNames: names, valueLabel: 'accuracy' },
        ),
        table: renderTable({
          id: 'by-question-table',
          sortable: true,
          headers: ['workflow/question', ...names.map((n) => `${n}#`)],
          rows: keys.map((k): Cell[] => [
            k,
            ...runs.map((r) =>
              num(r.summary.byQuestion[k]?.accuracy ?? null, formatPercent(r.summary.byQuestion[k]?.accuracy ?? null)),
            ),
          ]),
          scroll: keys.length > 20,
        }),
      }),
    );
  return out;
}

/** The runs' latency histograms overlaid on shared bins. */
function latencySection(
  runs: readonly ReportedRun[],
  names: readonly string[],
  listings: readonly RunListings[],
): string[] {
  const out: string[] = [];
  out.push('<h2 id="latency">Latency</h2>');
  const latencies = listings.map((d) => d.latenciesMs);
  if (latencies.every((l) => l.length === 0)) out.push('<p>No answered requests.</p>');
  else {
    // A loop, not Math.min(...all): a spread of every latency of a big run overflows the stack.
    const range = { min: Infinity, max: -Infinity };
    for (const values of latencies)
      for (const v of values) {
        if (v < range.min) range.min = v;
        if (v > range.max) range.max = v;
      }
    const shared = histogramOf([], { range });
    const perRun = latencies.map((values) => histogramOf(values, { range }).map((b) => b.n));
    const fmt = (v: number) => formatNumber(v, v >= 100 || Number.isInteger(v) ? 0 : 1);
    out.push(
      renderFigure({
        title: 'Latency per answered request',
        note: 'Bars per run on shared bins; dashed lines mark each run’s p50.',
        legend: names,
        chart: renderHistogramChart(
          {
            id: 'latency',
            title: 'Latency per answered request',
            desc: `Latency histograms of ${runs.length} runs on ${shared.length} shared bins, with each run's p50.`,
          },
          shared,
          runs.map((_run, i) => ({ name: names[i]!, counts: perRun[i]! })),
          {
            xLabel: 'latency (ms)',
            format: fmt,
            formatMarker: formatLatencyMs,
            markers: runs.flatMap((r, i) =>
              r.summary.latencyMs.p50 === null ? [] : [{ label: `p50`, value: r.summary.latencyMs.p50, series: i }],
            ),
          },
        ),
        table: renderTable({
          id: 'latency-table',
          headers: ['latency (ms)', ...names.map((n) => `${n}#`)],
          rows: shared.map((b, j): Cell[] => [
            `${formatNumber(b.lower, 1)}–${formatNumber(b.upper, 1)}`,
            ...perRun.map((counts) => num(counts[j]!, formatCount(counts[j]!))),
          ]),
          scroll: true,
        }),
        pair: true,
      }),
    );
  }
  return out;
}

/** Accuracy against latency and against cost, with the Pareto front. */
function tradeOffSections(runs: readonly ReportedRun[], names: readonly string[]): string[] {
  const out: string[] = [];
  out.push('<h2 id="trade-offs">Accuracy against latency and cost</h2>');
  out.push(
    tradeOff(runs, names, {
      id: 'latency-scatter',
      title: 'Accuracy against p50 latency',
      xOf: (r) => r.summary.latencyMs.p50,
      xLabel: 'p50 latency (ms)',
      formatX: (v) => formatNumber(v, 0),
      none: 'No run has both an accuracy and a latency.',
    }),
  );
  out.push(
    tradeOff(runs, names, {
      id: 'cost-scatter',
      title: 'Accuracy against cost per correct decision',
      xOf: (r) => r.summary.cost?.perCorrectUsd ?? null,
      xLabel: 'cost per correct decision (USD)',
      formatX: formatUsd,
      none: `No run was priced (bench ${PRICE_FLAG}) with a correct decision.`,
      axis: costAxis,
    }),
  );
  return out;
}

/** How a chart's x axis shows the values: scaled by `scale`, named `label`, printed by `format`. */
interface AxisUnit {
  readonly scale: number;
  readonly label: string;
  readonly format: (v: number) => string;
}

/**
 * Costs per correct decision are fractions of a cent: the axis shows what 1,000 or a
 * million correct decisions cost when that reads as a few digits instead of a row of zeros,
 * with as many decimals as the spread of the values needs.
 */
function costAxis(values: readonly number[]): AxisUnit {
  const max = Math.max(...values.map(Math.abs));
  const [scale, label] =
    max >= 0.1
      ? [1, 'cost per correct decision (USD)']
      : max * 1_000 >= 0.1
        ? [1_000, 'cost of 1,000 correct decisions (USD)']
        : [1_000_000, 'cost of a million correct decisions (USD)'];
  const scaled = values.map((v) => v * scale);
  const span = (Math.max(...scaled) - Math.min(...scaled)) * 1.2 || max * scale * 0.2 || 1;
  const decimals = Math.min(6, Math.max(0, -Math.floor(Math.log10(span / 5))));
  return { scale, label, format: (v) => `$${formatNumber(v, decimals)}` };
}

function tradeOff(
  runs: readonly ReportedRun[],
  names: readonly string[],
  plot: {
    readonly id: string;
    readonly title: string;
    readonly xOf: (r: ReportedRun) => number | null;
    /** The table's column: the values as they are. */
    readonly xLabel: string;
    readonly formatX: (v: number) => string;
    readonly none: string;
    /** The chart's x axis; default the table's column. */
    readonly axis?: (values: readonly number[]) => AxisUnit;
  },
): string {
  const { id, title, xLabel, formatX } = plot;
  const shown = runs.flatMap((r, i) => {
    const x = plot.xOf(r);
    return x === null || r.summary.accuracy === null ? [] : [{ label: names[i]!, x, y: r.summary.accuracy }];
  });
  if (shown.length === 0) return `<h3>${escapeHtml(title)}</h3><p>${escapeHtml(plot.none)}</p>`;
  const front = paretoFront(shown);
  const axis = plot.axis?.(shown.map((p) => p.x)) ?? { scale: 1, label: xLabel, format: formatX };
  return renderFigure({
    title,
    note: 'Up and to the left is better; the dashed line joins the Pareto front (no other run is both more accurate and cheaper or faster).',
    chart: renderScatterChart(
      { id, title, desc: `${shown.length} runs: accuracy against ${axis.label}; ${front.length} on the Pareto front.` },
      shown.map((p) => ({ ...p, x: p.x * axis.scale })),
      front,
      { xLabel: axis.label, yLabel: 'accuracy', formatX: axis.format, formatY: (v) => formatPercent(v, 0) },
    ),
    table: renderTable({
      id: `${id}-table`,
      headers: ['run', `${xLabel}#`, 'accuracy#', 'Pareto front'],
      rows: shown.map((p, i): Cell[] => [
        p.label,
        num(p.x, formatX(p.x)),
        num(p.y, formatPercent(p.y)),
        front.includes(i) ? 'yes' : 'no',
      ]),
    }),
    pair: true,
  });
}

/** The leaderboard: rank, run, each headline metric with its 95% interval, and ties with the leader. */
function renderLeaderboardSection(
  runs: readonly ReportedRun[],
  names: readonly string[],
  board: NonNullable<RunsCompareHtmlOptions['leaderboard']>,
): string {
  const nameOf = new Map(runs.map((r, i) => [r.id, names[i]!]));
  const table = renderTable({
    id: 'leaderboard',
    sortable: true,
    headers: ['rank#', 'run', ...HEADLINE_METRICS.map((m) => `${METRIC_LABELS[m]}#`), ''],
    // Each interval beneath its value, on one line: a column of its own per interval made the
    // table wider than the page, and its intervals wrapped.
    rows: board.rows.map((r, i): Cell[] => [
      num(r.rank, String(r.rank)),
      nameOf.get(r.id) ?? r.id,
      ...HEADLINE_METRICS.map((m): Cell => {
        const interval = formatInterval(m, r.intervals?.[m] ?? null);
        return {
          text: `${escapeHtml(formatMetric(m, r.values[m]))}${interval === '' ? '' : `<br><span class="ci">${escapeHtml(interval)}</span>`}`,
          html: true,
          value: r.values[m],
        };
      }),
      i === 0 ? 'leader' : r.tiedWithLeader ? 'tied with the leader' : '',
    ]),
  });
  const reading =
    board.rows[0]?.intervals === null
      ? INTERVALS_OFF
      : `Ranked by accuracy. Beneath each value its 95% interval, from ${formatCount(board.conventions.bootstrapResamples)} bootstrap resamples of cases (seed ${board.conventions.seed}; the questions of a case share its state, so cases, not decisions, are resampled). A run is tied with the leader when their accuracy intervals overlap.`;
  return `<h2 id="leaderboard-title">Leaderboard</h2>${table}<p class="note">${escapeHtml(reading)} ${escapeHtml(`Conventions: ${describeConventions(board.conventions)}.`)}</p>`;
}

const METRIC_LABELS: Readonly<Record<HeadlineMetric, string>> = {
  accuracy: 'accuracy',
  kl: 'KL',
  brier: 'Brier',
  logLoss: 'log loss',
  ece: 'ECE',
};

/** B against A, paired: per metric both values, B - A, its 95% paired interval and the verdict; McNemar beneath. */
function renderPairedSection(names: readonly string[], c: RunComparison): string {
  const p = c.paired;
  const change = (m: HeadlineMetric, v: number | null) =>
    v === null ? 'n/a' : m === 'accuracy' ? `${formatSigned(v * 100, 1)} pp` : formatSigned(v);
  const table = renderTable({
    id: 'paired',
    headers: ['metric', `A: ${names[0]}#`, `B: ${names[1]}#`, 'B - A#', '95% paired interval', 'B against A'],
    rows: HEADLINE_METRICS.map((m): Cell[] => {
      const x = p?.metrics[m];
      const d = c.headline[m];
      return [
        METRIC_LABELS[m],
        num(d.a, formatMetric(m, d.a)),
        num(d.b, formatMetric(m, d.b)),
        num(d.delta, change(m, d.delta)),
        x?.interval ? `[${change(m, x.interval.low)}, ${change(m, x.interval.high)}]` : '',
        x?.verdict === null || x === undefined ? '' : x.verdict === 'within_noise' ? 'within noise' : x.verdict,
      ];
    }),
  });
  const mc = c.mcnemar;
  const base = describeHeadlineBase(c);
  const baseNote = base === null ? '' : `<p class="note" id="paired-base">${escapeHtml(base)}</p>`;
  return `<h2 id="paired-title">B against A, paired</h2>${table}${baseNote}<p class="note">${escapeHtml(
    `McNemar exact test on accuracy: ${formatCount(mc.onlyFirstCorrect)} decisions right only in A, ${formatCount(mc.onlySecondCorrect)} right only in B; ${describePValue(mc.pValue)}. ${describePairedReading(c)}`,
  )}</p>`;
}
