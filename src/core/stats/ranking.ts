/**
 * Ranking metrics of yes/no decisions: ROC AUC and average precision from P(yes) against the
 * correct answer, their ROC and precision-recall curves, 95% case-bootstrap intervals and the
 * paired difference of two models (docs/scoring.md, "Ranking: ROC AUC and average precision").
 *
 * - Ties are exact: AUC is the Mann-Whitney statistic with half credit for a tied
 *   (positive, negative) pair; AP is the step-wise sum over the distinct scores, so equal
 *   scores always move together, whatever their order in the input.
 * - Resamples are drawn like the other metrics' (`bootstrap.ts`): the same seeded multinomial
 *   weights over the same units (cases, or seeded blocks of cases above 10,000), so the same
 *   cases and seed give the same interval whatever order they came in.
 */
import type { Conventions } from './conventions.js';
import { createSeededDraws } from '../seeded-random.js';
import {
  DEFAULT_BOOTSTRAP_BLOCKS,
  percentileInterval,
  resamplingUnits,
  verdictByDirection,
  type Interval,
  type MetricComparison,
} from './bootstrap.js';

/** Yes/no decisions to rank: one score (P(yes)) and one label a case. */
export interface RankedDecisions {
  /** Case ids, distinct and aligned with the columns; they decide the resampling units. */
  readonly ids: readonly string[];
  readonly scores: Float64Array;
  /** 1 when the correct answer is yes. */
  readonly positive: Uint8Array;
}

/** One point of a curve: the decisions with a score at or above `threshold` are called yes. */
export interface CurvePoint {
  readonly x: number;
  readonly y: number;
  /** null for the ROC curve's start at (0, 0), where nothing is called yes. */
  readonly threshold: number | null;
}

export interface RankingMetrics {
  readonly positives: number;
  readonly negatives: number;
  /** Null unless both classes are present. */
  readonly auc: number | null;
  /** Null without positives. */
  readonly averagePrecision: number | null;
}

export interface Ranking extends RankingMetrics {
  readonly aucInterval: Interval | null;
  readonly averagePrecisionInterval: Interval | null;
  /** (false positive rate, true positive rate), from (0, 0) to (1, 1); empty without both classes. */
  readonly roc: readonly CurvePoint[];
  /** (recall, precision) at each distinct score, highest score first; empty without positives. */
  readonly precisionRecall: readonly CurvePoint[];
}

/**
 * Decisions sorted by score, highest first, with the runs of equal scores, their labels and
 * resampling units in that order (typed arrays, so a resample is one tight pass).
 */
interface Sorted {
  readonly order: Int32Array;
  /** Start of each run of equal scores in `order`, then `n`. */
  readonly runStart: Int32Array;
  readonly runs: number;
  readonly positive: Uint8Array;
  /** Resampling unit of each sorted decision. */
  readonly unit: Int32Array;
  readonly units: number;
}

function sortByScore(d: RankedDecisions, seed: number): Sorted {
  const scores = d.scores;
  const n = scores.length;
  // Distinct scores, highest first; then each decision goes to its score's run (a counting
  // sort, far faster than sorting indices with a comparator on a million decisions).
  const sorted = Float64Array.from(scores).sort().reverse();
  let runs = 0;
  for (let k = 0; k < n; k++) if (k === 0 || sorted[k] !== sorted[k - 1]) sorted[runs++] = sorted[k]!;
  const distinct = sorted.subarray(0, runs);
  const runOf = new Int32Array(n);
  const runStart = new Int32Array(runs + 1);
  for (let i = 0; i < n; i++) {
    let lo = 0;
    let hi = runs - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (distinct[mid]! > scores[i]!) lo = mid + 1;
      else hi = mid;
    }
    runOf[i] = lo;
    runStart[lo + 1]!++;
  }
  for (let r = 0; r < runs; r++) runStart[r + 1]! += runStart[r]!;
  const fill = runStart.slice(0, runs);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[fill[runOf[i]!]!++] = i;
  // Ids are distinct (one decision a case), so there are as many cases as ids.
  const units = resamplingUnits(d.ids, null, d.ids.length, seed, DEFAULT_BOOTSTRAP_BLOCKS);
  return {
    order,
    runStart,
    runs,
    positive: Uint8Array.from(order, (i) => d.positive[i]!),
    unit: Int32Array.from(order, (i) => units.unitOf[i]!),
    units: units.count,
  };
}

