/**
 * The "teacher" that labels synthetic cases the way Typed Decisions was labelled: hidden
 * factors give each question noise-free logits; the teacher reads the case with an error of
 * its own (shared by its samples) and answers three times with sampling noise; gold is the
 * mean of the three answer distributions, rounded to thousandths.
 */
import type { Prng } from './prng.js';

/** What a workflow generator returns for one case. */
export interface GeneratedCase {
  /** The state sent to models (reflects the factors, with noise). */
  readonly state: Record<string, unknown>;
  /** Hidden factors (never written out; kept for analysis). */
  readonly factors: Record<string, unknown>;
  /** Noise-free teacher logits per question id, in the question's canonical answer order. */
  readonly logits: Record<string, readonly number[]>;
}

export interface TeacherNoise {
  /** Standard deviation of the teacher's per-case misreading (shared by its three samples). */
  readonly caseSd: number;
  /** Standard deviation of each sample's own noise. */
  readonly sampleSd: number;
  /** Sampling temperature. */
  readonly temperature: number;
}

export const DEFAULT_NOISE: TeacherNoise = { caseSd: 1.2, sampleSd: 0.8, temperature: 1.3 };

export interface Gold {
  /** Aligned with the canonical answers; multiples of 0.001 summing to 1 within 0.002. */
  readonly probabilities: readonly number[];
  readonly labelIndex: number;
  /** True when two or more answers tied and the label is the recorded pick. */
  readonly tie: boolean;
}

export function softmax(logits: readonly number[]): number[] {
  const max = Math.max(...logits);
  const exps = logits.map((l) => Math.exp(l - max));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}

/**
 * Gold = mean of three noisy teacher samples. Each sample is reported in hundredths (as a
 * teacher's answer would be), the mean is stored in thousandths, so sums may be off 1 by a
 * few thousandths and exact ties happen; a tie's label is a recorded random pick.
 */
export function teacherGold(rng: Prng, logits: readonly number[], noise: TeacherNoise = DEFAULT_NOISE): Gold {
  const misread = logits.map(() => rng.normal() * noise.caseSd);
  const hundredths = logits.map(() => 0);
  for (let s = 0; s < 3; s++) {
    const p = softmax(logits.map((l, i) => (l + misread[i]! + rng.normal() * noise.sampleSd) / noise.temperature));
    roundToTotal(p, 100).forEach((h, i) => (hundredths[i]! += h));
  }
  const max = Math.max(...hundredths);
  const top = hundredths.flatMap((t, i) => (t === max ? [i] : []));
  const labelIndex = top.length === 1 ? top[0]! : rng.pick(top);
  // t / 300 to three decimals; 10 * t / 3 is never a half, so Math.round is exact here.
  return { probabilities: hundredths.map((t) => Math.round((10 * t) / 3) / 1000), labelIndex, tie: top.length > 1 };
}

/** Largest-remainder rounding of a distribution to whole units summing to `total`. */
export function roundToTotal(p: readonly number[], total: number): number[] {
  const scaled = p.map((x) => x * total);
  const floors = scaled.map(Math.floor);
  let missing = total - floors.reduce((a, b) => a + b, 0);
  const order = scaled.map((x, i) => [x - floors[i]!, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (missing <= 0) break;
    floors[i]!++;
    missing--;
  }
  return floors;
}

/** Logits of a `score` question peaked at a continuous level `mu`. */
export function scoreLogits(mu: number, levels: number, sharpness: number): number[] {
  const m = Math.min(levels - 1, Math.max(0, mu));
  return Array.from({ length: levels }, (_, k) => -sharpness * (k - m) * (k - m));
}

/** Logits of a `noul` question in canonical order (true, false) from log-odds of true. */
export function noulLogits(logOdds: number): number[] {
  return [logOdds, 0];
}

export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

/** Rounds to cents. */
export function cents(x: number): number {
  return Math.round(x * 100) / 100;
}
