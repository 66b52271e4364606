import { appliedCalibrationOf, listingsOf, type ReportedRun } from '../../core/bench/run.js';
import { recalibratedText } from '../../core/calibration-map.js';
import type { RunListings } from '../../core/bench/run-listings.js';
import type { MetricGroup } from '../../core/bench/summary.js';
import {
  benchNullReasons,
  CONFIDENT_THRESHOLD,
  costPerCorrectNullReason,
  latencyNullReason,
} from '../../core/bench/summary.js';
import { QUESTION_TYPES } from '../../core/question.js';
import { rate } from '../../core/bench/rating.js';
import type { HeadlineMetric, RunStatistics } from '../../core/bench/run-statistics.js';
import {
  describeEceNoise,
  describeIntervals,
  describeRunConventions,
  formatInterval,
  intervalOf,
} from './bench-statistics.js';
import {
  describeErrorKinds,
  describeFilters,
  describeServer,
  describeReferencePoints,
  describeRunName,
  describeSettings,
  describeStatus,
  FILTERED_NOTE,
  SYNTHETIC_NOTE,
} from './bench-describe.js';
import {
  createPalette,
  formatCount,
  formatDuration,
  formatLatencyMs,
  formatNumber,
  formatPercent,
  formatRatio,
  formatSigned,
  formatUsd,
  NOT_AVAILABLE,
  type Palette,
  renderBar,
  renderStars,
  singleLine,
  truncate,
} from '../format.js';
import { renderFittedTable, renderLabelledRows, wrapIndented, wrapStyled } from '../text-fit.js';
import { replicaLatencyText, replicasOf, setAsideTexts } from './replica-latency.js';

export interface BenchTerminalOptions {
  /** ANSI colour; pass `colourEnabled(sink, env)`. */
  readonly colour: boolean;
  /** Terminal columns; default 100 (files and pipes). Narrow terminals lose the bars and get shorter names. */
  readonly width?: number;
  /** Show the server host as `<redacted>`. Default false. */
  readonly redactHost?: boolean;
  /** Intervals, ECE noise floor and conventions; absent: the numbers alone. */
  readonly statistics?: RunStatistics | null;
}

/** Below this width the ten-cell bars are left out of the tables. */
const BAR_MIN_WIDTH = 64;
/** Failed cases named in the summary before the count of the rest. */
/** Distinct causes of failure shown in the terminal summary (the Markdown report lists every failed case). */
export const TERMINAL_FAILURE_CAUSES = 5;

/**
 * The summary `bench` prints when a run ends: breakdowns by type and workflow, the
 * reliability table, headline lines, rating, requests, latency, tokens, duration and the
 * dataset attribution. Every number comes from `run.summary` or the run's own cases.
 */
export function renderBenchTerminal(run: ReportedRun, options: BenchTerminalOptions): string {
  // Output to a file or pipe has no width: 100 columns keep the workflow names whole.
  const width = options.width ?? 100;
  // Only a terminal's lines are wrapped to its width: a file or pipe keeps each line whole.
  const fit = options.width ?? Infinity;
  const p = createPalette(options.colour);
  const s = run.summary;
  const out: string[] = [];
  const listings = listingsOf(run);

  out.push(...headerLines(run, listings, options.redactHost === true, p).flatMap((l) => wrapStyled(l, fit)));
  out.push(...breakdownLines(s, width, fit, p));
  out.push(...reliabilityLines(s, fit, p));
  out.push(...headlineLines(run, listings, options.statistics ?? null, fit, p, options.redactHost === true));
  out.push(...footerLines(run, options.statistics ?? null, width, fit, p));
  return `${out.join('\n')}\n`;
}

/** The run's name, the server and settings, and the synthetic and filtered warnings. */
function headerLines(run: ReportedRun, listings: RunListings, redactHost: boolean, p: Palette): string[] {
  const out: string[] = [];
  out.push(p.bold(`Decision benchmark: ${singleLine(describeRunName(run, listings.answeredModels))}`));
  out.push(
    `Answered by ${singleLine(describeServer(run.config, redactHost, undefined, listings.answeredModels))} · ${describeSettings(run.config)}`,
  );
  if (run.config.dataset.synthetic) out.push(p.yellow(SYNTHETIC_NOTE));
  const filters = describeFilters(run.config);
  if (filters !== null) out.push(p.yellow(`filtered run (${singleLine(filters)}): ${FILTERED_NOTE}`));
  const recalibrated = appliedCalibrationOf(run);
  if (recalibrated !== null) out.push(p.yellow(singleLine(`Every number ${recalibratedText(recalibrated)}`)));
  out.push('');
  return out;
}