/**
 * AUC and AP under unit weights (a resample: how many times each unit was drawn; all 1 for
 * the decisions as they are). Counts are integers, so the sums are exact and their order
 * cannot change a bit.
 */
function metricsOf(s: Sorted, weights: Int32Array): { auc: number; ap: number; positives: number; negatives: number } {
  let tp = 0;
  let fp = 0;
  let pairs = 0;
  let precisionSum = 0;
  const { runStart, positive, unit } = s;
  for (let r = 0; r < s.runs; r++) {
    let runTp = 0;
    let runFp = 0;
    const end = runStart[r + 1]!;
    for (let k = runStart[r]!; k < end; k++) {
      const w = weights[unit[k]!]!;
      if (positive[k] === 1) runTp += w;
      else runFp += w;
    }
    // A run's negatives are outranked by every positive above the run (full credit) and tie
    // with the run's own positives (half credit); pairs counts in halves.
    pairs += runFp * (2 * tp + runTp);
    tp += runTp;
    fp += runFp;
    if (runTp > 0) precisionSum += runTp * (tp / (tp + fp));
  }
  return {
    auc: tp > 0 && fp > 0 ? pairs / (2 * tp * fp) : NaN,
    ap: tp > 0 ? precisionSum / tp : NaN,
    positives: tp,
    negatives: fp,
  };
}

const orNull = (v: number): number | null => (v === v ? v : null);

const ones = (s: Sorted): Int32Array => new Int32Array(s.units).fill(1);

/** AUC and AP, without intervals or curves. */
export function rankingMetrics(d: RankedDecisions): RankingMetrics {
  const s = sortByScore(d, 1);
  const m = metricsOf(s, ones(s));
  return { positives: m.positives, negatives: m.negatives, auc: orNull(m.auc), averagePrecision: orNull(m.ap) };
}

/** Curves keep at most this many points (evenly spaced over the distinct scores, the last always). */
export const MAX_CURVE_POINTS = 500;

/**
 * The ROC and precision-recall curves: one point per distinct score (the ROC from (0, 0)), or
 * MAX_CURVE_POINTS of them evenly spaced when there are more.
 */
export function rankingCurves(d: RankedDecisions): Pick<Ranking, 'roc' | 'precisionRecall'> {
  return curvesOf(d, sortByScore(d, 1));
}

function curvesOf(d: RankedDecisions, s: Sorted): Pick<Ranking, 'roc' | 'precisionRecall'> {
  let positives = 0;
  for (let k = 0; k < s.positive.length; k++) positives += s.positive[k]!;
  const negatives = s.positive.length - positives;
  const roc: CurvePoint[] = positives > 0 && negatives > 0 ? [{ x: 0, y: 0, threshold: null }] : [];
  const precisionRecall: CurvePoint[] = [];
  const step = Math.max(1, s.runs / MAX_CURVE_POINTS);
  let next = 0;
  let tp = 0;
  let fp = 0;
  for (let r = 0; r < s.runs; r++) {
    for (let k = s.runStart[r]!; k < s.runStart[r + 1]!; k++) {
      if (s.positive[k] === 1) tp++;
      else fp++;
    }
    if (r < s.runs - 1 && r < Math.floor(next)) continue;
    next += step;
    const threshold = d.scores[s.order[s.runStart[r]!]!]!;
    if (roc.length > 0) roc.push({ x: fp / negatives, y: tp / positives, threshold });
    if (positives > 0) precisionRecall.push({ x: tp / positives, y: tp / (tp + fp), threshold });
  }
  return { roc, precisionRecall };
}

