/**
 * Case-level (cluster) bootstrap: 95% percentile intervals for accuracy, KL, Brier, log loss
 * and ECE, and the paired bootstrap of the difference between two runs on the same cases.
 *
 * - Resampling units are cases, never decisions (decisions of a case are correlated).
 * - Seeded (the seed is part of the conventions): the same sample and seed give the same
 *   interval, bit for bit, whatever the order the cases arrived in. Units are put in a
 *   canonical order (sorted ids) and every sum is exact (see `quantum` below).
 * - Large samples: above `blocks` cases (10,000 by default), cases are dealt into that many
 *   blocks by a seeded hash of their id and the blocks are resampled. Because cases are
 *   exchangeable and dealt at random, a block's sum has the variance of the sum of its
 *   cases, so resampling blocks gives the same variance as resampling cases, at a cost that
 *   no longer grows with the number of cases.
 * - An interval always contains the point estimate: each end is widened to it when needed
 *   (ECE's bootstrap distribution sits above the estimate, ECE being biased upward).
 * - No zero-width intervals: accuracy's is never narrower than the Wilson interval on the
 *   number of cases when cases hold one decision each or all agree (`atLeastWilson`);
 *   another metric whose resamples all agree has none (null).
 */
import type { CalibrationOptions } from '../calibration.js';
import { createSeededDraws, seededHash32 } from '../seeded-random.js';
import type { CaseSample } from './case-sample.js';
import { calibrationOptionsOf, type Conventions } from './conventions.js';
import { decisionCells, type DecisionCells } from './decision-cells.js';
import { wilsonInterval } from './wilson.js';
import { createWeightedSums, WEIGHTINGS_PER_PASS, type UnitColumn } from './weighted-sums.js';

export type StatMetric = 'accuracy' | 'kl' | 'brier' | 'logLoss' | 'ece';
export const STAT_METRICS: readonly StatMetric[] = ['accuracy', 'kl', 'brier', 'logLoss', 'ece'];

/** Higher is better for accuracy only; lower is better for the others. */
export function higherIsBetter(metric: StatMetric): boolean {
  return metric === 'accuracy';
}

/** A 95% interval, low <= high. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

export type MetricIntervals = Readonly<Record<StatMetric, Interval | null>>;
export type MetricValues = Readonly<Record<StatMetric, number | null>>;

export const DEFAULT_BOOTSTRAP_BLOCKS = 10_000;

export interface BootstrapOptions {
  /** Above this many cases, resample seeded random blocks of cases; default 10,000. */
  readonly blocks?: number;
  /**
   * Point estimates the intervals must contain (the summary's numbers); by default the
   * sample's own. They differ from the sample's by rounding only.
   */
  readonly estimates?: Partial<Record<StatMetric, number | null>>;
}

export interface BootstrapResult {
  /** Point estimates from the sample (null when a metric has no data). */
  readonly estimates: MetricValues;
  /** null per metric when it has no data or intervals are off (0 resamples). */
  readonly intervals: MetricIntervals;
  /** Resampling units: cases, or blocks of cases for large samples. */
  readonly units: number;
  readonly resamples: number;
}

const W = 6; // per-unit columns: decisions, correct, answered, kl, brier, log loss
const DENSE_CELLS = 64;
const M = STAT_METRICS.length;

/** Intervals for one run's metrics. */
export function bootstrapIntervals(
  sample: CaseSample,
  conventions: Conventions,
  options: BootstrapOptions = {},
): BootstrapResult {
  const blocks = options.blocks ?? DEFAULT_BOOTSTRAP_BLOCKS;
  const units = resamplingUnits(sample.ids, null, sample.nCases, conventions.seed, blocks);
  const weighing = createWeighing(
    [prepare(sample, units, calibrationOptionsOf(conventions))],
    units.count,
    STAT_METRICS,
  );
  const [point] = weighing.point();
  const estimates = valuesOf(point!);
  const draws = resample(weighing, conventions);
  const intervals = {} as Record<StatMetric, Interval | null>;
  STAT_METRICS.forEach((m, j) => {
    const wanted = options.estimates?.[m];
    const est = wanted === undefined ? estimates[m] : wanted;
    const boot = est === null || draws === null ? null : intervalOf(draws[0]!, j, est);
    intervals[m] = m === 'accuracy' && est !== null && draws !== null ? atLeastWilson(boot, est, sample) : boot;
  });
  return { estimates, intervals, units: units.count, resamples: draws === null ? 0 : conventions.bootstrapResamples };
}

