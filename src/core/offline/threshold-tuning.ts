/**
 * Yes/no threshold tuning from saved scores (docs/scoring.md, "Offline: tune").
 *
 * Candidates are the distinct observed probabilities; a case is predicted yes iff p >= t.
 * Selection: best F1 (or, with error costs, lowest expected cost) among candidates meeting
 * the precision/recall floors; ties -> higher accuracy, then closer to 0.5, then lower.
 * Stratified k-fold cross-validation with a seeded, deterministic fold assignment gives the
 * honest estimate next to the optimistic full-data one.
 */
import { DecidekitError, OptionError } from '../errors.js';
import { optionMention, words } from '../message-words.js';
import { ExactSum } from '../exact-sum.js';
import { MAX_RESULT_MEASURE, type OfflineCase, type OfflineResult } from './case.js';
import { DEFAULT_YES_NO_THRESHOLD, predictYesNo } from './prediction.js';
import { seededHash32 } from '../seeded-random.js';

/** One scored yes/no case. */
export interface TunePoint {
  readonly id: string;
  /** P(yes) as saved by the model. */
  readonly probability: number;
  /** The correct answer is yes. */
  readonly positive: boolean;
  readonly costUsd?: number;
}

/** Error costs of the cost objective, per wrong decision. */
export interface ErrorCosts {
  /** Cost of a yes on a case whose answer is no. */
  readonly falsePositive: number;
  /** Cost of a no on a case whose answer is yes. */
  readonly falseNegative: number;
}

export interface TuneOptions {
  /** Precision floor. Default 0. */
  readonly minPrecision?: number;
  /** Recall floor. Default 0. */
  readonly minRecall?: number;
  /** Folds wanted; the fold count used is min(folds, positives, negatives). Default 5. */
  readonly folds?: number;
  /** Seed of the fold assignment (unsigned 32-bit integer). Default 0. */
  readonly seed?: number;
  /** When given, select the threshold minimising expected error cost instead of maximising F1. */
  readonly costs?: ErrorCosts;
}

export const DEFAULT_FOLDS = 5;
export const DEFAULT_SEED = 1;

export interface Confusion {
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly tn: number;
}

/** Quality of one threshold on one set of cases. */
export interface ThresholdMetrics {
  readonly threshold: number;
  readonly n: number;
  readonly confusion: Confusion;
  /** TP / (TP + FP); 0 where undefined. */
  readonly precision: number;
  /** TP / (TP + FN); 0 where undefined. */
  readonly recall: number;
  /** 2PR / (P + R); 0 where undefined. */
  readonly f1: number;
  readonly accuracy: number;
  /** (costFp * FP + costFn * FN) / n; null without error costs. */
  readonly errorCostPerCall: number | null;
  readonly meetsFloors: boolean;
}

/** A row of the report: metrics plus spend, which does not depend on the threshold. */
export interface TuneRow extends ThresholdMetrics {
  /** 100 x mean cost_usd per call, over results that carry a cost; null when none does. */
  readonly costPer100Usd: number | null;
  /** Total cost_usd / correct decisions; null without costs or with nothing correct. */
  readonly costPerCorrectUsd: number | null;
}

export interface Spread {
  readonly mean: number;
  /** Sample standard deviation across folds (k - 1 in the denominator). */
  readonly sd: number;
  readonly min: number;
  readonly max: number;
}

export interface CvFold {
  /** 0-based fold index. */
  readonly index: number;
  /** Threshold selected on the other folds. */
  readonly threshold: number;
  /** Whether the selected threshold met the floors on the training part. */
  readonly floorsMetOnTraining: boolean;
  /** Metrics on the held-out fold at that threshold. */
  readonly heldOut: ThresholdMetrics;
}

export interface CrossValidation {
  readonly k: number;
  readonly seed: number;
  readonly folds: readonly CvFold[];
  readonly precision: Spread;
  readonly recall: Spread;
  readonly f1: Spread;
  readonly accuracy: Spread;
  /** Null without error costs. */
  readonly errorCostPerCall: Spread | null;
  /** Held-out correct decisions summed over folds (every case is held out once). */
  readonly correct: number;
  readonly costPer100Usd: number | null;
  /** Total cost_usd / held-out correct decisions. */
  readonly costPerCorrectUsd: number | null;
}

export interface TuneReport {
  readonly objective: 'f1' | 'cost';
  readonly costs: ErrorCosts | null;
  readonly floors: { readonly minPrecision: number; readonly minRecall: number };
  /** yes_no cases with a result. */
  readonly n: number;
  readonly positives: number;
  readonly negatives: number;
  /** yes_no cases of the dataset without a result. */
  readonly missing: number;
  /** The results that carry a cost_usd. */
  readonly withCost: number;
  readonly totalCostUsd: number | null;
  readonly default: TuneRow;
  readonly tuned: TuneRow;
  /** Whether the tuned threshold meets both floors (else it is the best one regardless). */
  readonly floorsMet: boolean;
  /** Number of candidate thresholds on all data. */
  readonly candidates: number;
  readonly crossValidated: CrossValidation | null;
  /** Why cross-validation is missing; null when it ran. */
  readonly crossValidationSkipped: string | null;
}