/** Accuracy by question type and by workflow, with bars when the terminal is wide enough. */
function breakdownLines(s: ReportedRun['summary'], width: number, fit: number, p: Palette): string[] {
  const out: string[] = [];
  const bars = width >= BAR_MIN_WIDTH;
  out.push(p.bold('By question type'));
  out.push(
    ...metricTable(
      QUESTION_TYPES.flatMap((t) => (s.byType[t] ? [[t, s.byType[t]] as const] : [])),
      'type',
      bars,
      width,
      fit,
      p,
    ),
  );
  out.push('');
  out.push(p.bold('By workflow'));
  out.push(...metricTable(Object.entries(s.byWorkflow), 'workflow', bars, width, fit, p));
  out.push('');
  return out;
}

/** The reliability table, when something was answered. */
function reliabilityLines(s: ReportedRun['summary'], width: number, p: Palette): string[] {
  const nothingAnswered = s.rating.stars === 0;
  const out: string[] = [];
  if (!nothingAnswered) {
    out.push(p.bold('Reliability'));
    out.push(
      ...renderFittedTable(
        ['confidence', 'n', 'mean conf', 'accuracy', 'gap'],
        s.reliability.map((b) => [
          `${formatNumber(b.lower, 1)}–${formatNumber(b.upper, 1)}`,
          formatCount(b.n),
          formatNumber(b.meanConfidence),
          formatNumber(b.accuracy),
          b.gap < 0 ? p.red(formatSigned(b.gap)) : formatSigned(b.gap),
        ]),
        width,
        { indent: '  ', styleHeader: p.dim },
      ),
    );
    out.push(...wrapIndented(p.dim('gap = accuracy - mean confidence; negative means over-confident'), width, '  '));
    out.push('');
  }
  return out;
}

/** The headline numbers with their intervals, the rating, requests and causes of failure, latency, tokens, cost and duration. */
function headlineLines(
  run: ReportedRun,
  listings: RunListings,
  st: RunStatistics | null,
  width: number,
  p: Palette,
  redactHost: boolean,
): string[] {
  const s = run.summary;
  const nothingAnswered = s.rating.stars === 0;
  const out: string[] = [];
  const rows: Array<readonly [string, string]> = [];
  const errorsNote = s.errors > 0 ? `; ${formatCount(s.errors)} errors count as misses` : '';
  const ci = (metric: HeadlineMetric) => {
    const text = formatInterval(metric, intervalOf(st, metric));
    return text === '' ? '' : `  ${p.dim(text)}`;
  };
  rows.push([
    'Accuracy',
    `${p.bold(paintByRating(formatPercent(s.accuracy), s.rating.stars, p))}${ci('accuracy')}  (${formatRatio(s.correct, s.total)} decisions${errorsNote})`,
  ]);
  const absent = benchNullReasons(s);
  const why = (reason: string | undefined): string => (reason === undefined ? '' : p.dim(`  (${reason})`));
  rows.push(['KL from gold', `${formatNumber(s.kl)}${ci('kl')}${why(absent.kl)}`]);
  rows.push(['Brier', `${formatNumber(s.brier)}${ci('brier')}${why(absent.brier)}`]);
  rows.push(['Log loss', `${formatNumber(s.logLoss)}${ci('logLoss')}${why(absent.logLoss)}`]);
  const noise = describeEceNoise(st);
  rows.push([
    'ECE',
    `${formatNumber(s.ece)}${ci('ece')}${s.ece === null ? why(absent.ece) : p.dim(`  ${noise === null ? '' : `${noise}; `}not comparable with the card's ECE column`)}`,
  ]);
  rows.push(['Mean confidence', `${formatPercent(s.meanConfidence)}${why(absent.meanConfidence)}`]);
  rows.push([
    'Confident disagreements',
    `${s.confidentDisagreements > 0 ? p.red(formatCount(s.confidentDisagreements)) : formatCount(s.confidentDisagreements)}  (wrong at ≥ ${formatPercent(CONFIDENT_THRESHOLD, 0)} confidence)`,
  ]);
  rows.push([
    'Rating',
    nothingAnswered
      ? p.red(s.rating.label)
      : `${p.yellow(renderStars(s.rating.stars))} ${s.rating.label}${run.config.dataset.synthetic ? p.dim(" (the card's reference points; only indicative on the synthetic sample)") : ''}`,
  ]);
  const kinds = describeErrorKinds(s.errorKinds);
  rows.push([
    'Requests',
    `${formatCount(s.requests.total)} sent, ${formatCount(s.requests.answered)} answered, ${s.requests.failed > 0 ? p.red(`${formatCount(s.requests.failed)} failed`) : '0 failed'}${kinds === null ? '' : ` (${kinds})`} · status ${describeStatus(run)}`,
  ]);
  // Each cause of failure once, in full: the message is what tells the user what to fix.
  const causes = listings.failureCauses;
  for (const c of causes.slice(0, TERMINAL_FAILURE_CAUSES)) {
    const text = `${c.kind} ×${formatCount(c.count)} (first ${singleLine(c.firstCaseId)}): ${singleLine(c.message)}`;
    rows.push(['', p.dim(text)]);
  }
  if (causes.length > TERMINAL_FAILURE_CAUSES)
    rows.push(['', p.dim(`and ${formatCount(causes.length - TERMINAL_FAILURE_CAUSES)} more causes of failure`)]);
  rows.push([
    'Latency',
    s.latencyMs.n === 0
      ? `${NOT_AVAILABLE}${why(latencyNullReason(s.latencyMs) ?? undefined)}`
      : `p50 ${formatLatencyMs(s.latencyMs.p50)} · p95 ${formatLatencyMs(s.latencyMs.p95)} · mean ${formatLatencyMs(s.latencyMs.mean)}  (${formatCount(s.latencyMs.n)} answered requests)`,
  ]);
  for (const [replica, r] of replicasOf(s, run.config.replicas, redactHost))
    rows.push(['', `${singleLine(replica)}: ${replicaLatencyText(r)}`]);
  for (const text of setAsideTexts(run, redactHost)) rows.push(['', p.yellow(singleLine(text))]);
  if (s.inputTokens !== null) rows.push(['Input tokens', formatCount(s.inputTokens)]);
  if (s.cost !== null) {
    rows.push([
      'Cost',
      `${formatUsd(s.cost.totalUsd)} at ${formatUsd(s.cost.pricePerMtokUsd)}/M input tokens · ${formatUsd(s.cost.perCorrectUsd)} per correct decision${why(costPerCorrectNullReason(s.cost) ?? undefined)}`,
    ]);
  }
  rows.push(['Duration', formatDuration(run.durationMs)]);
  out.push(...renderLabelledRows(rows, width));
  out.push('');
  return out;
}