/**
 * Draws `resamples` seeded multinomial weightings of the units, calling `each` with the unit
 * weights; the same sequence as the other metrics' bootstrap for the same seed and units.
 */
function forEachResample(units: number, conventions: Conventions, each: (weights: Int32Array) => void): void {
  const R = conventions.bootstrapResamples;
  if (R <= 0 || units === 0) return;
  const draws = createSeededDraws(conventions.seed);
  const weights = new Int32Array(units);
  for (let r = 0; r < R; r++) {
    weights.fill(0);
    draws.countInto(weights, units);
    each(weights);
  }
}

/**
 * The influence of each unit on AUC and AP at the decisions as they are (weights all 1): the
 * first-order change of each metric per unit of weight. AUC's is the Hájek projection of the
 * Mann-Whitney statistic (DeLong's placements: a positive's share of negatives it outranks, a
 * negative's share of positives that outrank it, ties half); AP's is its derivative as a sum
 * over positives of the precision at their score. Both sum to 0 over the units.
 */
function influenceOf(s: Sorted, point: { positives: number; negatives: number; auc: number; ap: number }) {
  const { runStart, positive, unit } = s;
  const P = point.positives;
  const N = point.negatives;
  const auc = new Float64Array(s.units);
  const ap = new Float64Array(s.units);
  const runTp = new Float64Array(s.runs);
  const runFp = new Float64Array(s.runs);
  for (let r = 0; r < s.runs; r++)
    for (let k = runStart[r]!; k < runStart[r + 1]!; k++) {
      if (positive[k] === 1) runTp[r]!++;
      else runFp[r]!++;
    }
  // d AP / d w of one more positive (own precision plus how it raises every precision at or
  // below its score) and of one more negative (how it lowers them), per run: suffix sums.
  const raise = new Float64Array(s.runs + 1);
  const lower = new Float64Array(s.runs + 1);
  const precision = new Float64Array(s.runs);
  let tp = 0;
  let fp = 0;
  for (let r = 0; r < s.runs; r++) {
    tp += runTp[r]!;
    fp += runFp[r]!;
    precision[r] = tp / (tp + fp);
    raise[r] = (runTp[r]! * fp) / (tp + fp) ** 2;
    lower[r] = (runTp[r]! * tp) / (tp + fp) ** 2;
  }
  for (let r = s.runs - 1; r >= 0; r--) {
    raise[r] = raise[r]! + raise[r + 1]!;
    lower[r] = lower[r]! + lower[r + 1]!;
  }
  // Within a run every positive has one influence and every negative another; adding the
  // positives first, then the negatives, makes each unit's sum independent of the order of
  // equal scores (so of the input order).
  tp = 0;
  fp = 0;
  for (let r = 0; r < s.runs; r++) {
    const aucYes = N > 0 ? ((N - fp - runFp[r]! / 2) / N - point.auc) / P : 0;
    const apYes = (precision[r]! + raise[r]! - point.ap) / P;
    const aucNo = P > 0 ? ((tp + runTp[r]! / 2) / P - point.auc) / N : 0;
    const apNo = P > 0 ? -lower[r]! / P : 0;
    for (const cls of [1, 0])
      for (let k = runStart[r]!; k < runStart[r + 1]!; k++) {
        if (positive[k] !== cls) continue;
        const u = unit[k]!;
        auc[u] = auc[u]! + (cls === 1 ? aucYes : aucNo);
        ap[u] = ap[u]! + (cls === 1 ? apYes : apNo);
      }
    tp += runTp[r]!;
    fp += runFp[r]!;
  }
  return { auc, ap };
}

/**
 * How a resample's AUC and AP are found: recomputed from the weighted decisions up to
 * `exactUpTo` units (10,000, the bootstrap's block threshold), above it by the first-order
 * (linearised) bootstrap, each resample moving the metric by Σ (weight − 1) × influence, so
 * the cost of a resample is the number of units, not of decisions.
 */
