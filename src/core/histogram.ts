/** Equal-width histograms with round bin edges, for latency distributions. */

export interface HistogramBin {
  /** The bin covers [lower, upper); the last bin includes `upper`. */
  readonly lower: number;
  readonly upper: number;
  readonly n: number;
}

/** The smallest 1, 2 or 5 × 10^k at or above `x` (x > 0). */
export function roundStep(x: number): number {
  const power = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) if (m * power >= x * (1 - 1e-12)) return m * power;
  return 10 * power;
}

export interface HistogramOptions {
  /** Bins wanted at most (the width is rounded up to 1, 2 or 5 × 10^k). Default 20. */
  readonly maxBins?: number;
  /** Range to cover, e.g. shared by several runs; default the values' own min and max. */
  readonly range?: { readonly min: number; readonly max: number };
}

/** Counts of `values` in round-width bins from a multiple of the width at or below the minimum; [] for no values. */
export function histogramOf(values: readonly number[], options: HistogramOptions = {}): HistogramBin[] {
  if (values.length === 0 && options.range === undefined) return [];
  let min = options.range?.min ?? Infinity;
  let max = options.range?.max ?? -Infinity;
  if (options.range === undefined) {
    for (const v of values) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  const maxBins = options.maxBins ?? 20;
  const width = max > min ? roundStep((max - min) / maxBins) : roundStep(Math.max(Math.abs(max), 1) / maxBins);
  const start = Math.floor(min / width) * width;
  const count = Math.max(1, Math.floor((max - start) / width) + 1);
  const n = new Array<number>(count).fill(0);
  for (const v of values) n[Math.min(count - 1, Math.max(0, Math.floor((v - start) / width)))]!++;
  return n.map((k, i) => ({ lower: start + i * width, upper: start + (i + 1) * width, n: k }));
}