/** A yes_no case and its result as a tune point; null for other kinds. */
export function tunePointOf(c: OfflineCase, r: OfflineResult): TunePoint | null {
  if (c.kind !== 'yes_no' || r.decision.kind !== 'yes_no') return null;
  const p = { id: c.id, probability: r.decision.probability, positive: c.correct };
  return r.costUsd === undefined ? p : { ...p, costUsd: r.costUsd };
}

/** The yes_no cases that have a result, as tune points; also counts those without one. */
export function collectTunePoints(
  cases: Iterable<OfflineCase>,
  results: Iterable<OfflineResult>,
): { points: TunePoint[]; missing: number } {
  const byCase = new Map<string, OfflineResult>();
  for (const r of results) byCase.set(r.caseId, r);
  const points: TunePoint[] = [];
  let missing = 0;
  for (const c of cases) {
    if (c.kind !== 'yes_no') continue;
    const r = byCase.get(c.id);
    const point = r === undefined ? null : tunePointOf(c, r);
    if (point === null) missing++;
    else points.push(point);
  }
  return { points, missing };
}

/** Tunes the yes/no threshold of one model's saved results against a dataset. */
export function tuneThreshold(
  cases: Iterable<OfflineCase>,
  results: Iterable<OfflineResult>,
  options: TuneOptions = {},
): TuneReport {
  const { points, missing } = collectTunePoints(cases, results);
  return tunePoints(points, options, missing);
}

interface Settings {
  readonly minPrecision: number;
  readonly minRecall: number;
  readonly costs: ErrorCosts | null;
}

/** As {@link tuneThreshold}, on points already collected. */
export function tunePoints(points: readonly TunePoint[], options: TuneOptions = {}, missing = 0): TuneReport {
  const costs = options.costs;
  if (costs !== undefined)
    for (const [what, option, v] of [
      ['the cost of a false yes', 'costs.falsePositive', costs.falsePositive],
      ['the cost of a false no', 'costs.falseNegative', costs.falseNegative],
    ] as const)
      if (!(v >= 0 && v <= MAX_RESULT_MEASURE))
        throw new OptionError(
          option,
          words`${what} (${optionMention(option)}) must be a number from 0 to ${MAX_RESULT_MEASURE}, got ${v}`,
        );
  const settings: Settings = {
    minPrecision: options.minPrecision ?? 0,
    minRecall: options.minRecall ?? 0,
    costs: options.costs ?? null,
  };
  const positives = points.filter((p) => p.positive).length;
  const negatives = points.length - positives;
  if (positives === 0 || negatives === 0) {
    throw new DecidekitError(
      'one_class',
      `cannot tune a threshold: the ${points.length} yes_no case${points.length === 1 ? '' : 's'} with a result include ${positives} yes and ${negatives} no (both classes are needed)`,
      { context: { positives, negatives } },
    );
  }
  const sorted = sortByProbabilityDesc(points);
  const spend = new ExactSum();
  for (const p of points) if (p.costUsd !== undefined) spend.add(p.costUsd);
  const totalCostUsd = spend.n === 0 ? null : spend.value();
  const per100 = spend.n === 0 ? null : (100 * spend.value()) / spend.n;
  const row = (m: ThresholdMetrics): TuneRow => ({
    ...m,
    costPer100Usd: per100,
    costPerCorrectUsd: perCorrect(totalCostUsd, m.confusion.tp + m.confusion.tn),
  });

  const selection = selectThreshold(sorted, settings);
  const wantedFolds = options.folds ?? DEFAULT_FOLDS;
  const seed = options.seed ?? DEFAULT_SEED;
  const k = Math.min(wantedFolds, positives, negatives);
  let crossValidated: CrossValidation | null = null;
  let crossValidationSkipped: string | null = null;
  if (k < 2) {
    crossValidationSkipped =
      wantedFolds < 2
        ? `needs at least 2 folds (asked for ${wantedFolds})`
        : `needs at least 2 cases of each class (found ${positives} yes, ${negatives} no)`;
  } else {
    crossValidated = crossValidate(sorted, k, seed, settings, totalCostUsd, per100);
  }
  return {
    objective: settings.costs === null ? 'f1' : 'cost',
    costs: settings.costs,
    floors: { minPrecision: settings.minPrecision, minRecall: settings.minRecall },
    n: points.length,
    positives,
    negatives,
    missing,
    withCost: spend.n,
    totalCostUsd,
    default: row(evaluateThreshold(sorted, DEFAULT_YES_NO_THRESHOLD, settings)),
    tuned: row(selection.metrics),
    floorsMet: selection.floorsMet,
    candidates: selection.candidates,
    crossValidated,
    crossValidationSkipped,
  };
}

