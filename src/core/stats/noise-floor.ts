/**
 * The ECE noise floor: the ECE a perfectly calibrated model with the same confidences would
 * show on this many decisions. Each simulation draws every outcome ~ Bernoulli(confidence)
 * and bins it exactly as the measured run (same cells, same equal-mass edges). A measured
 * ECE at or below the 95th percentile of the simulations is "within noise": a calibrated
 * model would show that much about one time in twenty or more.
 *
 * A tie is within noise. The percentile is itself estimated from the simulations, and on few
 * decisions ECE takes few values: a measured ECE on the true percentile would be placed above
 * or below the estimate by the seed alone. So the verdict is "beyond noise" only when the ECE
 * lies above the upper end of the estimate's own 95% interval (the order statistic at rank
 * 0.95·S + 1.96·√(S·0.95·0.05), `p95Upper`), where no seed can bring the percentile up to it.
 *
 * Cost: a cell (question × bin) with up to 200 decisions draws each outcome; a larger cell
 * draws its number of hits from the normal approximation of that sum of Bernoullis (mean
 * Σc, variance Σc(1-c), rounded and kept in [0, n]), so a million decisions cost no more
 * than a few thousand.
 */
import type { CalibrationOptions } from '../calibration.js';
import { createSeededRandom, standardNormalOf } from '../seeded-random.js';
import type { CaseSample } from './case-sample.js';
import { decisionCells } from './decision-cells.js';

export interface EceNoiseFloor {
  /** Mean simulated ECE. */
  readonly mean: number;
  /** 95th percentile of the simulated ECE (linear interpolation). */
  readonly p95: number;
  /**
   * Upper end of the 95% interval of that percentile's estimate (the simulations' own error):
   * a measured ECE up to it ties with the percentile, and a tie is within noise.
   */
  readonly p95Upper: number;
  readonly simulations: number;
}

/** The noise floor of a measured ECE, and where the ECE lies against it (runs and offline scores alike). */
export interface EceNoise extends EceNoiseFloor {
  /**
   * The measured ECE is at or below the 95th percentile, or ties with it within the
   * simulations' error (`p95Upper`): indistinguishable from perfect calibration.
   */
  readonly withinNoise: boolean;
  /** Within noise by the tie rule: above the estimated percentile, not above `p95Upper`. Absent from runs stored before the rule. */
  readonly tie?: boolean;
}

/**
 * 2,000: on few decisions ECE takes few values and the 95th percentile sits on one of them;
 * with 500 simulations the estimate of that percentile fell on the neighbouring value for
 * some seeds (docs/scoring.md, "Intervals and noise").
 */
export const DEFAULT_NOISE_SIMULATIONS = 2000;
/**
 * By default, fewer simulations (never under 500) when drawing decision by decision would
 * exceed this many draws (over 12,500 decisions in small cells, e.g. many questions averaged
 * per question): the cost then stays as it was with 500, and with that many decisions ECE
 * takes many values, so 500 simulations already place its percentile steadily.
 */
export const DEFAULT_DRAW_BUDGET = 25_000_000;
const MIN_DEFAULT_SIMULATIONS = 500;
/** Cells up to this size simulate each decision; larger ones use the normal approximation. */
export const EXACT_CELL_LIMIT = 200;

export interface NoiseFloorOptions {
  readonly seed: number;
  /** Default 2,000 (fewer, down to 500, on very many small cells: DEFAULT_DRAW_BUDGET). */
  readonly simulations?: number;
}

