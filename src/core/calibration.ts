import { ExactSum } from './exact-sum.js';

/** One non-empty bin of a reliability table. */
export interface ReliabilityBin {
  /** Bin index 0..9; the bin covers [index/10, (index+1)/10), the last one includes 1. */
  readonly index: number;
  readonly lower: number;
  readonly upper: number;
  readonly n: number;
  readonly meanConfidence: number;
  readonly accuracy: number;
  /** accuracy - meanConfidence: negative means over-confident. */
  readonly gap: number;
}

export interface Calibration {
  /** Expected calibration error, or null when there were no decisions. */
  readonly ece: number | null;
  /** Mean confidence over all decisions, or null. */
  readonly meanConfidence: number | null;
  readonly n: number;
  /** Non-empty bins only, lowest first. */
  readonly bins: readonly ReliabilityBin[];
}

export const CALIBRATION_BINS = 10;

/** bin = min(floor(c * 10), 9), the rule of docs/scoring.md for bench and offline alike. */
export function binOf(confidence: number): number {
  return Math.min(Math.floor(confidence * CALIBRATION_BINS), CALIBRATION_BINS - 1);
}

/**
 * Streaming top-label calibration: feed (confidence, hit) pairs, read the table and ECE.
 * Sums are exact, so the result does not depend on the order of the pairs.
 */
export class CalibrationAccumulator {
  private readonly counts = new Array<number>(CALIBRATION_BINS).fill(0);
  private readonly hits = new Array<number>(CALIBRATION_BINS).fill(0);
  private readonly confidence: ExactSum[] = Array.from({ length: CALIBRATION_BINS }, () => new ExactSum());
  private total = 0;

  add(confidence: number, hit: boolean): void {
    const b = binOf(confidence);
    this.counts[b]!++;
    if (hit) this.hits[b]!++;
    this.confidence[b]!.add(confidence);
    this.total++;
  }

  /**
   * Adds `n` pairs of bin `bin` at once, `hits` of them right, their confidences summing to
   * `confidenceSum`: for engines that bin and count outside this process (the bin must be
   * `binOf` of each confidence).
   */
  addBin(bin: number, n: number, hits: number, confidenceSum: number): void {
    this.counts[bin]! += n;
    this.hits[bin]! += hits;
    this.confidence[bin]!.add(confidenceSum);
    this.total += n;
  }

  get n(): number {
    return this.total;
  }

  summarize(): Calibration {
    if (this.total === 0) return { ece: null, meanConfidence: null, n: 0, bins: [] };
    const bins: ReliabilityBin[] = [];
    const ece = new ExactSum();
    const allConfidence = new ExactSum();
    for (let b = 0; b < CALIBRATION_BINS; b++) {
      const n = this.counts[b]!;
      if (n === 0) continue;
      const conf = this.confidence[b]!;
      allConfidence.merge(conf);
      const meanConfidence = conf.value() / n;
      const accuracy = this.hits[b]! / n;
      ece.add((n * Math.abs(accuracy - meanConfidence)) / this.total);
      bins.push({
        index: b,
        lower: b / CALIBRATION_BINS,
        upper: (b + 1) / CALIBRATION_BINS,
        n,
        meanConfidence,
        accuracy,
        gap: accuracy - meanConfidence,
      });
    }
    return { ece: ece.value(), meanConfidence: allConfidence.value() / this.total, n: this.total, bins };
  }
}

/** Calibration of a list of (confidence, hit) pairs. */
export function calibrate(pairs: Iterable<{ readonly confidence: number; readonly hit: boolean }>): Calibration {
  const acc = new CalibrationAccumulator();
  for (const p of pairs) acc.add(p.confidence, p.hit);
  return acc.summarize();
}