export type Verdict = 'better' | 'worse' | 'within_noise';

/** One metric of a paired comparison: `second - first`, over the cases both runs have. */
export interface MetricComparison {
  readonly first: number | null;
  readonly second: number | null;
  /** second - first; null when either is absent. */
  readonly difference: number | null;
  /** 95% paired interval of the difference; null when absent or intervals are off. */
  readonly interval: Interval | null;
  /** Whether `second` is better than `first` beyond noise (direction-aware); null without an interval. */
  readonly verdict: Verdict | null;
}

export interface PairedComparison {
  /** Cases (distinct ids) both runs have: the only ones compared. */
  readonly cases: number;
  /** Cases of one run that the other lacks (left out). */
  readonly onlyFirst: number;
  readonly onlySecond: number;
  readonly metrics: Readonly<Record<StatMetric, MetricComparison>>;
  readonly resamples: number;
}

/**
 * Paired bootstrap of `second - first` on the cases both samples have (matched by id): each
 * resample draws the same cases for both runs, so what the runs share (the difficulty of
 * each case) cancels and the interval is narrower than two independent ones.
 */
export function pairedBootstrap(
  first: CaseSample,
  second: CaseSample,
  conventions: Conventions,
  options: {
    readonly blocks?: number;
    /**
     * The metrics whose paired intervals and verdicts are wanted; the others get their
     * numbers and difference without them (null). Default: all five.
     */
    readonly metrics?: readonly StatMetric[];
  } = {},
): PairedComparison {
  const blocks = options.blocks ?? DEFAULT_BOOTSTRAP_BLOCKS;
  const wanted = options.metrics ?? STAT_METRICS;
  const { common, keepFirst, keepSecond, onlyFirst, onlySecond } = matchIds(first.ids, second.ids);
  const unitsFirst = resamplingUnits(first.ids, keepFirst, common, conventions.seed, blocks);
  // Runs over the same ids in the same order (the usual pair) have the same units.
  const unitsSecond =
    keepFirst === null && keepSecond === null
      ? unitsFirst
      : resamplingUnits(second.ids, keepSecond, common, conventions.seed, blocks);
  const cal = calibrationOptionsOf(conventions);
  // Both runs weighed by each draw alike, in one pass over the units.
  const weighing = createWeighing(
    [prepare(first, unitsFirst, cal), prepare(second, unitsSecond, cal)],
    unitsFirst.count,
    wanted,
  );
  const [pa, pb] = weighing.point();
  const draws = resample(weighing, conventions);
  const diffs = draws === null ? null : draws[1]!.map((v, i) => v - draws[0]![i]!);
  const metrics = {} as Record<StatMetric, MetricComparison>;
  STAT_METRICS.forEach((m, j) => {
    const x = finite(pa![j]!);
    const y = finite(pb![j]!);
    const difference = x === null || y === null ? null : y - x;
    const interval =
      difference === null || diffs === null || !wanted.includes(m) ? null : intervalOf(diffs, j, difference, true);
    metrics[m] = {
      first: x,
      second: y,
      difference,
      interval,
      verdict: interval === null ? null : verdictOf(m, interval),
    };
  });
  return {
    cases: common,
    onlyFirst,
    onlySecond,
    metrics,
    resamples: draws === null ? 0 : conventions.bootstrapResamples,
  };
}

/**
 * Verdict on `second - first` from its 95% interval: beyond noise only when the interval
 * excludes 0; then better or worse by the metric's direction.
 */
export function verdictOf(metric: StatMetric, differenceInterval: Interval): Verdict {
  return verdictByDirection(higherIsBetter(metric), differenceInterval);
}

/** The verdict rule of `verdictOf` for any metric, given its direction. */
export function verdictByDirection(higherBetter: boolean, differenceInterval: Interval): Verdict {
  const up = differenceInterval.low > 0;
  const down = differenceInterval.high < 0;
  if (!up && !down) return 'within_noise';
  return up === higherBetter ? 'better' : 'worse';
}

/** Whether two intervals share a point. */
export function intervalsOverlap(a: Interval, b: Interval): boolean {
  return a.low <= b.high && b.low <= a.high;
}

// ---------------------------------------------------------------------------------------

/**
 * Which cases of each run the other has (by id), and how many distinct ids they share. Two
 * runs over the same cases in the same order (the usual case) need no sets.
 */