/** null when the sample has no calibration decisions or simulations is 0. */
export function eceNoiseFloor(
  sample: CaseSample,
  calibration: CalibrationOptions,
  options: NoiseFloorOptions,
): EceNoiseFloor | null {
  if (sample.nDecisions === 0 || options.simulations === 0) return null;
  const cells = decisionCells(sample, calibration);
  const B = cells.bins;
  const G = cells.groups;
  const C = G * B;
  // Group decisions by cell, each cell's confidences sorted: a canonical order for the draws.
  const start = new Int32Array(C + 1);
  for (let i = 0; i < sample.nDecisions; i++) start[cells.cellOf[i]! + 1]!++;
  for (let c = 0; c < C; c++) start[c + 1]! += start[c]!;
  const conf = new Float64Array(sample.nDecisions);
  const fill = start.slice(0, C);
  for (let i = 0; i < sample.nDecisions; i++) conf[fill[cells.cellOf[i]!]!++] = sample.confidence[i]!;
  const sumConf = new Float64Array(C);
  const variance = new Float64Array(C);
  const groupN = new Float64Array(G);
  // Sums as integer multiples of a power of two kept below 2^52 (exact, so order-free without
  // sorting a million values); only cells small enough to draw decision by decision are
  // sorted, for a canonical order.
  for (let c = 0; c < C; c++) {
    const n = start[c + 1]! - start[c]!;
    const Q = 2 ** Math.min(32, 52 - Math.ceil(Math.log2(n + 1)));
    const cellConf = conf.subarray(start[c]!, start[c + 1]!);
    if (n <= EXACT_CELL_LIMIT) cellConf.sort();
    let s = 0;
    let v = 0;
    for (let k = 0; k < n; k++) {
      const x = cellConf[k]!;
      s += Math.round(x * Q);
      v += Math.round(x * (1 - x) * Q);
    }
    sumConf[c] = s / Q;
    variance[c] = v / Q;
    groupN[Math.floor(c / B)]! += n;
  }
  let exactDraws = 0;
  for (let c = 0; c < C; c++)
    if (start[c + 1]! - start[c]! <= EXACT_CELL_LIMIT) exactDraws += start[c + 1]! - start[c]!;
  const S =
    options.simulations ??
    Math.max(
      MIN_DEFAULT_SIMULATIONS,
      Math.min(DEFAULT_NOISE_SIMULATIONS, Math.floor(DEFAULT_DRAW_BUDGET / Math.max(1, exactDraws))),
    );
  if (S <= 0) return null;
  let groupsPresent = 0;
  for (let g = 0; g < G; g++) if (groupN[g]! > 0) groupsPresent++;

  const random = createSeededRandom(options.seed);
  const normal = standardNormalOf(random);
  const draws = new Float64Array(S);
  for (let s = 0; s < S; s++) {
    let ece = 0;
    for (let g = 0; g < G; g++) {
      if (groupN[g] === 0) continue;
      let gap = 0;
      for (let c = g * B; c < g * B + B; c++) {
        const n = start[c + 1]! - start[c]!;
        if (n === 0) continue;
        let hits = 0;
        if (n <= EXACT_CELL_LIMIT) {
          for (let k = start[c]!; k < start[c + 1]!; k++) if (random() < conf[k]!) hits++;
        } else {
          hits = Math.min(n, Math.max(0, Math.round(sumConf[c]! + Math.sqrt(variance[c]!) * normal())));
        }
        gap += Math.abs(hits - sumConf[c]!);
      }
      ece += gap / groupN[g]!;
    }
    draws[s] = ece / groupsPresent;
  }
  let total = 0;
  for (const d of draws) total += d;
  draws.sort();
  const rank = (S - 1) * 0.95;
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const upper = Math.min(S - 1, Math.ceil(S * 0.95 + 1.96 * Math.sqrt(S * 0.95 * 0.05)) - 1);
  return {
    mean: total / S,
    p95: draws[lo]! + (draws[hi]! - draws[lo]!) * (rank - lo),
    p95Upper: draws[upper]!,
    simulations: S,
  };
}

/**
 * Values of ECE (which lies in [0, 1]) closer than this are the same value: the simulation
 * sums confidences in fixed point (2^-32 steps), so a simulated ECE that lands on the very
 * value measured can differ from it by about 1e-11.
 */
export const ECE_EQUALITY_TOLERANCE = 1e-9;

/**
 * "Within noise": the measured ECE is at or below the calibrated model's 95th percentile, or
 * ties with it: not above the upper end of the percentile's estimate (`p95Upper`), equal up
 * to rounding (ECE_EQUALITY_TOLERANCE) counting as at. With few decisions ECE takes few
 * values, and the measured one often lands exactly on the percentile.
 */
export function eceWithinNoise(ece: number, floor: EceNoiseFloor): boolean {
  return ece <= Math.max(floor.p95, floor.p95Upper) + ECE_EQUALITY_TOLERANCE;
}

/** The floor with its verdict on a measured ECE, and whether the tie rule decided it. */
export function eceNoiseOf(ece: number, floor: EceNoiseFloor): EceNoise {
  const withinNoise = eceWithinNoise(ece, floor);
  return { ...floor, withinNoise, tie: withinNoise && ece > floor.p95 + ECE_EQUALITY_TOLERANCE };
}
