/**
 * A debiased ECE and its 95% interval (docs/scoring.md, "Debiased ECE").
 *
 * The plug-in ECE, Σ_b (n_b/N)·|g_b| with g_b = ȳ_b − c̄_b (accuracy minus mean confidence of
 * bin b), is biased upward: the noise in each bin's accuracy can only add to |g_b| on
 * average, most on few decisions a bin. Kumar, Liang and Ma (2019, "Verified uncertainty
 * calibration") estimate that bias with the normal approximation of each bin's accuracy,
 * ȳ*_b ~ N(ȳ_b, σ_b²), and subtract it. Here the expectation is exact rather than simulated
 * (the mean of a folded normal), so the estimate needs no seed:
 *
 *     debiased = Σ_b (n_b/N)·(2|g_b| − E|g_b + σ_b·Z|), at least 0,
 *     E|m + σZ| = σ·√(2/π)·exp(−m²/2σ²) + m·(1 − 2Φ(−m/σ)),
 *     σ_b² = max(ȳ(1 − ȳ), ã(1 − ã)) / n_b, ã = (hits + ½)/(n_b + 1)
 *
 * (ã keeps a bin whose decisions were all right, or all wrong, from counting as noiseless).
 *
 * Interval: the 2.5th and 97.5th percentiles of the debiased ECE recomputed on 2,000 seeded
 * draws g*_b = g_b + σ_b·Z (a parametric bootstrap), widened to contain the estimate; its low
 * end is 0 when the plug-in ECE is within the noise floor (a calibrated model would show as
 * much: the data do not exclude an ECE of 0). Coverage measured by simulation in
 * `debiased-ece.test.ts`. Bins are those of the measured ECE (equal width or equal mass,
 * pooled or per question, each question debiased on its own bins, then averaged); the
 * confidences are held fixed, as the noise floor holds them.
 */
import type { CalibrationOptions } from '../calibration.js';
import { createSeededRandom, standardNormalOf } from '../seeded-random.js';
import { percentileInterval, type Interval } from './bootstrap.js';
import type { CaseSample } from './case-sample.js';
import { decisionCells } from './decision-cells.js';

export interface DebiasedEce {
  /** The plug-in ECE the debiasing started from (the reported ECE, up to rounding). */
  readonly plugIn: number;
  /** Σ_b (n_b/N)·(2|g_b| − E|g_b + σ_b·Z|), at least 0. */
  readonly debiased: number;
  /** 95% parametric-bootstrap interval; null without simulations or when every draw agrees. */
  readonly interval: Interval | null;
  readonly simulations: number;
}

export const DEFAULT_DEBIAS_SIMULATIONS = 2000;

/** Φ(x), the standard normal distribution function (Abramowitz and Stegun 7.1.26, error below 1.5e-7). */
function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** E|m + σZ|, Z standard normal: the mean of a folded normal. */
function foldedMean(m: number, sd: number): number {
  if (sd === 0) return Math.abs(m);
  return sd * Math.sqrt(2 / Math.PI) * Math.exp((-m * m) / (2 * sd * sd)) + m * (1 - 2 * normalCdf(-m / sd));
}

/**
 * null without calibration decisions. `withinNoise`: whether the plug-in ECE is within the
 * noise floor (`eceNoiseOf`), which puts the interval's low end at 0.
 */
export function debiasedEce(
  sample: CaseSample,
  calibration: CalibrationOptions,
  options: { readonly seed: number; readonly withinNoise: boolean; readonly simulations?: number },
): DebiasedEce | null {
  if (sample.nDecisions === 0) return null;
  const cells = decisionCells(sample, calibration);
  const B = cells.bins;
  const G = cells.groups;
  const C = G * B;
  const n = new Float64Array(C);
  const hits = new Float64Array(C);
  // Confidence sums as integer multiples of 2^-32: exact, so the input order cannot matter.
  const conf = new Float64Array(C);
  const groupN = new Float64Array(G);
  for (let i = 0; i < sample.nDecisions; i++) {
    const c = cells.cellOf[i]!;
    if (c < 0) continue;
    n[c]!++;
    hits[c] = hits[c]! + sample.hit[i]!;
    conf[c] = conf[c]! + Math.round(sample.confidence[i]! * 2 ** 32);
    groupN[cells.groupOf[i]!]!++;
  }
  let groups = 0;
  for (let g = 0; g < G; g++) if (groupN[g]! > 0) groups++;
  const gapOf = new Float64Array(C);
  const sdOf = new Float64Array(C);
  for (let c = 0; c < C; c++) {
    if (n[c] === 0) continue;
    const accuracy = hits[c]! / n[c]!;
    const shrunk = (hits[c]! + 0.5) / (n[c]! + 1);
    gapOf[c] = accuracy - conf[c]! / 2 ** 32 / n[c]!;
    sdOf[c] = Math.sqrt(Math.max(accuracy * (1 - accuracy), shrunk * (1 - shrunk)) / n[c]!);
  }
  /** The mean over groups of Σ_b (n_b/N_g)·term(b). */
  const overBins = (term: (c: number) => number): number => {
    let total = 0;
    for (let g = 0; g < G; g++) {
      if (groupN[g] === 0) continue;
      let sum = 0;
      for (let c = g * B; c < g * B + B; c++) if (n[c]! > 0) sum += n[c]! * term(c);
      total += sum / groupN[g]!;
    }
    return total / groups;
  };
  const debiasedOf = (gap: Float64Array): number =>
    Math.max(
      0,
      overBins((c) => 2 * Math.abs(gap[c]!) - foldedMean(gap[c]!, sdOf[c]!)),
    );
  const plugIn = overBins((c) => Math.abs(gapOf[c]!));
  const debiased = debiasedOf(gapOf);
  const S = options.simulations ?? DEFAULT_DEBIAS_SIMULATIONS;
  if (S <= 0) return { plugIn, debiased, interval: null, simulations: 0 };
  const random = createSeededRandom(options.seed);
  const normal = standardNormalOf(random);
  const draws = new Float64Array(S);
  const drawn = new Float64Array(C);
  for (let s = 0; s < S; s++) {
    for (let c = 0; c < C; c++) drawn[c] = n[c]! > 0 ? gapOf[c]! + sdOf[c]! * normal() : 0;
    draws[s] = debiasedOf(drawn);
  }
  const interval = percentileInterval(draws, debiased);
  return {
    plugIn,
    debiased,
    interval: interval === null ? null : { low: options.withinNoise ? 0 : interval.low, high: interval.high },
    simulations: S,
  };
}
