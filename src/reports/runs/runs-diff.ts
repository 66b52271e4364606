import { jsonDocumentText } from '../../core/safe-text.js';
import {
  changedCount,
  firstChanged,
  type ComparedRun,
  type DecisionView,
  type MetricDelta,
  type RunComparison,
  type SharedCases,
} from '../../core/bench/run-diff.js';
import {
  createPalette,
  formatCount,
  formatLatencyMs,
  formatNumber,
  formatPercent,
  formatSigned,
  NOT_AVAILABLE,
  type Palette,
  renderTextRows,
  singleLine,
  truncate,
} from '../format.js';
import { fitsOr, renderFittedTable, renderRecords, wrapIndented, wrapStyled } from '../text-fit.js';
import { describeCreatedAt } from './runs-list.js';
import type { PairedComparison, StatMetric, Verdict } from '../../core/stats/bootstrap.js';
import { conventionsJson, conventionsText, describeConventions } from '../../core/stats/conventions.js';
import { HEADLINE_METRICS, METRIC_JSON_NAMES } from '../../core/bench/run-statistics.js';
import { calibrationJson, nullReasonsJson } from '../json-shapes.js';
import { recalibratedText } from '../../core/calibration-map.js';
import { INTERVALS_OFF, JSON_FLAG, NO_CI_FLAG } from '../../core/command-hints.js';

export interface RunComparisonOptions {
  readonly colour: boolean;
  /** Changed decisions listed before the count of the rest. Default 20. */
  readonly maxChanged?: number;
  /** The terminal's columns: every line fits them. Default none (a file or pipe: tables whole). */
  readonly width?: number;
}

/** Prose (the paired reading, the headline's base) wraps here when there is no terminal. */
const PROSE_WIDTH = 98;

/** Whether a larger value of the metric is better; null for neutral metrics. */
type Direction = 'higher' | 'lower' | null;

function paintDelta(d: MetricDelta, text: string, direction: Direction, p: Palette): string {
  if (d.delta === null || d.delta === 0 || direction === null) return text;
  const better = direction === 'higher' ? d.delta > 0 : d.delta < 0;
  return better ? p.green(text) : p.red(text);
}

const pp = (d: number | null) => (d === null ? NOT_AVAILABLE : `${formatSigned(d * 100, 1)} pp`);

/** One side's cells (id, label, model, created, status, decisions), aligned with the other's. */
function describeSide(name: 'A' | 'B', side: ComparedRun): string[] {
  return [
    name,
    side.id,
    side.label === null ? '' : truncate(singleLine(side.label), 30),
    singleLine(side.model ?? 'server default model'),
    describeCreatedAt(side.createdAt),
    side.status,
    `${formatCount(side.decisions)} decisions`,
  ];
}

function describeView(v: DecisionView, p: Palette): string {
  if (v.error !== null) return p.red(`error (${v.error})`);
  const text = `${singleLine(v.predicted ?? '')} (${formatNumber(v.confidence, 2)})`;
  return v.correct ? p.green(`${text} ✓`) : p.red(`${text} ✗`);
}

/** `runs compare A B`: run B against run A, headline and per-question deltas, changed decisions. */
export function renderRunComparison(c: RunComparison, options: RunComparisonOptions): string {
  const p = createPalette(options.colour);
  const maxChanged = options.maxChanged ?? 20;
  const width = options.width ?? Infinity;
  const out: string[] = [];
  out.push(...sidesSection(c, p, width));
  out.push(...headlineSection(c, p, width));
  out.push(...byQuestionSection(c, p, width));
  out.push(...changedSection(c, p, maxChanged, width));
  return `${out.join('\n')}\n`;
}

/** The two runs side by side, and whether they measured the same work. */
function sidesSection(c: RunComparison, p: Palette, width: number): string[] {
  const out: string[] = [];
  out.push(p.bold(`Run comparison: B against A (deltas are B - A)`));
  const sides = [describeSide('A', c.a), describeSide('B', c.b)];
  // No label on either side: no empty column between id and model.
  const noLabel = c.a.label === null && c.b.label === null;
  const shown = noLabel ? sides.map((s) => s.filter((_, i) => i !== 2)) : sides;
  const names = ['run', 'id', 'label', 'model', 'created', 'status', 'decisions'].filter((_, i) => !noLabel || i !== 2);
  const rows = renderTextRows(shown, {
    indent: '  ',
    align: shown[0]!.map((_, i) => (i === shown[0]!.length - 1 ? 'right' : 'left')),
  });
  out.push(...fitsOr(rows, width, () => renderRecords(names, shown, width, { indent: '  ', styleHeader: p.dim })));
  const note = (text: string, paint: (s: string) => string) => out.push(...wrapIndented(text, width, '  ').map(paint));
  if (c.sameFingerprint)
    note(`same fingerprint ${c.a.fingerprint}: same dataset revision, cases, questions, model and endpoint`, p.dim);
  else if (c.sameWork)
    note('same dataset revision, cases and questions; the model or server differs (what is compared)', p.dim);
  else
    note(
      `warning: the runs measured different work (${c.workDifferences.join('; ')}), so the deltas are not like for like`,
      p.yellow,
    );
  for (const [name, side] of [['A', c.a] as const, ['B', c.b] as const])
    if (side.recalibratedWith !== undefined)
      note(`${name}: every number ${recalibratedText(side.recalibratedWith)}`, p.yellow);
  out.push('');
  return out;
}

