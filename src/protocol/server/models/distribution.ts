/** Small pure helpers the built-in models share to turn evidence into distributions. */

export function uniformDistribution(n: number): number[] {
  return Array.from({ length: n }, () => 1 / n);
}

/** softmax(logits / temperature), max-shifted for stability. */
export function softmax(logits: readonly number[], temperature = 1): number[] {
  let max = -Infinity;
  for (const l of logits) if (l > max) max = l;
  const exps = logits.map((l) => Math.exp((l - max) / temperature));
  let sum = 0;
  for (const e of exps) sum += e;
  return exps.map((e) => e / sum);
}

export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

/** A noul P(true) kept off 0 and 1: a heuristic should never be certain. */
export function softNoul(z: number, floor = 0.03): number {
  return clamp(sigmoid(z), floor, 1 - floor);
}

/**
 * A distribution over `levels` score levels peaked at `mean` (clamped to the scale), a
 * discretised Gaussian with standard deviation `spread` levels: graded, never one-hot.
 */
export function levelDistribution(levels: number, mean: number, spread = 0.75): number[] {
  const m = clamp(mean, 0, levels - 1);
  return softmax(Array.from({ length: levels }, (_, i) => -((i - m) ** 2) / (2 * spread * spread)));
}

/** Mixes a small uniform share into a distribution so no answer is ever exactly 0. */
export function withFloor(d: readonly number[], share = 0.02): number[] {
  const u = share / d.length;
  return d.map((p) => (1 - share) * p + u);
}
