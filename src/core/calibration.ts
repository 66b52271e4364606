import { ExactSum } from './exact-sum.js';

/** How confidences are cut into bins: fixed equal-width ranges, or ranges holding equal numbers of decisions. */
export type EceBinning = 'equal-width' | 'equal-mass';
/** How bins become one ECE: over all decisions at once, or each question's ECE averaged (each question weighs 1). */
export type EceAverage = 'pooled' | 'per-question';

/** The ECE convention; docs/scoring.md states each choice. */
export interface CalibrationOptions {
  /** Number of bins; default 10. */
  readonly bins: number;
  /** Default `equal-width`. */
  readonly binning: EceBinning;
  /** Default `pooled`. */
  readonly average: EceAverage;
}

export const CALIBRATION_BINS = 10;

export const DEFAULT_CALIBRATION: CalibrationOptions = Object.freeze({
  bins: CALIBRATION_BINS,
  binning: 'equal-width',
  average: 'pooled',
});

/** One non-empty bin of a reliability table. */
export interface ReliabilityBin {
  /**
   * Bin index 0..bins-1. Equal-width bins cover [lower, upper), the last one including 1;
   * equal-mass bins cover (lower, upper], the first one including 0.
   */
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
  /** Non-empty bins only, lowest first (pooled over every decision, whatever the averaging). */
  readonly bins: readonly ReliabilityBin[];
}

/** bin = min(floor(c * bins), bins - 1): the equal-width rule of docs/scoring.md for bench and offline alike. */
export function binOf(confidence: number, bins = CALIBRATION_BINS): number {
  return Math.min(Math.floor(confidence * bins), bins - 1);
}

/**
 * A binning fixed once: equal-width needs nothing, equal-mass takes its edges from the
 * sorted confidences it is built on. The bootstrap and the noise floor reuse the binning of
 * the whole sample, so a resample is binned like the measured run.
 */
export interface Binner {
  readonly bins: number;
  /** Bin index of a confidence. */
  binOf(confidence: number): number;
  /** The ends of a bin. */
  range(index: number): readonly [number, number];
}

/**
 * Equal-mass edges: edge b (1..bins-1) is the largest confidence among the first
 * ceil(b·n/bins) in sorted order, and bin b holds the confidences in (edge b, edge b+1] (bin 0
 * from 0, the last up to 1). Equal confidences therefore always share a bin: with ties, bins
 * hold unequal counts, or none.
 */
export function createBinner(
  options: Pick<CalibrationOptions, 'bins' | 'binning'>,
  sortedConfidences?: Float64Array,
): Binner {
  const bins = options.bins;
  if (options.binning === 'equal-width' || sortedConfidences === undefined || sortedConfidences.length === 0) {
    return { bins, binOf: (c) => binOf(c, bins), range: (b) => [b / bins, (b + 1) / bins] };
  }
  const n = sortedConfidences.length;
  const edges = new Float64Array(bins + 1);
  edges[0] = 0;
  edges[bins] = 1;
  for (let b = 1; b < bins; b++) edges[b] = sortedConfidences[Math.ceil((b * n) / bins) - 1]!;
  return {
    bins,
    binOf(c) {
      // The number of inner edges strictly below c.
      let lo = 1;
      let hi = bins;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (edges[mid]! < c) lo = mid + 1;
        else hi = mid;
      }
      return lo - 1;
    },
    range: (b) => [edges[b]!, edges[b + 1]!],
  };
}

/**
 * Top-label calibration: feed (confidence, hit[, question]) triples, read the table and ECE.
 * Sums are exact, so the result does not depend on the order of the pairs. Under the default
 * convention (equal-width, pooled) it streams in constant memory; equal-mass bins and
 * per-question averaging need every confidence, so they keep them in typed arrays.
 */
export class CalibrationAccumulator {
  private readonly options: CalibrationOptions;
  private readonly streaming: boolean;
  private readonly counts: number[];
  private readonly hits: number[];
  private readonly confidence: ExactSum[];
  private total = 0;
  // Kept only when not streaming.
  private kept = new Float64Array(0);
  private keptHits = new Uint8Array(0);
  private keptGroups = new Int32Array(0);
  private readonly groupIndex = new Map<string, number>();

  constructor(options: CalibrationOptions = DEFAULT_CALIBRATION) {
    this.options = options;
    this.streaming = options.binning === 'equal-width' && options.average === 'pooled';
    this.counts = new Array<number>(options.bins).fill(0);
    this.hits = new Array<number>(options.bins).fill(0);
    this.confidence = Array.from({ length: options.bins }, () => new ExactSum());
  }

  /** `question` matters only to per-question averaging; decisions without one form one question. */
  add(confidence: number, hit: boolean, question = ''): void {
    if (this.streaming) {
      const b = binOf(confidence, this.options.bins);
      this.counts[b]!++;
      if (hit) this.hits[b]!++;
      this.confidence[b]!.add(confidence);
      this.total++;
      return;
    }
    if (this.total === this.kept.length) this.grow();
    let g = this.groupIndex.get(question);
    if (g === undefined) {
      g = this.groupIndex.size;
      this.groupIndex.set(question, g);
    }
    this.kept[this.total] = confidence;
    this.keptHits[this.total] = hit ? 1 : 0;
    this.keptGroups[this.total] = g;
    this.total++;
  }