/** The headline metrics of A and B, their paired intervals and verdicts, and McNemar's test. */
function headlineSection(c: RunComparison, p: Palette, width: number): string[] {
  const out: string[] = [];
  const h = c.headline;
  const metric = (
    name: string,
    d: MetricDelta,
    show: (v: number | null) => string,
    showDelta: (v: number | null) => string,
    direction: Direction,
  ) => [name, show(d.a), show(d.b), paintDelta(d, showDelta(d.delta), direction, p)];
  const num = (v: number | null) => formatNumber(v);
  const signed = (v: number | null) => formatSigned(v);
  const latencyDelta = (v: number | null) =>
    v === null ? NOT_AVAILABLE : `${v > 0 ? '+' : v < 0 ? '-' : '±'}${formatLatencyMs(Math.abs(v))}`;
  const paired = (
    name: string,
    m: StatMetric,
    d: MetricDelta,
    show: (v: number | null) => string,
    showDelta: (v: number | null) => string,
  ) => {
    const pm = c.paired?.metrics[m];
    const interval = pm?.interval ?? null;
    return [
      ...metric(name, d, show, showDelta, m === 'accuracy' ? 'higher' : 'lower'),
      interval === null ? '' : `[${showDelta(interval.low)}, ${showDelta(interval.high)}]`,
      describeVerdict(pm?.verdict ?? null, p),
    ];
  };
  out.push(p.bold('Headline'));
  out.push(
    ...renderFittedTable(
      ['', 'A', 'B', 'B - A', '95% paired interval', 'B against A'],
      [
        paired('accuracy', 'accuracy', h.accuracy, formatPercent, pp),
        paired('KL from gold', 'kl', h.kl, num, signed),
        paired('Brier', 'brier', h.brier, num, signed),
        paired('log loss', 'logLoss', h.logLoss, num, signed),
        paired('ECE', 'ece', h.ece, num, signed),
        metric('mean confidence', h.meanConfidence, formatPercent, pp, null),
        metric(
          'errors',
          h.errors,
          formatCount,
          (v) => (v === null ? NOT_AVAILABLE : `${v > 0 ? '+' : ''}${formatCount(v)}`),
          'lower',
        ),
        metric('latency p50', h.latencyP50Ms, formatLatencyMs, latencyDelta, 'lower'),
      ],
      width,
      { indent: '  ', styleHeader: p.dim },
    ),
  );
  const base = describeHeadlineBase(c);
  const prose = Math.min(PROSE_WIDTH, width);
  if (base !== null) out.push(...wrapIndented(base, prose, '  ').map(p.yellow));
  const mc = c.mcnemar;
  out.push(
    ...wrapIndented(
      `McNemar exact test on accuracy: ${formatCount(mc.onlyFirstCorrect)} decisions right only in A, ${formatCount(mc.onlySecondCorrect)} right only in B; ${describePValue(mc.pValue)}${mc.pValue < 0.05 ? ' (differ at 95%)' : ' (no difference at 95%)'}`,
      width,
      '  ',
    ),
  );
  out.push(...wrapIndented(describePairedReading(c), prose, '  ').map(p.dim));
  out.push('');
  return out;
}

/** Accuracy, KL and Brier per question, A against B. */
function byQuestionSection(c: RunComparison, p: Palette, width: number): string[] {
  const out: string[] = [];
  out.push(p.bold('By question'));
  out.push(
    ...renderFittedTable(
      ['question', 'n A', 'n B', 'acc A', 'acc B', 'Δ acc', 'KL A', 'KL B', 'Δ KL', 'Brier A', 'Brier B', 'Δ Brier'],
      c.byQuestion.map((q) => [
        singleLine(q.key),
        formatCount(q.total.a),
        formatCount(q.total.b),
        formatPercent(q.accuracy.a),
        formatPercent(q.accuracy.b),
        paintDelta(q.accuracy, pp(q.accuracy.delta), 'higher', p),
        formatNumber(q.kl.a),
        formatNumber(q.kl.b),
        paintDelta(q.kl, formatSigned(q.kl.delta), 'lower', p),
        formatNumber(q.brier.a),
        formatNumber(q.brier.b),
        paintDelta(q.brier, formatSigned(q.brier.delta), 'lower', p),
      ]),
      width,
      { indent: '  ', styleHeader: p.dim },
    ),
  );
  const base = describeQuestionBase(c);
  if (base !== null) out.push(...wrapIndented(base, Math.min(PROSE_WIDTH, width), '  ').map(p.dim));
  out.push('');
  return out;
}