function matchIds(
  a: readonly string[],
  b: readonly string[],
): {
  common: number;
  keepFirst: Uint8Array | null;
  keepSecond: Uint8Array | null;
  onlyFirst: number;
  onlySecond: number;
} {
  let same = a.length === b.length;
  for (let i = 0; same && i < a.length; i++) same = a[i] === b[i];
  if (same) {
    const distinct = a.length <= 1 ? a.length : new Set(a).size;
    return { common: distinct, keepFirst: null, keepSecond: null, onlyFirst: 0, onlySecond: 0 };
  }
  const inFirst = new Set(a);
  const inSecond = new Set(b);
  let common = 0;
  for (const id of inSecond) if (inFirst.has(id)) common++;
  return {
    common,
    keepFirst: Uint8Array.from(a, (id) => (inSecond.has(id) ? 1 : 0)),
    keepSecond: Uint8Array.from(b, (id) => (inFirst.has(id) ? 1 : 0)),
    onlyFirst: inFirst.size - common,
    onlySecond: inSecond.size - common,
  };
}

export interface Units {
  /** Unit of each case, -1 when left out. */
  readonly unitOf: Int32Array;
  readonly count: number;
}

/**
 * Units in a canonical order: up to `blocks` cases, one unit per distinct id in id order;
 * beyond, the block seededHash32(id, seed) mod blocks. Either way only the ids (and seed)
 * decide, not the input order.
 */
export function resamplingUnits(
  ids: readonly string[],
  keep: Uint8Array | null,
  n: number,
  seed: number,
  blocks: number,
): Units {
  const unitOf = new Int32Array(ids.length).fill(-1);
  if (n > blocks) {
    for (let i = 0; i < ids.length; i++) if (keep === null || keep[i]) unitOf[i] = seededHash32(ids[i]!, seed) % blocks;
    return { unitOf, count: blocks };
  }
  const order: number[] = [];
  for (let i = 0; i < ids.length; i++) if (keep === null || keep[i]) order.push(i);
  order.sort((x, y) => (ids[x]! < ids[y]! ? -1 : ids[x]! > ids[y]! ? 1 : 0));
  let count = 0;
  for (let k = 0; k < order.length; k++) {
    if (k > 0 && ids[order[k]!] !== ids[order[k - 1]!]) count++;
    unitOf[order[k]!] = count;
  }
  return { unitOf, count: order.length === 0 ? 0 : count + 1 };
}

interface Prepared {
  readonly units: number;
  readonly rows: Float64Array;
  readonly cellStart: Int32Array;
  /** The cells as a dense units × nCells matrix, when there are few. */
  readonly dense: Float64Array | null;
  readonly cellIndex: Int32Array;
  readonly cellValue: Float64Array;
  readonly nCells: number;
  readonly bins: number;
  readonly groups: number;
  /** Quanta of the KL, Brier and log-loss columns and of the ECE cells. */
  readonly quanta: Float64Array;
  readonly cellQuantum: number;
  readonly has: { readonly kl: boolean; readonly brier: boolean; readonly logLoss: boolean; readonly ece: boolean };
}

/**
 * Values are summed as integer multiples of a power-of-two quantum chosen so every sum stays
 * below 2^53 with room to spare: integer sums are exact, so the order of addition (of cases
 * into blocks, of blocks into a resample) cannot change a single bit. The quantum is at most
 * 2^-32 of a unit and at most 2^-50 of the largest possible total: far below any printed digit.
 */
function quantum(n: number, maxAbs: number): number {
  const bound = Math.max(1, n * maxAbs);
  return 2 ** Math.min(32, 50 - Math.ceil(Math.log2(bound)));
}

// `prepare` runs once a sample, over every case and decision: each of its loops is a function
// of its own, so that the loop is compiled while it runs and the code after it, not yet run,
// does not throw the compiled code away (a cold command spends most of `prepare` there).

