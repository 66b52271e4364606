/**
 * A calibration map (docs/calibrate.md): what `calibrate` fitted, and how `score` and
 * `compare` apply it before scoring. Shared code, so the rooms that apply a map never import
 * the calibrate room that fits one. Pure: the file is read and hashed above.
 */
import { LOG_LOSS_FLOOR } from './decision-score.js';
import { binOf } from './calibration.js';

export type CalibrationMethod = 'temperature' | 'platt' | 'isotonic' | 'histogram';
export const CALIBRATION_METHODS: readonly CalibrationMethod[] = ['temperature', 'platt', 'isotonic', 'histogram'];

/** How decisions are grouped, one fit a group: all together, by question type, or by question. */
export type CalibrationGrouping = 'all' | 'type' | 'question';
export const CALIBRATION_GROUPINGS: readonly CalibrationGrouping[] = ['all', 'type', 'question'];

/** Where the fitted decisions came from: offline answers (one correct answer) or a stored benchmark run (soft gold). */
export type CalibrationSource = 'offline' | 'bench';

/**
 * Probabilities are floored at the log-loss floor (1e-15) wherever a method takes a logarithm,
 * when fitting and when applying alike, so a 0 stays finite exactly as scoring treats it.
 */
export const CALIBRATION_FLOOR = LOG_LOSS_FLOOR;

/** One isotonic step: inputs from `x` up to the next step's `x` map to `y`. */
export interface IsotonicStep {
  readonly x: number;
  readonly y: number;
}

/** A group's fitted parameters, tagged by method. */
export type CalibrationParameters =
  | { readonly method: 'temperature'; readonly temperature: number }
  | { readonly method: 'platt'; readonly a: number; readonly b: number }
  | { readonly method: 'isotonic'; readonly steps: readonly IsotonicStep[] }
  | {
      readonly method: 'histogram';
      /** The mean outcome of each equal-width bin of the input probability; null for a bin no decision fell in (left unchanged). */
      readonly bins: readonly (number | null)[];
    };

/** One group of a map: its parameters, or none when it was left unchanged (and why). */
export interface CalibrationMapGroup {
  /** `all`; a question type; or a question (offline: the prompt; benchmark: workflow/question). */
  readonly key: string;
  readonly decisions: number;
  /** Null when the group is left unchanged. */
  readonly parameters: CalibrationParameters | null;
  /** Why the group is left unchanged, when it is. */
  readonly unchanged?: string;
}

export const CALIBRATION_MAP_FORMAT = 'decidekit-calibration-map';
export const CALIBRATION_MAP_VERSION = 1;

/** The map as its file holds it (JSON, snake_case on disk; see docs/calibrate.md). */
export interface CalibrationMap {
  readonly method: CalibrationMethod;
  readonly by: CalibrationGrouping;
  readonly source: CalibrationSource;
  readonly groups: readonly CalibrationMapGroup[];
  /** sha256 of the fitted decisions (their canonical text). */
  readonly dataSha256: string;
  /** Held-out metrics before and after, as the fit reported them (kept for the record, never read back). */
  readonly heldOut: unknown;
}

/**
 * Applies a group's parameters to one distribution (aligned with the question's answers).
 * A two-answer distribution is calibrated on its first answer's probability (yes/no:
 * P(yes)) and the second gets the rest; a longer one by temperature, or one-vs-rest then
 * renormalised (isotonic, histogram). Platt only fits two-answer groups.
 */
export function applyCalibration(parameters: CalibrationParameters, p: readonly number[]): number[] {
  if (parameters.method === 'temperature') return withTemperature(p, parameters.temperature);
  const one = oneValueMap(parameters);
  if (p.length === 2) {
    const q = clamp01(one(p[0]!));
    return [q, 1 - q];
  }
  return renormalised(
    p.map((x) => clamp01(one(x))),
    p,
  );
}

/** softmax(log p / T), with p floored at {@link CALIBRATION_FLOOR}; for yes/no it is sigmoid(logit p / T). */
export function withTemperature(p: readonly number[], temperature: number): number[] {
  const logs = p.map((x) => Math.log(Math.max(x, CALIBRATION_FLOOR)) / temperature);
  const top = Math.max(...logs);
  const e = logs.map((l) => Math.exp(l - top));
  const total = e.reduce((s, x) => s + x, 0);
  return e.map((x) => x / total);
}

/** logit of p with both p and 1 - p floored, so 0 and 1 stay finite. */
export function flooredLogit(p: number): number {
  return Math.log(Math.max(p, CALIBRATION_FLOOR)) - Math.log(Math.max(1 - p, CALIBRATION_FLOOR));
}

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/** The map of one probability that Platt, isotonic and histogram apply. */
function oneValueMap(parameters: Exclude<CalibrationParameters, { method: 'temperature' }>): (x: number) => number {
  switch (parameters.method) {
    case 'platt':
      return (x) => sigmoid(parameters.a * flooredLogit(x) + parameters.b);
    case 'isotonic':
      return (x) => isotonicValue(parameters.steps, x);
    case 'histogram':
      return (x) => parameters.bins[binOf(x, parameters.bins.length)] ?? x;
    default:
      return assertNever(parameters);
  }
}

/** The step an input falls in (the last whose x is at most it); below the first step, the first. */
export function isotonicValue(steps: readonly IsotonicStep[], x: number): number {
  if (steps.length === 0) return x;
  let lo = 0;
  let hi = steps.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (steps[mid]!.x <= x) lo = mid;
    else hi = mid - 1;
  }
  return steps[lo]!.y;
}

/** One-vs-rest values made a distribution again; all zeros fall back to the input. */
function renormalised(q: readonly number[], input: readonly number[]): number[] {
  const total = q.reduce((s, x) => s + x, 0);
  if (!(total > 0)) return [...input];
  return q.map((x) => x / total);
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

function assertNever(x: never): never {
  throw new TypeError(`unexpected calibration method: ${JSON.stringify(x)}`);
}

/** A map applied to a report's numbers (`--calibration MAP`): which file, its hash, how it was fitted. */
export interface AppliedCalibration {
  readonly path: string;
  /** sha256 of the map file's bytes. */
  readonly sha256: string;
  readonly method: CalibrationMethod;
  readonly by: CalibrationGrouping;
}

/** The one sentence every report prints under a recalibrated number. */
export function recalibratedText(c: AppliedCalibration): string {
  return `recalibrated with ${c.path} (${c.method} by ${c.by}, sha256 ${c.sha256.slice(0, 12)}): the numbers score the recalibrated probabilities; the saved answers are unchanged`;
}

/**
 * A map as a benchmark run applies it (`bench --calibration`, `report RUN --calibration`):
 * the file, its hash and, per group, the parameters, so a stored run's numbers recompute from
 * its raw answers without the file. A run records it in its configuration.
 */
export interface RunCalibration extends AppliedCalibration {
  readonly groups: readonly { readonly key: string; readonly parameters: CalibrationParameters | null }[];
}

/** The run's record of a map read from `path` (whose bytes hash to `sha256`). */
export function runCalibrationOf(applied: AppliedCalibration, map: CalibrationMap): RunCalibration {
  return {
    path: applied.path,
    sha256: applied.sha256,
    method: map.method,
    by: map.by,
    groups: map.groups.map((g) => ({ key: g.key, parameters: g.parameters })),
  };
}