function perCorrect(total: number | null, correct: number): number | null {
  return total === null || correct === 0 ? null : total / correct;
}

function sortByProbabilityDesc(points: readonly TunePoint[]): TunePoint[] {
  // Ties need no order: the sweep evaluates a probability only after all its points.
  return [...points].sort((a, b) => b.probability - a.probability);
}

function metricsOf(threshold: number, c: Confusion, s: Settings): ThresholdMetrics {
  const n = c.tp + c.fp + c.fn + c.tn;
  const precision = c.tp + c.fp === 0 ? 0 : c.tp / (c.tp + c.fp);
  const recall = c.tp + c.fn === 0 ? 0 : c.tp / (c.tp + c.fn);
  // 2PR/(P+R) equals 2TP/(2TP+FP+FN); the count form is exact, so equal F1s compare equal.
  const f1 = c.tp === 0 ? 0 : (2 * c.tp) / (2 * c.tp + c.fp + c.fn);
  return {
    threshold,
    n,
    confusion: c,
    precision,
    recall,
    f1,
    accuracy: n === 0 ? 0 : (c.tp + c.tn) / n,
    errorCostPerCall: s.costs === null || n === 0 ? null : totalErrorCost(c, s.costs) / n,
    meetsFloors: precision >= s.minPrecision && recall >= s.minRecall,
  };
}

function totalErrorCost(c: Confusion, costs: ErrorCosts): number {
  return costs.falsePositive * c.fp + costs.falseNegative * c.fn;
}

/** Metrics of a fixed threshold over the points. */
function evaluateThreshold(points: readonly TunePoint[], threshold: number, s: Settings): ThresholdMetrics {
  let tp = 0,
    fp = 0,
    fn = 0,
    tn = 0;
  for (const p of points) {
    const yes = predictYesNo(p.probability, threshold).yes;
    if (p.positive && yes) tp++;
    else if (p.positive) fn++;
    else if (yes) fp++;
    else tn++;
  }
  return metricsOf(threshold, { tp, fp, fn, tn }, s);
}

/**
 * True when `a` is a better choice than `b`: higher F1 (or, with costs, lower total error
 * cost), then higher accuracy, then a threshold closer to 0.5, then the lower threshold.
 */
export function isBetterThreshold(a: ThresholdMetrics, b: ThresholdMetrics, costs: ErrorCosts | null): boolean {
  if (costs !== null) {
    const ca = totalErrorCost(a.confusion, costs);
    const cb = totalErrorCost(b.confusion, costs);
    if (ca !== cb) return ca < cb;
  } else if (a.f1 !== b.f1) {
    return a.f1 > b.f1;
  }
  if (a.accuracy !== b.accuracy) return a.accuracy > b.accuracy;
  const da = Math.abs(a.threshold - DEFAULT_YES_NO_THRESHOLD);
  const db = Math.abs(b.threshold - DEFAULT_YES_NO_THRESHOLD);
  if (da !== db) return da < db;
  return a.threshold < b.threshold;
}

interface Selection {
  readonly metrics: ThresholdMetrics;
  readonly floorsMet: boolean;
  readonly candidates: number;
}

/**
 * Sweeps the distinct probabilities of points sorted highest first, keeping running counts:
 * O(n). Returns the best candidate meeting the floors, or the best overall (flagged) when
 * none does.
 */
function selectThreshold(sorted: readonly TunePoint[], s: Settings): Selection {
  let positives = 0;
  for (const p of sorted) if (p.positive) positives++;
  const negatives = sorted.length - positives;
  let tp = 0,
    fp = 0;
  let bestFloor: ThresholdMetrics | null = null;
  let bestAny: ThresholdMetrics | null = null;
  let candidates = 0;
  for (let i = 0; i < sorted.length; i++) {
    const p = sorted[i]!;
    if (p.positive) tp++;
    else fp++;
    // Evaluate once every point with this probability is counted.
    if (i + 1 < sorted.length && sorted[i + 1]!.probability === p.probability) continue;
    candidates++;
    const m = metricsOf(p.probability, { tp, fp, fn: positives - tp, tn: negatives - fp }, s);
    if (bestAny === null || isBetterThreshold(m, bestAny, s.costs)) bestAny = m;
    if (m.meetsFloors && (bestFloor === null || isBetterThreshold(m, bestFloor, s.costs))) bestFloor = m;
  }
  if (bestAny === null) throw new DecidekitError('no_candidates', 'cannot tune a threshold: no scored cases');
  return bestFloor === null
    ? { metrics: bestAny, floorsMet: false, candidates }
    : { metrics: bestFloor, floorsMet: true, candidates };
}

