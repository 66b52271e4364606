/**
 * Platt scaling of yes/no (two-answer) decisions: P(first answer) = sigmoid(a · logit p + b),
 * logit with p floored as scoring floors it, fitted by Newton's method on the mean
 * cross-entropy against the target's first answer (a soft target on a benchmark).
 */
import { flooredLogit, sigmoid, CALIBRATION_FLOOR } from '../calibration-map.js';
import type { CalibrationExample } from './examples.js';

/** |a| and |b| beyond this are a fit running off (separable data): flagged, not reported. */
export const PLATT_BOUND = 50;

export interface PlattFit {
  readonly a: number;
  readonly b: number;
  readonly atBound: boolean;
}

export function fitPlatt(examples: readonly CalibrationExample[]): PlattFit {
  const xs = examples.map((e) => flooredLogit(e.p[0]!));
  const ys = examples.map((e) => e.target[0]!);
  let a = 1;
  let b = 0;
  let f = plattLoss(xs, ys, a, b);
  for (let iter = 0; iter < 200; iter++) {
    let ga = 0;
    let gb = 0;
    let haa = 1e-12;
    let hab = 0;
    let hbb = 1e-12;
    for (let i = 0; i < xs.length; i++) {
      const s = sigmoid(a * xs[i]! + b);
      const r = s - ys[i]!;
      const w = s * (1 - s);
      ga += r * xs[i]!;
      gb += r;
      haa += w * xs[i]! * xs[i]!;
      hab += w * xs[i]!;
      hbb += w;
    }
    const n = xs.length;
    if (Math.hypot(ga, gb) / n < 1e-12) break;
    const det = haa * hbb - hab * hab;
    let da = det > 0 ? -(hbb * ga - hab * gb) / det : -ga / n;
    let db = det > 0 ? -(haa * gb - hab * ga) / det : -gb / n;
    let step = 1;
    let next = plattLoss(xs, ys, a + da, b + db);
    while (!(next < f) && step > 1e-10) {
      step /= 2;
      da /= 2;
      db /= 2;
      next = plattLoss(xs, ys, a + da, b + db);
    }
    if (!(next < f)) break;
    a += da;
    b += db;
    const improvement = f - next;
    f = next;
    if (Math.abs(a) > PLATT_BOUND || Math.abs(b) > PLATT_BOUND) break;
    if (improvement < 1e-15 * (1 + f)) break;
  }
  return { a, b, atBound: Math.abs(a) > PLATT_BOUND || Math.abs(b) > PLATT_BOUND };
}

function plattLoss(xs: readonly number[], ys: readonly number[], a: number, b: number): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) {
    const q = sigmoid(a * xs[i]! + b);
    const y = ys[i]!;
    if (y > 0) s -= y * Math.log(Math.max(q, CALIBRATION_FLOOR));
    if (y < 1) s -= (1 - y) * Math.log(Math.max(1 - q, CALIBRATION_FLOOR));
  }
  return s / xs.length;
}
