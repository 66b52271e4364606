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
import { decisionCells } from './decision-cells.js';
import { wilsonInterval } from './wilson.js';

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
  const prepared = prepare(sample, units, calibrationOptionsOf(conventions));
  const point = new Float64Array(M);
  evaluate(prepared, new Int32Array(units.count).fill(1), point);
  const estimates = valuesOf(point);
  const draws = resample([prepared], conventions, units.count);
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
  options: { readonly blocks?: number } = {},
): PairedComparison {
  const blocks = options.blocks ?? DEFAULT_BOOTSTRAP_BLOCKS;
  const { common, keepFirst, keepSecond, onlyFirst, onlySecond } = matchIds(first.ids, second.ids);
  const unitsFirst = resamplingUnits(first.ids, keepFirst, common, conventions.seed, blocks);
  const unitsSecond = resamplingUnits(second.ids, keepSecond, common, conventions.seed, blocks);
  const cal = calibrationOptionsOf(conventions);
  const a = prepare(first, unitsFirst, cal);
  const b = prepare(second, unitsSecond, cal);
  const ones = new Int32Array(unitsFirst.count).fill(1);
  const pa = new Float64Array(M);
  const pb = new Float64Array(M);
  evaluate(a, ones, pa);
  evaluate(b, ones, pb);
  const draws = resample([a, b], conventions, unitsFirst.count);
  const diffs = draws === null ? null : draws[1]!.map((v, i) => v - draws[0]![i]!);
  const metrics = {} as Record<StatMetric, MetricComparison>;
  STAT_METRICS.forEach((m, j) => {
    const x = finite(pa[j]!);
    const y = finite(pb[j]!);
    const difference = x === null || y === null ? null : y - x;
    const interval = difference === null || diffs === null ? null : intervalOf(diffs, j, difference, true);
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
  /** Scratch for `evaluate`: the weighted cells, and the weighted sums of the six columns. */
  readonly cells: Float64Array;
  readonly sums: Float64Array;
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

function prepare(sample: CaseSample, units: Units, cal: CalibrationOptions): Prepared {
  const U = units.count;
  const rows = new Float64Array(U * W);
  const columns = [sample.kl, sample.brier, sample.logLoss] as const;
  const quanta = new Float64Array(3);
  let kept = 0;
  for (let i = 0; i < sample.nCases; i++) if (units.unitOf[i]! >= 0) kept++;
  columns.forEach((col, c) => {
    let max = 0;
    for (let i = 0; i < sample.nCases; i++) if (units.unitOf[i]! >= 0) max = Math.max(max, Math.abs(col[i]!));
    quanta[c] = quantum(kept, max);
  });
  for (let i = 0; i < sample.nCases; i++) {
    const u = units.unitOf[i]!;
    if (u < 0) continue;
    const o = u * W;
    rows[o] = rows[o]! + sample.decisions[i]!;
    rows[o + 1] = rows[o + 1]! + sample.correct[i]!;
    rows[o + 2] = rows[o + 2]! + sample.answered[i]!;
    for (let c = 0; c < 3; c++) rows[o + 3 + c] = rows[o + 3 + c]! + Math.round(columns[c]![i]! * quanta[c]!);
  }

  // ECE cells: per unit, Σ (hit - confidence) per question × bin, and the count per question.
  const cells = decisionCells(sample, cal, (i) => units.unitOf[i]! >= 0);
  const B = cells.bins;
  const G = cells.groups;
  const nCells = G * B + G;
  let nDec = 0;
  let maxConf = 1;
  for (let i = 0; i < sample.nDecisions; i++) {
    if (cells.cellOf[i]! < 0) continue;
    nDec++;
    maxConf = Math.max(maxConf, Math.abs(sample.confidence[i]!));
  }
  const cellQuantum = quantum(nDec, maxConf);
  // Counting sort of decisions by unit.
  const perUnit = new Int32Array(U + 1);
  for (let i = 0; i < sample.nDecisions; i++)
    if (cells.cellOf[i]! >= 0) perUnit[units.unitOf[sample.caseOf[i]!]! + 1]!++;
  for (let u = 0; u < U; u++) perUnit[u + 1]! += perUnit[u]!;
  const byUnit = new Int32Array(nDec);
  const fill = perUnit.slice(0, U);
  for (let i = 0; i < sample.nDecisions; i++)
    if (cells.cellOf[i]! >= 0) byUnit[fill[units.unitOf[sample.caseOf[i]!]!]!++] = i;
  // Each decision touches two cells (its bin, its question's count), and a unit has at most
  // one entry a cell: room for the smaller bound (a large run deals many decisions into
  // each block, so far fewer entries than two a decision).
  const room = Math.min(2 * nDec, U * nCells);
  const cellStart = new Int32Array(U + 1);
  const cellIndex = new Int32Array(room);
  const cellValue = new Float64Array(room);
  const stamp = new Int32Array(nCells).fill(-1);
  const scratch = new Float64Array(nCells);
  const touched: number[] = [];
  let e = 0;
  for (let u = 0; u < U; u++) {
    touched.length = 0;
    for (let k = perUnit[u]!; k < perUnit[u + 1]!; k++) {
      const i = byUnit[k]!;
      const cell = cells.cellOf[i]!;
      const count = G * B + cells.groupOf[i]!;
      if (stamp[cell] !== u) {
        stamp[cell] = u;
        scratch[cell] = 0;
        touched.push(cell);
      }
      if (stamp[count] !== u) {
        stamp[count] = u;
        scratch[count] = 0;
        touched.push(count);
      }
      scratch[cell] = scratch[cell]! + sample.hit[i]! * cellQuantum - Math.round(sample.confidence[i]! * cellQuantum);
      scratch[count] = scratch[count]! + 1;
    }
    cellStart[u] = e;
    for (const c of touched) {
      cellIndex[e] = c;
      cellValue[e++] = scratch[c]!;
    }
  }
  cellStart[U] = e;
  // Few cells (pooled ECE): a dense row per unit is faster to sum than the sparse entries.
  let dense: Float64Array | null = null;
  if (nCells <= DENSE_CELLS) {
    dense = new Float64Array(U * nCells);
    for (let u = 0; u < U; u++)
      for (let k = cellStart[u]!; k < cellStart[u + 1]!; k++) dense[u * nCells + cellIndex[k]!] = cellValue[k]!;
  }
  return {
    units: U,
    dense,
    rows,
    cellStart,
    cellIndex: cellIndex.slice(0, e),
    cellValue: cellValue.slice(0, e),
    nCells,
    bins: B,
    groups: G,
    quanta,
    cellQuantum,
    has: { ...sample.has, ece: nDec > 0 },
    cells: new Float64Array(nCells),
    sums: new Float64Array(W),
  };
}

/** Metrics of one weighting of the units (weight = times drawn), NaN where absent. */
function evaluate(p: Prepared, weights: Int32Array, out: Float64Array): void {
  addUnits(p, null, weights);
  metricsOf(p, out);
}

/**
 * The weighted sums of the units' columns (into `sums`) and cells (into `cells`) of `p`, and
 * of `q` alike when given (a paired comparison: both runs weighted by the same draw, in one
 * loop over the units). The columns are summed in locals and stored once: every sum is an
 * integer (see `quantum`), so the order of the additions cannot change a bit.
 */
function addUnits(p: Prepared, q: Prepared | null, weights: Int32Array): void {
  p.cells.fill(0);
  q?.cells.fill(0);
  const rp = p.rows;
  const rq = q === null ? p.rows : q.rows;
  let p0 = 0;
  let p1 = 0;
  let p2 = 0;
  let p3 = 0;
  let p4 = 0;
  let p5 = 0;
  let q0 = 0;
  let q1 = 0;
  let q2 = 0;
  let q3 = 0;
  let q4 = 0;
  let q5 = 0;
  for (let u = 0; u < p.units; u++) {
    const w = weights[u]!;
    if (w === 0) continue;
    const o = u * W;
    p0 += w * rp[o]!;
    p1 += w * rp[o + 1]!;
    p2 += w * rp[o + 2]!;
    p3 += w * rp[o + 3]!;
    p4 += w * rp[o + 4]!;
    p5 += w * rp[o + 5]!;
    addCells(p, u, w);
    if (q === null) continue;
    q0 += w * rq[o]!;
    q1 += w * rq[o + 1]!;
    q2 += w * rq[o + 2]!;
    q3 += w * rq[o + 3]!;
    q4 += w * rq[o + 4]!;
    q5 += w * rq[o + 5]!;
    addCells(q, u, w);
  }
  setSums(p.sums, p0, p1, p2, p3, p4, p5);
  if (q !== null) setSums(q.sums, q0, q1, q2, q3, q4, q5);
}

/** Adds unit `u`'s cells, `w` times, to `p.cells`. */
function addCells(p: Prepared, u: number, w: number): void {
  const { cells, dense, nCells } = p;
  if (dense !== null) {
    const d = u * nCells;
    for (let c = 0; c < nCells; c++) cells[c] = cells[c]! + w * dense[d + c]!;
    return;
  }
  const { cellIndex, cellValue } = p;
  const end = p.cellStart[u + 1]!;
  for (let e = p.cellStart[u]!; e < end; e++) {
    const c = cellIndex[e]!;
    cells[c] = cells[c]! + w * cellValue[e]!;
  }
}

function setSums(sums: Float64Array, s0: number, s1: number, s2: number, s3: number, s4: number, s5: number): void {
  sums[0] = s0;
  sums[1] = s1;
  sums[2] = s2;
  sums[3] = s3;
  sums[4] = s4;
  sums[5] = s5;
}

/** The metrics of the sums `addUnits` left in `p`. */
function metricsOf(p: Prepared, out: Float64Array): void {
  const { cells, sums } = p;
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
 * `resamples` draws of unit weights (multinomial: `units` draws with replacement), each
 * applied to every prepared sample alike; null when resamples are off or there are no units.
 * Returns, per sample, the metrics of resample r at [r * M + metric].
 */
function resample(samples: readonly Prepared[], conventions: Conventions, units: number): Float64Array[] | null {
  const R = conventions.bootstrapResamples;
  if (R <= 0 || units === 0) return null;
  const draws = createSeededDraws(conventions.seed);
  const weights = new Int32Array(units);
  const out = samples.map(() => new Float64Array(R * M));
  const row = new Float64Array(M);
  const [p, q] = samples;
  // A paired comparison weighs both runs by each draw in one loop over the units.
  const pair = samples.length === 2 && q!.units === p!.units;
  for (let r = 0; r < R; r++) {
    weights.fill(0);
    draws.countInto(weights, units);
    if (pair) {
      addUnits(p!, q!, weights);
      for (let i = 0; i < 2; i++) {
        metricsOf(samples[i]!, row);
        out[i]!.set(row, r * M);
      }
      continue;
    }
    for (let i = 0; i < samples.length; i++) {
      evaluate(samples[i]!, weights, row);
      out[i]!.set(row, r * M);
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