/**
 * Stratified fold assignment: positives and negatives are each put in a pseudo-random
 * order (by a seeded hash of the case id, ties by id, so neither the input order nor
 * anything but the ids and the seed matters) and dealt round-robin, the negatives
 * continuing where the positives stopped so fold sizes differ by at most one.
 * Returns each point's fold index (0..k-1), aligned with `points`. With
 * k <= min(positives, negatives) every fold holds both classes.
 */
export function assignFolds(points: readonly TunePoint[], k: number, seed: number): number[] {
  if (!Number.isInteger(k) || k < 1)
    throw new DecidekitError('invalid_folds', `fold count must be a positive integer, got ${k}`);
  const key = new Uint32Array(points.length);
  points.forEach((p, i) => (key[i] = seededHash32(p.id, seed)));
  const order = (a: number, b: number) => {
    const d = key[a]! - key[b]!;
    if (d !== 0) return d;
    const x = points[a]!.id;
    const y = points[b]!.id;
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const pos: number[] = [];
  const neg: number[] = [];
  points.forEach((p, i) => (p.positive ? pos : neg).push(i));
  pos.sort(order);
  neg.sort(order);
  const folds = new Array<number>(points.length);
  pos.forEach((i, n) => (folds[i] = n % k));
  neg.forEach((i, n) => (folds[i] = (pos.length + n) % k));
  return folds;
}

function spreadOf(values: readonly number[]): Spread {
  const sum = new ExactSum();
  for (const v of values) sum.add(v);
  const mean = sum.value() / values.length;
  const sq = new ExactSum();
  for (const v of values) sq.add((v - mean) ** 2);
  return {
    mean,
    sd: values.length < 2 ? 0 : Math.sqrt(sq.value() / (values.length - 1)),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

function crossValidate(
  sorted: readonly TunePoint[],
  k: number,
  seed: number,
  s: Settings,
  totalCostUsd: number | null,
  per100: number | null,
): CrossValidation {
  const foldOf = assignFolds(sorted, k, seed);
  const folds: CvFold[] = [];
  let correct = 0;
  for (let f = 0; f < k; f++) {
    // Filtering keeps the order, so each part stays sorted for the sweep.
    const selected = selectThreshold(
      sorted.filter((_, i) => foldOf[i] !== f),
      s,
    );
    const heldOut = evaluateThreshold(
      sorted.filter((_, i) => foldOf[i] === f),
      selected.metrics.threshold,
      s,
    );
    correct += heldOut.confusion.tp + heldOut.confusion.tn;
    folds.push({ index: f, threshold: selected.metrics.threshold, floorsMetOnTraining: selected.floorsMet, heldOut });
  }
  const pick = (key: 'precision' | 'recall' | 'f1' | 'accuracy') => spreadOf(folds.map((x) => x.heldOut[key]));
  return {
    k,
    seed,
    folds,
    precision: pick('precision'),
    recall: pick('recall'),
    f1: pick('f1'),
    accuracy: pick('accuracy'),
    errorCostPerCall: s.costs === null ? null : spreadOf(folds.map((x) => x.heldOut.errorCostPerCall ?? 0)),
    correct,
    costPer100Usd: per100,
    costPerCorrectUsd: perCorrect(totalCostUsd, correct),
  };
}

/** Thresholds of a tuning curve: 0, 0.01, …, 1. */
export const CURVE_STEPS = 100;

/**
 * Precision, recall, F1, accuracy (and error cost per call with `costs`) at every threshold
 * 0, 1/steps, …, 1, for a chart of the trade-off. One sweep over the points sorted once.
 */
export function thresholdCurve(
  points: readonly TunePoint[],
  options: Pick<TuneOptions, 'costs' | 'minPrecision' | 'minRecall'> = {},
  steps = CURVE_STEPS,
): ThresholdMetrics[] {
  const settings: Settings = {
    minPrecision: options.minPrecision ?? 0,
    minRecall: options.minRecall ?? 0,
    costs: options.costs ?? null,
  };
  const sorted = sortByProbabilityDesc(points);
  const positives = points.filter((p) => p.positive).length;
  const negatives = points.length - positives;
  const out: ThresholdMetrics[] = [];
  let i = 0;
  let tp = 0;
  let fp = 0;
  for (let s = steps; s >= 0; s--) {
    const threshold = s / steps;
    while (i < sorted.length && predictYesNo(sorted[i]!.probability, threshold).yes) {
      if (sorted[i]!.positive) tp++;
      else fp++;
      i++;
    }
    out.push(metricsOf(threshold, { tp, fp, fn: positives - tp, tn: negatives - fp }, settings));
  }
  return out.reverse();
}