function prepare(sample: CaseSample, units: Units, cal: CalibrationOptions): Prepared {
  const U = units.count;
  const quanta = columnQuanta(sample, units.unitOf);
  const rows = unitRows(sample, units, quanta);
  // ECE cells: per unit, Σ (hit - confidence) per question × bin, and the count per question.
  const cells = decisionCells(sample, cal, (i) => units.unitOf[i]! >= 0);
  const nCells = cells.groups * cells.bins + cells.groups;
  const { nDec, maxConf } = keptDecisions(sample, cells.cellOf);
  const cellQuantum = quantum(nDec, maxConf);
  const { perUnit, byUnit } = decisionsByUnit(sample, cells.cellOf, units, nDec);
  const entries = unitCells(sample, cells, { perUnit, byUnit, units: U, nCells, nDec, cellQuantum });
  return {
    units: U,
    // Few cells (pooled ECE): a dense row per unit is faster to sum than the sparse entries.
    dense: nCells <= DENSE_CELLS ? denseCells(entries, U, nCells) : null,
    rows,
    ...entries,
    nCells,
    bins: cells.bins,
    groups: cells.groups,
    quanta,
    cellQuantum,
    has: { ...sample.has, ece: nDec > 0 },
  };
}

/** The quanta of the KL, Brier and log-loss columns over the cases kept. */
function columnQuanta(sample: CaseSample, unitOf: Int32Array): Float64Array {
  const quanta = new Float64Array(3);
  let kept = 0;
  for (let i = 0; i < sample.nCases; i++) if (unitOf[i]! >= 0) kept++;
  [sample.kl, sample.brier, sample.logLoss].forEach((col, c) => (quanta[c] = quantum(kept, maxAbsKept(col, unitOf))));
  return quanta;
}

function maxAbsKept(col: Float64Array, unitOf: Int32Array): number {
  let max = 0;
  for (let i = 0; i < col.length; i++) if (unitOf[i]! >= 0) max = Math.max(max, Math.abs(col[i]!));
  return max;
}

/** Per unit, the six column sums of its cases (KL, Brier and log loss in quanta). */
function unitRows(sample: CaseSample, units: Units, quanta: Float64Array): Float64Array {
  const rows = new Float64Array(units.count * W);
  const { unitOf } = units;
  const { decisions, correct, answered, kl, brier, logLoss } = sample;
  const q0 = quanta[0]!;
  const q1 = quanta[1]!;
  const q2 = quanta[2]!;
  for (let i = 0; i < sample.nCases; i++) {
    const u = unitOf[i]!;
    if (u < 0) continue;
    const o = u * W;
    rows[o] = rows[o]! + decisions[i]!;
    rows[o + 1] = rows[o + 1]! + correct[i]!;
    rows[o + 2] = rows[o + 2]! + answered[i]!;
    rows[o + 3] = rows[o + 3]! + Math.round(kl[i]! * q0);
    rows[o + 4] = rows[o + 4]! + Math.round(brier[i]! * q1);
    rows[o + 5] = rows[o + 5]! + Math.round(logLoss[i]! * q2);
  }
  return rows;
}

/** How many decisions have a cell, and the largest confidence among them (at least 1). */
function keptDecisions(sample: CaseSample, cellOf: Int32Array): { nDec: number; maxConf: number } {
  let nDec = 0;
  let maxConf = 1;
  for (let i = 0; i < sample.nDecisions; i++) {
    if (cellOf[i]! < 0) continue;
    nDec++;
    maxConf = Math.max(maxConf, Math.abs(sample.confidence[i]!));
  }
  return { nDec, maxConf };
}

/** The decisions with a cell, in unit order (a counting sort), and where each unit's start. */
function decisionsByUnit(
  sample: CaseSample,
  cellOf: Int32Array,
  units: Units,
  nDec: number,
): { perUnit: Int32Array; byUnit: Int32Array } {
  const U = units.count;
  const { unitOf } = units;
  const { caseOf } = sample;
  const perUnit = new Int32Array(U + 1);
  for (let i = 0; i < sample.nDecisions; i++) if (cellOf[i]! >= 0) perUnit[unitOf[caseOf[i]!]! + 1]!++;
  for (let u = 0; u < U; u++) perUnit[u + 1]! += perUnit[u]!;
  const byUnit = new Int32Array(nDec);
  const fill = perUnit.slice(0, U);
  for (let i = 0; i < sample.nDecisions; i++) if (cellOf[i]! >= 0) byUnit[fill[unitOf[caseOf[i]!]!]!++] = i;
  return { perUnit, byUnit };
}