/** The decisions whose correctness changed, the first `maxChanged` listed. */
function changedSection(c: RunComparison, p: Palette, maxChanged: number, width: number): string[] {
  const out: string[] = [];
  const count = changedCount(c);
  const only =
    c.onlyInA + c.onlyInB > 0 ? `; ${formatCount(c.onlyInA)} only in A, ${formatCount(c.onlyInB)} only in B` : '';
  out.push(
    ...wrapStyled(
      p.bold(`Decisions whose correctness changed: ${formatCount(count)}`) +
        `  (${formatCount(c.fixed)} fixed, ${formatCount(c.broken)} broken; ${formatCount(c.predictionsChanged)} of ${formatCount(c.shared)} shared decisions changed prediction${only})`,
      width,
    ),
  );
  if (count > 0) {
    const shown = firstChanged(c, maxChanged);
    out.push(
      ...renderFittedTable(
        ['case', 'question', 'type', 'gold', 'A', 'B'],
        shown.map((d) => [
          singleLine(d.caseId),
          singleLine(d.questionId),
          d.type,
          singleLine(d.gold),
          describeView(d.before, p),
          describeView(d.after, p),
        ]),
        width,
        { indent: '  ', styleHeader: p.dim, align: ['left', 'left', 'left', 'left', 'left', 'left'] },
      ),
    );
    const rest = count - shown.length;
    if (rest > 0) out.push(p.dim(`  ... and ${formatCount(rest)} more ('${JSON_FLAG}' lists them all)`));
  }
  return out;
}

/** A p-value for people: `p = 0.012`, `p = 1`, tiny ones `p < 0.0001`. */
export function describePValue(p: number): string {
  if (p < 0.0001) return 'p < 0.0001';
  return `p = ${p >= 0.001 ? p.toFixed(3).replace(/0+$/, '').replace(/\.$/, '') : p.toPrecision(2)}`;
}

/** `better` / `worse` in colour, `within noise` plain, '' without a verdict. */
export function describeVerdict(verdict: Verdict | null, p: Palette): string {
  if (verdict === null) return '';
  if (verdict === 'better') return p.green('better');
  if (verdict === 'worse') return p.red('worse');
  return 'within noise';
}

/**
 * Which cases the headline was taken over when the runs' case sets differ (null when they
 * are the same): the cases both runs have, for the values, B - A, intervals and verdicts alike.
 */
export function describeHeadlineBase(c: RunComparison): string | null {
  const s = c.sharedCases;
  if (s === null) return null;
  return `Accuracy, KL, Brier, log loss and ECE (A, B, B - A${c.paired === null ? '' : ', intervals and verdicts'}) are over the ${formatCount(s.cases)} cases both runs have; ${casesLeftOut(s)} left out. Mean confidence, errors and latency are over each whole run.`;
}

/**
 * Which cases the per-question rows were taken over when the runs' case sets differ (null
 * when they are the same): the cases both runs have, the base of the headline.
 */
export function describeQuestionBase(c: RunComparison): string | null {
  const s = c.sharedCases;
  if (s === null) return null;
  return `Every row (n, accuracy, KL, Brier and B - A) is over the ${formatCount(s.cases)} cases both runs have, as the headline; ${casesLeftOut(s)} left out.`;
}

function casesLeftOut(s: SharedCases): string {
  return [
    s.onlyInA > 0 ? `${formatCount(s.onlyInA)} only in A` : null,
    s.onlyInB > 0 ? `${formatCount(s.onlyInB)} only in B` : null,
  ]
    .filter((x) => x !== null)
    .join(' and ');
}

/** What the paired intervals mean, with the conventions they were computed under. */
export function describePairedReading(c: RunComparison): string {
  const boot =
    c.paired === null
      ? INTERVALS_OFF
      : `Paired: each of ${formatCount(c.conventions.bootstrapResamples)} bootstrap resamples (seed ${c.conventions.seed}) draws the same ${formatCount(c.paired.cases)} cases for both runs, so what the runs share cancels; a verdict is better or worse only when the 95% interval of B - A excludes 0. Cases, not decisions, are resampled: the questions of a case share its state.`;
  return `${boot} Conventions: ${describeConventions(c.conventions)}.`;
}