  /**
   * Adds `n` pairs of bin `bin` at once, `hits` of them right, their confidences summing to
   * `confidenceSum`: for engines that bin and count outside this process (the bin must be
   * `binOf` of each confidence).
   */
  addBin(bin: number, n: number, hits: number, confidenceSum: number): void {
    if (!this.streaming) throw new TypeError('addBin needs equal-width bins pooled over decisions');
    this.counts[bin]! += n;
    this.hits[bin]! += hits;
    this.confidence[bin]!.add(confidenceSum);
    this.total += n;
  }

  get n(): number {
    return this.total;
  }

  /**
   * Adds every pair `other` was given (under the same convention): the table is the one
   * adding them here one by one would give, as sums are exact and bins are counts.
   */
  merge(other: CalibrationAccumulator): void {
    if (this.streaming) {
      for (let b = 0; b < this.counts.length; b++) {
        this.counts[b]! += other.counts[b]!;
        this.hits[b]! += other.hits[b]!;
        this.confidence[b]!.merge(other.confidence[b]!);
      }
      this.total += other.total;
      return;
    }
    const names: string[] = [];
    for (const [name, g] of other.groupIndex) names[g] = name;
    for (let i = 0; i < other.total; i++)
      this.add(other.kept[i]!, other.keptHits[i] === 1, names[other.keptGroups[i]!]!);
  }

  summarize(): Calibration {
    if (this.total === 0) return { ece: null, meanConfidence: null, n: 0, bins: [] };
    if (this.streaming) {
      return tableOf(this.counts, this.hits, this.confidence, this.total, createBinner(this.options));
    }
    const n = this.total;
    const conf = this.kept.subarray(0, n);
    const pooled = binPairs(conf, this.keptHits, this.options);
    if (this.options.average === 'pooled') return pooled;
    // Per question: each question's ECE over its own bins, then the plain mean over questions.
    const byGroup: number[][] = Array.from({ length: this.groupIndex.size }, () => []);
    for (let i = 0; i < n; i++) byGroup[this.keptGroups[i]!]!.push(i);
    const ece = new ExactSum();
    for (const members of byGroup) {
      const c = new Float64Array(members.length);
      const h = new Uint8Array(members.length);
      members.forEach((m, j) => {
        c[j] = conf[m]!;
        h[j] = this.keptHits[m]!;
      });
      ece.add(binPairs(c, h, this.options).ece!);
    }
    return { ...pooled, ece: ece.value() / byGroup.length };
  }

  private grow(): void {
    const size = Math.max(1024, this.kept.length * 2);
    const kept = new Float64Array(size);
    kept.set(this.kept);
    const hits = new Uint8Array(size);
    hits.set(this.keptHits);
    const groups = new Int32Array(size);
    groups.set(this.keptGroups);
    this.kept = kept;
    this.keptHits = hits;
    this.keptGroups = groups;
  }
}

function binPairs(conf: Float64Array, hits: Uint8Array, options: CalibrationOptions): Calibration {
  const binner = createBinner(options, options.binning === 'equal-mass' ? Float64Array.from(conf).sort() : undefined);
  const counts = new Array<number>(options.bins).fill(0);
  const hitCounts = new Array<number>(options.bins).fill(0);
  const sums = Array.from({ length: options.bins }, () => new ExactSum());
  for (let i = 0; i < conf.length; i++) {
    const b = binner.binOf(conf[i]!);
    counts[b]!++;
    hitCounts[b]! += hits[i]!;
    sums[b]!.add(conf[i]!);
  }
  return tableOf(counts, hitCounts, sums, conf.length, binner);
}

function tableOf(
  counts: readonly number[],
  hits: readonly number[],
  confidence: readonly ExactSum[],
  total: number,
  binner: Binner,
): Calibration {
  const bins: ReliabilityBin[] = [];
  const ece = new ExactSum();
  const allConfidence = new ExactSum();
  for (let b = 0; b < counts.length; b++) {
    const n = counts[b]!;
    if (n === 0) continue;
    const conf = confidence[b]!;
    allConfidence.merge(conf);
    const meanConfidence = conf.value() / n;
    const accuracy = hits[b]! / n;
    ece.add((n * Math.abs(accuracy - meanConfidence)) / total);
    const [lower, upper] = binner.range(b);
    bins.push({ index: b, lower, upper, n, meanConfidence, accuracy, gap: accuracy - meanConfidence });
  }
  return { ece: ece.value(), meanConfidence: allConfidence.value() / total, n: total, bins };
}

/** Calibration of a list of (confidence, hit[, question]) triples. */
export function calibrate(
  pairs: Iterable<{ readonly confidence: number; readonly hit: boolean; readonly question?: string }>,
  options: CalibrationOptions = DEFAULT_CALIBRATION,
): Calibration {
  const acc = new CalibrationAccumulator(options);
  for (const p of pairs) acc.add(p.confidence, p.hit, p.question);
  return acc.summarize();
}