/** Per unit, its nonzero-able cells as sparse entries: cell index and value (in quanta), in the order first touched. */
function unitCells(
  sample: CaseSample,
  cells: DecisionCells,
  at: {
    readonly perUnit: Int32Array;
    readonly byUnit: Int32Array;
    readonly units: number;
    readonly nCells: number;
    readonly nDec: number;
    readonly cellQuantum: number;
  },
): { cellStart: Int32Array; cellIndex: Int32Array; cellValue: Float64Array } {
  const { perUnit, byUnit, units: U, nCells, cellQuantum } = at;
  const { cellOf, groupOf } = cells;
  const { hit, confidence } = sample;
  const counts = cells.groups * cells.bins;
  // Each decision touches two cells (its bin, its question's count), and a unit has at most
  // one entry a cell: room for the smaller bound (a large run deals many decisions into
  // each block, so far fewer entries than two a decision).
  const room = Math.min(2 * at.nDec, U * nCells);
  const cellStart = new Int32Array(U + 1);
  const cellIndex = new Int32Array(room);
  const cellValue = new Float64Array(room);
  const stamp = new Int32Array(nCells).fill(-1);
  const scratch = new Float64Array(nCells);
  const touched = new Int32Array(nCells);
  let e = 0;
  for (let u = 0; u < U; u++) {
    let nTouched = 0;
    for (let k = perUnit[u]!; k < perUnit[u + 1]!; k++) {
      const i = byUnit[k]!;
      const cell = cellOf[i]!;
      const count = counts + groupOf[i]!;
      if (stamp[cell] !== u) {
        stamp[cell] = u;
        scratch[cell] = 0;
        touched[nTouched++] = cell;
      }
      if (stamp[count] !== u) {
        stamp[count] = u;
        scratch[count] = 0;
        touched[nTouched++] = count;
      }
      scratch[cell] = scratch[cell]! + hit[i]! * cellQuantum - Math.round(confidence[i]! * cellQuantum);
      scratch[count] = scratch[count]! + 1;
    }
    cellStart[u] = e;
    for (let t = 0; t < nTouched; t++) {
      const c = touched[t]!;
      cellIndex[e] = c;
      cellValue[e++] = scratch[c]!;
    }
  }
  cellStart[U] = e;
  return { cellStart, cellIndex: cellIndex.slice(0, e), cellValue: cellValue.slice(0, e) };
}

/** The sparse entries as a dense units × cells matrix. */
function denseCells(
  entries: { readonly cellStart: Int32Array; readonly cellIndex: Int32Array; readonly cellValue: Float64Array },
  units: number,
  nCells: number,
): Float64Array {
  const { cellStart, cellIndex, cellValue } = entries;
  const dense = new Float64Array(units * nCells);
  for (let u = 0; u < units; u++)
    for (let k = cellStart[u]!; k < cellStart[u + 1]!; k++) dense[u * nCells + cellIndex[k]!] = cellValue[k]!;
  return dense;
}

/** The metrics of weightings of the units (weight = times drawn) of prepared samples over the same units. */
interface Weighing {
  readonly samples: number;
  /** Each sample's metrics with every unit weighed once, NaN where absent. */
  point(): Float64Array[];
  /** Weighting k's units' weights at `weights[k * units + u]`, k < `WEIGHTINGS_PER_PASS`. */
  readonly weights: Int32Array;
  /** Sums the first `n` weightings of `weights` (the others must be 0). */
  weigh(n: number): void;
  /** Sample i's metrics under weighting k of the last `weigh`, NaN where absent. */
  metrics(k: number, i: number, out: Float64Array): void;
}

/**
 * Every sample's six sums and dense cells go through `createWeightedSums` together (one
 * pass over the units for many weightings of all of them); sparse cells are added unit by
 * unit, weighting by weighting. Each sum adds the same terms in the same order as one
 * weighting of one sample alone would.
 */