function resampledMetrics(s: Sorted, point: ReturnType<typeof metricsOf>, exactUpTo: number) {
  if (s.order.length <= exactUpTo) return (weights: Int32Array) => metricsOf(s, weights);
  const influence = influenceOf(s, point);
  return (weights: Int32Array) => {
    let auc = point.auc;
    let ap = point.ap;
    for (let u = 0; u < s.units; u++) {
      const w = weights[u]! - 1;
      if (w === 0) continue;
      auc += w * influence.auc[u]!;
      ap += w * influence.ap[u]!;
    }
    return { auc, ap };
  };
}

export interface RankingOptions {
  /** Up to this many decisions, every resample is recomputed exactly; above, linearised. Default 10,000. */
  readonly exactUpTo?: number;
}

/** AUC and AP with their 95% intervals and curves. */
export function rankYesNo(d: RankedDecisions, conventions: Conventions, options: RankingOptions = {}): Ranking {
  const s = sortByScore(d, conventions.seed);
  const point = metricsOf(s, ones(s));
  const aucDraws: number[] = [];
  const apDraws: number[] = [];
  const auc = orNull(point.auc);
  const ap = orNull(point.ap);
  if (auc !== null || ap !== null) {
    const draw = resampledMetrics(s, point, options.exactUpTo ?? DEFAULT_BOOTSTRAP_BLOCKS);
    forEachResample(s.units, conventions, (weights) => {
      const m = draw(weights);
      if (m.auc === m.auc) aucDraws.push(m.auc);
      if (m.ap === m.ap) apDraws.push(m.ap);
    });
  }
  return {
    positives: point.positives,
    negatives: point.negatives,
    auc,
    averagePrecision: ap,
    aucInterval: auc === null ? null : percentileInterval(Float64Array.from(aucDraws), auc),
    averagePrecisionInterval: ap === null ? null : percentileInterval(Float64Array.from(apDraws), ap),
    ...curvesOf(d, s),
  };
}

export interface PairedRanking {
  /** Yes/no cases both models decided: the only ones compared. */
  readonly cases: number;
  readonly auc: MetricComparison;
  readonly averagePrecision: MetricComparison;
}

/**
 * `second - first` in AUC and AP on the same cases (aligned: the same id at the same index),
 * each resample weighting both models' decisions alike; higher is better for both.
 */
export function pairRanking(
  first: RankedDecisions,
  second: Pick<RankedDecisions, 'scores'>,
  conventions: Conventions,
  options: RankingOptions = {},
): PairedRanking {
  const b: RankedDecisions = { ids: first.ids, scores: second.scores, positive: first.positive };
  const sa = sortByScore(first, conventions.seed);
  const sb = sortByScore(b, conventions.seed);
  const pa = metricsOf(sa, ones(sa));
  const pb = metricsOf(sb, ones(sb));
  const exactUpTo = options.exactUpTo ?? DEFAULT_BOOTSTRAP_BLOCKS;
  const drawA = resampledMetrics(sa, pa, exactUpTo);
  const drawB = resampledMetrics(sb, pb, exactUpTo);
  const aucDiffs: number[] = [];
  const apDiffs: number[] = [];
  forEachResample(sa.units, conventions, (weights) => {
    const x = drawA(weights);
    const y = drawB(weights);
    if (x.auc === x.auc && y.auc === y.auc) aucDiffs.push(y.auc - x.auc);
    if (x.ap === x.ap && y.ap === y.ap) apDiffs.push(y.ap - x.ap);
  });
  const compare = (x: number, y: number, diffs: number[]): MetricComparison => {
    const a = orNull(x);
    const c = orNull(y);
    const difference = a === null || c === null ? null : c - a;
    const interval =
      difference === null || conventions.bootstrapResamples <= 0
        ? null
        : percentileInterval(Float64Array.from(diffs), difference, true);
    return { first: a, second: c, difference, interval, verdict: interval && verdictByDirection(true, interval) };
  };
  return {
    cases: first.ids.length,
    auc: compare(pa.auc, pb.auc, aucDiffs),
    averagePrecision: compare(pa.ap, pb.ap, apDiffs),
  };
}