/** What accuracy measures, the intervals' conventions, and the dataset's attribution. */
function footerLines(run: ReportedRun, st: RunStatistics | null, width: number, fit: number, p: Palette): string[] {
  const out: string[] = [];
  const d = run.config.dataset;
  const dim = (text: string, w = fit) => wrapStyled(text, w).map((l) => p.dim(l));
  out.push(
    ...dim(`Accuracy measures agreement with the dataset's teacher, not correctness (${describeReferencePoints()}).`),
  );
  if (st !== null) {
    out.push(...dim(describeIntervals(st), Math.max(40, Math.min(width, fit))));
    out.push(...dim(describeRunConventions(st), Math.max(40, Math.min(width, fit))));
  }
  const dataset = `Data: ${singleLine(d.id)} (${singleLine(d.split)} split, revision ${singleLine(d.revision ?? NOT_AVAILABLE)}, license ${singleLine(d.license)})`;
  out.push(...wrapStyled(dataset, fit));
  out.push(...dim(singleLine(d.attribution)));
  return out;
}

function paintByRating(text: string, stars: number, p: Palette): string {
  if (stars === 3) return p.green(text);
  if (stars === 2) return p.yellow(text);
  return p.red(text);
}

function metricTable(
  groups: ReadonlyArray<readonly [string, MetricGroup]>,
  name: string,
  bars: boolean,
  width: number,
  fit: number,
  p: Palette,
): string[] {
  if (groups.length === 0) return [p.dim('  no decisions')];
  const nameWidth = Math.max(8, width - (bars ? 58 : 46));
  const header = [name, 'correct/total', 'accuracy', ...(bars ? [''] : []), 'KL', 'Brier'];
  const rows = groups.map(([key, g]) => {
    const stars = rate(g.accuracy, g.answered).stars;
    return [
      truncate(singleLine(key), nameWidth),
      formatRatio(g.correct, g.total),
      paintByRating(formatPercent(g.accuracy), stars, p),
      ...(bars ? [paintByRating(renderBar(g.accuracy), stars, p)] : []),
      formatNumber(g.kl),
      formatNumber(g.brier),
    ];
  });
  const align = header.map((_, i) => (i === 0 || (bars && i === 3) ? 'left' : 'right') as 'left' | 'right');
  return renderFittedTable(header, rows, fit, { indent: '  ', align, styleHeader: p.dim });
}