function createWeighing(samples: readonly Prepared[], units: number, wanted: readonly StatMetric[]): Weighing {
  const columns: UnitColumn[] = [];
  const resampled: (UnitColumn | null)[] = [];
  const wantedColumn = columnsOfMetrics(wanted);
  const first = samples.map((p) => {
    if (p.units !== units) throw new TypeError('createWeighing: samples over different units');
    const at = columns.length;
    for (let j = 0; j < W; j++) columns.push({ values: p.rows, stride: W, offset: j });
    if (p.dense !== null)
      for (let c = 0; c < p.nCells; c++) columns.push({ values: p.dense, stride: p.nCells, offset: c });
    for (let j = at; j < columns.length; j++) resampled.push(wantedColumn(j - at) ? columns[j]! : null);
    return at;
  });
  // Every column for the point estimates; the resamples sum only the wanted metrics' columns.
  const every = createWeightedSums(columns, units);
  const some = wanted.length === M ? every : createWeightedSums(resampled, units);
  let summed = some;
  const weights = new Int32Array(WEIGHTINGS_PER_PASS * units);
  const sums = new Float64Array(WEIGHTINGS_PER_PASS * every.width);
  const sparse = samples.map((p) => (p.dense === null ? new Float64Array(WEIGHTINGS_PER_PASS * p.nCells) : null));
  const rowSums = new Float64Array(W);
  const cells = samples.map((p) => new Float64Array(p.nCells));
  const weigh = (n: number): void => {
    summed.sum(weights, sums);
    if (summed !== every && !wanted.includes('ece')) return;
    samples.forEach((p, i) => {
      const into = sparse[i];
      if (into === null || into === undefined) return;
      into.fill(0);
      for (let k = 0; k < n; k++) addSparseCells(p, weights.subarray(k * units, (k + 1) * units), into, k * p.nCells);
    });
  };
  const metrics = (k: number, i: number, out: Float64Array): void => {
    const p = samples[i]!;
    const row = k * summed.width;
    const of = (column: number): number => {
      const at = summed.slot[first[i]! + column]!;
      return at < 0 ? 0 : sums[row + at]!;
    };
    for (let j = 0; j < W; j++) rowSums[j] = of(j);
    const into = cells[i]!;
    const fromSparse = sparse[i];
    if (fromSparse === null || fromSparse === undefined) for (let c = 0; c < p.nCells; c++) into[c] = of(W + c);
    else into.set(fromSparse.subarray(k * p.nCells, (k + 1) * p.nCells));
    metricsOf(p, rowSums, into, out);
  };
  const point = (): Float64Array[] => {
    summed = every;
    weights.fill(0);
    weights.fill(1, 0, units);
    weigh(1);
    const out = samples.map((_, i) => {
      const values = new Float64Array(M);
      metrics(0, i, values);
      return values;
    });
    summed = some;
    return out;
  };
  return { samples: samples.length, point, weights, weigh, metrics };
}

/** Which of a sample's columns (the six sums, then the cells) the metrics are made from. */
function columnsOfMetrics(metrics: readonly StatMetric[]): (column: number) => boolean {
  const rows = new Set<number>();
  for (const m of metrics) {
    if (m === 'accuracy') rows.add(0).add(1);
    if (m === 'kl') rows.add(2).add(3);
    if (m === 'brier') rows.add(2).add(4);
    if (m === 'logLoss') rows.add(2).add(5);
  }
  const cells = metrics.includes('ece');
  return (column) => (column < W ? rows.has(column) : cells);
}

/** Adds the sparse cells of every unit, `weights[u]` times each, to `into` from `at`. */
function addSparseCells(p: Prepared, weights: Int32Array, into: Float64Array, at: number): void {
  const { cellStart, cellIndex, cellValue } = p;
  for (let u = 0; u < p.units; u++) {
    const w = weights[u]!;
    if (w === 0) continue;
    const end = cellStart[u + 1]!;
    for (let e = cellStart[u]!; e < end; e++) {
      const c = at + cellIndex[e]!;
      into[c] = into[c]! + w * cellValue[e]!;
    }
  }
}

/** The metrics of a weighting's six sums and cells (see `prepare`), NaN where absent. */
function metricsOf(p: Prepared, sums: Float64Array, cells: Float64Array, out: Float64Array): void {
  const s0 = sums[0]!;
  const s1 = sums[1]!;
  const s2 = sums[2]!;
  const s3 = sums[3]!;
  const s4 = sums[4]!;
  const s5 = sums[5]!;
  out[0] = s0 > 0 ? s1 / s0 : NaN;
  out[1] = p.has.kl && s2 > 0 ? s3 / p.quanta[0]! / s2 : NaN;
  out[2] = p.has.brier && s2 > 0 ? s4 / p.quanta[1]! / s2 : NaN;
  out[3] = p.has.logLoss && s2 > 0 ? s5 / p.quanta[2]! / s2 : NaN;
  // ECE = Σ_b |hits_b - Σconfidence_b| / n per question, then the mean over questions present.
  let ece = 0;
  let present = 0;
  const B = p.bins;
  for (let g = 0; g < p.groups; g++) {
    const n = cells[p.groups * B + g]!;
    if (n === 0) continue;
    let gap = 0;
    for (let b = g * B; b < g * B + B; b++) gap += Math.abs(cells[b]!);
    ece += gap / p.cellQuantum / n;
    present++;
  }
  out[4] = p.has.ece && present > 0 ? ece / present : NaN;
}