/** A, B and B - A; a null carries its reason (the run that lacks the number answered none of it). */
const deltaJson = (d: MetricDelta) => ({
  a: d.a,
  b: d.b,
  delta: d.delta,
  ...nullReasonsJson({
    a: d.a === null ? 'run A answered no decision this counts' : undefined,
    b: d.b === null ? 'run B answered no decision this counts' : undefined,
    delta: d.delta === null ? `no number in run ${d.a === null ? 'A' : 'B'}` : undefined,
  }),
});

const sideJson = (r: ComparedRun) => ({
  id: r.id,
  created_at: r.createdAt,
  label: r.label,
  fingerprint: r.fingerprint,
  model: r.model,
  status: r.status,
  decisions: r.decisions,
  ...(r.recalibratedWith === undefined ? {} : { calibration: calibrationJson(r.recalibratedWith) }),
});

const viewJson = (v: DecisionView) => ({
  predicted: v.predicted,
  confidence: v.confidence,
  correct: v.correct,
  error: v.error,
});

/** `runs compare --json`: the whole comparison, snake_case keys, numbers unrounded, absent values null. */
export function renderRunComparisonJson(c: RunComparison): string {
  const h = c.headline;
  const document = {
    a: sideJson(c.a),
    b: sideJson(c.b),
    same_fingerprint: c.sameFingerprint,
    same_work: c.sameWork,
    headline_over: headlineOverJson(c),
    headline: {
      accuracy: deltaJson(h.accuracy),
      kl: deltaJson(h.kl),
      brier: deltaJson(h.brier),
      log_loss: deltaJson(h.logLoss),
      ece: deltaJson(h.ece),
      mean_confidence: deltaJson(h.meanConfidence),
      errors: deltaJson(h.errors),
      latency_p50_ms: deltaJson(h.latencyP50Ms),
    },
    by_question_over: headlineOverJson(c),
    by_question: c.byQuestion.map((q) => ({
      key: q.key,
      total: deltaJson(q.total),
      accuracy: deltaJson(q.accuracy),
      kl: deltaJson(q.kl),
      brier: deltaJson(q.brier),
    })),
    changed: c.changed.map((d) => ({
      case_id: d.caseId,
      workflow: d.workflow,
      question_id: d.questionId,
      type: d.type,
      gold: d.gold,
      before: viewJson(d.before),
      after: viewJson(d.after),
    })),
    fixed: c.fixed,
    broken: c.broken,
    predictions_changed: c.predictionsChanged,
    shared: c.shared,
    only_in_a: c.onlyInA,
    only_in_b: c.onlyInB,
    mcnemar: {
      only_a_correct: c.mcnemar.onlyFirstCorrect,
      only_b_correct: c.mcnemar.onlySecondCorrect,
      p_value: c.mcnemar.pValue,
    },
    paired: pairedJson(c.paired),
    ...nullReasonsJson({ paired: c.paired === null ? `intervals are off (${NO_CI_FLAG})` : undefined }),
    conventions: { ...conventionsJson(c.conventions), text: conventionsText(c.conventions) },
  };
  return `${jsonDocumentText(document)}\n`;
}

/**
 * Which cases accuracy, KL, Brier, log loss and ECE of the headline (and every per-question
 * row) were taken over: every case of each run when the runs have the same cases, else only
 * the cases both have.
 */
function headlineOverJson(c: RunComparison) {
  const s = c.sharedCases;
  if (s === null) return { cases: 'whole_runs' };
  return { cases: 'shared_cases', shared_cases: s.cases, cases_only_in_a: s.onlyInA, cases_only_in_b: s.onlyInB };
}

/** Per metric: A, B, B - A, its 95% paired interval `[low, high]` and the verdict; null when intervals are off. */
function pairedJson(p: PairedComparison | null) {
  if (p === null) return null;
  const metrics: Record<string, unknown> = {};
  for (const m of HEADLINE_METRICS) {
    const x = p.metrics[m];
    metrics[METRIC_JSON_NAMES[m]] = {
      a: x.first,
      b: x.second,
      difference: x.difference,
      difference_ci: x.interval === null ? null : [x.interval.low, x.interval.high],
      verdict: x.verdict,
      ...nullReasonsJson({
        difference_ci: x.interval === null ? 'no shared case has this number in both runs' : undefined,
      }),
    };
  }
  return {
    cases: p.cases,
    cases_only_in_a: p.onlyFirst,
    cases_only_in_b: p.onlySecond,
    resamples: p.resamples,
    metrics,
  };
}
