/**
 * Temperature scaling fitted by minimising the mean cross-entropy of softmax(log p / T)
 * against the targets (log loss against one correct answer, cross-entropy against a soft
 * gold distribution), with probabilities floored as scoring floors them. The loss is convex
 * in 1/T (but for the floor), so a grid then a golden-section search over 1/T in
 * [1/20, 1/0.05] finds its minimum.
 */
import { CALIBRATION_FLOOR, withTemperature } from '../calibration-map.js';
import type { CalibrationExample } from './examples.js';

/** The temperatures searched: a fit at either end is flagged, not reported. */
export const TEMPERATURE_BOUNDS = { low: 0.05, high: 20 } as const;

const GRID_POINTS = 81;

function logGrid(low: number, high: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => low * Math.pow(high / low, i / (n - 1)));
}

export interface TemperatureFit {
  readonly temperature: number;
  /** The minimum lies at an end of the search (the loss keeps falling past it). */
  readonly atBound: 'low' | 'high' | null;
}

export function fitTemperature(examples: readonly CalibrationExample[]): TemperatureFit {
  const loss = (beta: number): number => meanCrossEntropy(examples, 1 / beta);
  // The floor makes the loss flat where it saturates (very sharp answers), so a plain
  // golden-section search could wander into the flat part: a log-spaced grid brackets the
  // minimum first (the lowest point, the first of equals), then the search narrows it.
  const grid = logGrid(1 / TEMPERATURE_BOUNDS.high, 1 / TEMPERATURE_BOUNDS.low, GRID_POINTS);
  let best = 0;
  let bestLoss = Infinity;
  grid.forEach((b, i) => {
    const f = loss(b);
    if (f < bestLoss) {
      best = i;
      bestLoss = f;
    }
  });
  let lo = grid[Math.max(0, best - 1)]!;
  let hi = grid[Math.min(grid.length - 1, best + 1)]!;
  const phi = (Math.sqrt(5) - 1) / 2;
  let x1 = hi - phi * (hi - lo);
  let x2 = lo + phi * (hi - lo);
  let f1 = loss(x1);
  let f2 = loss(x2);
  for (let i = 0; i < 200 && hi - lo > 1e-10 * (1 + hi); i++) {
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - phi * (hi - lo);
      f1 = loss(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + phi * (hi - lo);
      f2 = loss(x2);
    }
  }
  const beta = (lo + hi) / 2;
  const temperature = 1 / beta;
  const nearEnd = (t: number, end: number): boolean => Math.abs(Math.log(t / end)) < 1e-4;
  const atBound = nearEnd(temperature, TEMPERATURE_BOUNDS.low)
    ? 'low'
    : nearEnd(temperature, TEMPERATURE_BOUNDS.high)
      ? 'high'
      : null;
  return { temperature, atBound };
}

/** Mean over examples of -Σ target_i · ln max(q_i, floor), q the tempered distribution. */
export function meanCrossEntropy(examples: readonly CalibrationExample[], temperature: number): number {
  let total = 0;
  for (const e of examples) total += crossEntropy(e.target, withTemperature(e.p, temperature));
  return total / examples.length;
}

export function crossEntropy(target: readonly number[], q: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < target.length; i++) {
    const t = target[i]!;
    if (t > 0) s -= t * Math.log(Math.max(q[i] ?? 0, CALIBRATION_FLOOR));
  }
  return s;
}