/**
 * `resamples` draws of unit weights (multinomial: as many draws as units, with replacement),
 * each applied to every sample of the weighing alike, `WEIGHTINGS_PER_PASS` draws summed a
 * pass; null when resamples are off or there are no units. Returns, per sample, the metrics
 * of resample r at [r * M + metric].
 */
function resample(weighing: Weighing, conventions: Conventions): Float64Array[] | null {
  const R = conventions.bootstrapResamples;
  const { weights } = weighing;
  const units = weights.length / WEIGHTINGS_PER_PASS;
  if (R <= 0 || units === 0) return null;
  const draws = createSeededDraws(conventions.seed);
  const out = Array.from({ length: weighing.samples }, () => new Float64Array(R * M));
  const row = new Float64Array(M);
  for (let r0 = 0; r0 < R; r0 += WEIGHTINGS_PER_PASS) {
    const n = Math.min(WEIGHTINGS_PER_PASS, R - r0);
    weights.fill(0);
    // In resample order: the same stream of draws as one resample at a time.
    draws.countEachInto(weights.subarray(0, n * units), units);
    weighing.weigh(n);
    for (let k = 0; k < n; k++)
      for (let i = 0; i < out.length; i++) {
        weighing.metrics(k, i, row);
        out[i]!.set(row, (r0 + k) * M);
      }
  }
  return out;
}

/**
 * 2.5th and 97.5th percentiles (linear interpolation) of metric j's finite draws, widened to
 * `estimate`. Draws that all agree give null, unless `point` (a paired difference: two runs
 * that agree on every case differ by exactly that, which is within noise when it is 0).
 */
function intervalOf(draws: Float64Array, j: number, estimate: number, point = false): Interval | null {
  const R = draws.length / M;
  const values = new Float64Array(R);
  let n = 0;
  for (let r = 0; r < R; r++) {
    const v = draws[r * M + j]!;
    if (v === v) values[n++] = v;
  }
  return percentileInterval(values.subarray(0, n), estimate, point);
}

/**
 * The 95% percentile interval of finite draws (2.5th and 97.5th percentiles, linear
 * interpolation), widened to `estimate`; null without draws, or when they all agree unless
 * `point` (see `intervalOf`). Sorts `values` in place.
 */
export function percentileInterval(values: Float64Array, estimate: number, point = false): Interval | null {
  const n = values.length;
  if (n === 0) return null;
  const sorted = values.sort();
  // Every resample gave the same value (one case, or all cases alike): a percentile interval
  // would have zero width, so there is none (accuracy then gets the Wilson interval).
  if (!point && sorted[0] === sorted[n - 1]) return null;
  const at = (q: number): number => {
    const rank = (n - 1) * q;
    const lo = Math.floor(rank);
    const hi = Math.ceil(rank);
    return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
  };
  return { low: Math.min(at(0.025), estimate), high: Math.max(at(0.975), estimate) };
}

/**
 * The accuracy interval is never narrower than the Wilson interval of the same rate on the
 * number of cases when either (a) every case holds one decision (cases are then the
 * independent trials, as in `probe`), or (b) every case has the same accuracy, so the
 * percentile bootstrap has zero width (1 case, or 20 of 20 right): the data then cannot show
 * how far a case's decisions agree, and cases are the effective sample size if they agree
 * fully. Other clustered samples keep their bootstrap interval, which measures that agreement.
 */
function atLeastWilson(boot: Interval | null, accuracy: number, sample: CaseSample): Interval | null {
  let cases = 0;
  let decisions = 0;
  for (let i = 0; i < sample.nCases; i++)
    if (sample.decisions[i]! > 0) {
      cases++;
      decisions += sample.decisions[i]!;
    }
  if (boot !== null && decisions !== cases) return boot;
  const w = wilsonInterval(accuracy * cases, cases);
  if (w === null) return boot;
  if (boot === null) return w;
  return { low: Math.min(boot.low, w.low), high: Math.max(boot.high, w.high) };
}

function finite(v: number): number | null {
  return v === v ? v : null;
}

function valuesOf(point: Float64Array): MetricValues {
  const out = {} as Record<StatMetric, number | null>;
  STAT_METRICS.forEach((m, j) => (out[m] = finite(point[j]!)));
  return out;
}
