/**
 * One group's fit by the chosen method, or the reason it is left unchanged: too few
 * decisions, Platt on questions with more than two answers, separable data (every decision
 * already right, so the loss keeps falling), or a fit at the end of its search.
 */
import { argmaxFirst } from '../decision-score.js';
import { CALIBRATION_BINS } from '../calibration.js';
import type { CalibrationMethod, CalibrationParameters } from '../calibration-map.js';
import { binOf } from '../calibration.js';
import type { CalibrationExample } from './examples.js';
import { fitIsotonicSteps } from './isotonic.js';
import { fitPlatt, PLATT_BOUND } from './platt-fit.js';
import { fitTemperature, TEMPERATURE_BOUNDS } from './temperature-fit.js';

/**
 * The fewest decisions a group needs for each method: one parameter needs fewer than two,
 * and a step function (isotonic, ten histogram bins) needs a few per step.
 */
export const MIN_DECISIONS_TO_FIT: Readonly<Record<CalibrationMethod, number>> = {
  temperature: 10,
  platt: 20,
  isotonic: 40,
  histogram: 40,
};

/** Why a group is left unchanged. */
export type UnchangedReason =
  | { readonly kind: 'too_few'; readonly decisions: number; readonly needed: number }
  | { readonly kind: 'not_two_answers'; readonly answers: number }
  | { readonly kind: 'separable' }
  | { readonly kind: 'at_bound'; readonly detail: string };

export type GroupFit =
  | { readonly status: 'fitted'; readonly parameters: CalibrationParameters }
  | { readonly status: 'unchanged'; readonly reason: UnchangedReason };

export function fitGroup(method: CalibrationMethod, examples: readonly CalibrationExample[]): GroupFit {
  const needed = MIN_DECISIONS_TO_FIT[method];
  if (examples.length < needed)
    return { status: 'unchanged', reason: { kind: 'too_few', decisions: examples.length, needed } };
  const wide = examples.find((e) => e.p.length !== 2);
  if (method === 'platt' && wide !== undefined)
    return { status: 'unchanged', reason: { kind: 'not_two_answers', answers: wide.p.length } };
  if ((method === 'temperature' || method === 'platt') && separable(examples))
    return { status: 'unchanged', reason: { kind: 'separable' } };
  switch (method) {
    case 'temperature': {
      const fit = fitTemperature(examples);
      if (fit.atBound !== null)
        return {
          status: 'unchanged',
          reason: {
            kind: 'at_bound',
            detail: `the temperature reached ${fit.atBound === 'low' ? TEMPERATURE_BOUNDS.low : TEMPERATURE_BOUNDS.high}, the end of its search`,
          },
        };
      return { status: 'fitted', parameters: { method, temperature: fit.temperature } };
    }
    case 'platt': {
      const fit = fitPlatt(examples);
      if (fit.atBound)
        return {
          status: 'unchanged',
          reason: { kind: 'at_bound', detail: `a or b passed ${PLATT_BOUND} in size (the loss keeps falling)` },
        };
      return { status: 'fitted', parameters: { method, a: fit.a, b: fit.b } };
    }
    case 'isotonic':
      return { status: 'fitted', parameters: { method, steps: fitIsotonicSteps(oneVsRestPairs(examples)) } };
    case 'histogram':
      return { status: 'fitted', parameters: { method, bins: fitHistogram(oneVsRestPairs(examples)) } };
    default:
      return assertNever(method);
  }
}

/**
 * Every decision's target is one answer and the prediction is that answer: a sharper
 * temperature (or a steeper Platt slope) always lowers the loss, so no finite fit exists.
 */
function separable(examples: readonly CalibrationExample[]): boolean {
  return examples.every((e) => {
    const oneHot = e.target.every((t) => t === 0 || t === 1);
    return oneHot && (e.pickedIndex ?? argmaxFirst(e.p)) === e.labelIndex;
  });
}

/** Two-answer decisions give their first answer's pair; longer ones every answer's (one-vs-rest). */
export function oneVsRestPairs(examples: readonly CalibrationExample[]): { x: number; y: number }[] {
  const pairs: { x: number; y: number }[] = [];
  for (const e of examples) {
    const n = e.p.length === 2 ? 1 : e.p.length;
    for (let k = 0; k < n; k++) pairs.push({ x: e.p[k]!, y: e.target[k]! });
  }
  return pairs;
}

/** Mean target of each of ten equal-width bins of the input probability (null when empty). */
function fitHistogram(pairs: readonly { x: number; y: number }[]): (number | null)[] {
  const sums = new Array<number>(CALIBRATION_BINS).fill(0);
  const counts = new Array<number>(CALIBRATION_BINS).fill(0);
  for (const p of pairs) {
    const b = binOf(p.x, CALIBRATION_BINS);
    sums[b]! += p.y;
    counts[b]! += 1;
  }
  return sums.map((s, b) => (counts[b]! === 0 ? null : s / counts[b]!));
}

/** The words of a reason, as reports and the map file give them. */
export function unchangedText(reason: UnchangedReason): string {
  switch (reason.kind) {
    case 'too_few':
      return `too few decisions to fit: ${reason.decisions}, the method needs at least ${reason.needed}`;
    case 'not_two_answers':
      return `platt fits yes/no (two-answer) questions only; this group has questions of ${reason.answers} answers`;
    case 'separable':
      return 'separable: every decision is already right, so the loss keeps falling and no finite fit exists';
    case 'at_bound':
      return `fit hit a search bound: ${reason.detail}`;
    default:
      return assertNever(reason);
  }
}

function assertNever(x: never): never {
  throw new TypeError(`unexpected value: ${JSON.stringify(x)}`);
}
